#include "services/tournaments/event.h"

#include <array>
#include <utility>

namespace gorank::tournaments {
namespace {

template <typename E, size_t N>
std::string CodeOf(const std::array<std::pair<E, const char*>, N>& table,
                   E value) {
  for (const auto& [v, code] : table) {
    if (v == value) return code;
  }
  return "unspecified";
}

template <typename E, size_t N>
absl::StatusOr<E> ParseCode(
    const std::array<std::pair<E, const char*>, N>& table,
    const std::string& code, const char* what) {
  for (const auto& [v, c] : table) {
    if (code == c) return v;
  }
  std::string known;
  for (const auto& entry : table) {
    known += known.empty() ? "" : ", ";
    known += entry.second;
  }
  return absl::InvalidArgumentError(std::string("unknown ") + what + " '" +
                                    code + "'; expected one of: " + known);
}

constexpr std::array<std::pair<EventLevel, const char*>, 6> kLevels{{
    {EventLevel::kWorld, "world"},
    {EventLevel::kContinental, "continental"},
    {EventLevel::kNational, "national"},
    {EventLevel::kProvincial, "provincial"},
    {EventLevel::kCity, "city"},
    {EventLevel::kClub, "club"},
}};

constexpr std::array<std::pair<SubEvent, const char*>, 9> kSubEvents{{
    {SubEvent::kMenIndividual, "men_individual"},
    {SubEvent::kWomenIndividual, "women_individual"},
    {SubEvent::kOpenIndividual, "open_individual"},
    {SubEvent::kMenTeam, "men_team"},
    {SubEvent::kWomenTeam, "women_team"},
    {SubEvent::kOpenTeam, "open_team"},
    {SubEvent::kMixedPairs, "mixed_pairs"},
    {SubEvent::kMixedTeam, "mixed_team"},
    {SubEvent::kOther, "other"},
}};

constexpr std::array<std::pair<FormatKind, const char*>, 7> kFormats{{
    {FormatKind::kRoundRobin, "round_robin"},
    {FormatKind::kSwiss, "swiss"},
    {FormatKind::kKnockout, "knockout"},
    {FormatKind::kTeamRoundRobin, "team_round_robin"},
    {FormatKind::kTeamSwiss, "team_swiss"},
    {FormatKind::kRelay, "relay"},
    {FormatKind::kMatch, "match"},
}};

constexpr std::array<std::pair<TimeClass, const char*>, 5> kTimeClasses{{
    {TimeClass::kA, "A"},
    {TimeClass::kB, "B"},
    {TimeClass::kC, "C"},
    {TimeClass::kD, "D"},
    {TimeClass::kX, "X"},
}};

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

}  // namespace

bool IsTeamFormat(FormatKind kind) {
  return kind == FormatKind::kTeamRoundRobin ||
         kind == FormatKind::kTeamSwiss || kind == FormatKind::kRelay;
}

absl::Status ValidateEvent(const Event& event) {
  if (event.name.empty()) return Invalid("event name is empty");
  if (event.start.IsValid() && event.end.IsValid() && event.end < event.start) {
    return Invalid("event ends (" + event.end.ToString() +
                   ") before it starts (" + event.start.ToString() + ")");
  }
  const Format& f = event.format;
  switch (f.kind) {
    case FormatKind::kUnspecified:
      return Invalid("event '" + event.name +
                     "' has no format; set round robin, Swiss, knockout, "
                     "team, relay or match");
    case FormatKind::kRoundRobin:
      if (f.cycles < 1 || f.cycles > 2) {
        return Invalid("round robin cycles must be 1 or 2, got " +
                       std::to_string(f.cycles));
      }
      break;
    case FormatKind::kSwiss:
    case FormatKind::kTeamSwiss:
      if (f.rounds < 1) {
        return Invalid("a Swiss event needs its number of rounds (>= 1)");
      }
      break;
    case FormatKind::kKnockout:
      if (f.lives < 1) return Invalid("knockout lives must be >= 1");
      break;
    case FormatKind::kMatch:
      if (f.best_of < 1 || f.best_of % 2 == 0) {
        return Invalid("a match is best of an odd number of games, got " +
                       std::to_string(f.best_of));
      }
      break;
    case FormatKind::kTeamRoundRobin:
    case FormatKind::kRelay:
      break;
  }
  if ((f.kind == FormatKind::kTeamRoundRobin ||
       f.kind == FormatKind::kTeamSwiss) &&
      f.boards < 1) {
    return Invalid("a team event needs its number of boards (>= 1)");
  }
  return absl::OkStatus();
}

std::string LevelCode(EventLevel level) { return CodeOf(kLevels, level); }
absl::StatusOr<EventLevel> ParseLevelCode(const std::string& code) {
  return ParseCode(kLevels, code, "event level");
}
std::string SubEventCode(SubEvent sub_event) {
  return CodeOf(kSubEvents, sub_event);
}
absl::StatusOr<SubEvent> ParseSubEventCode(const std::string& code) {
  return ParseCode(kSubEvents, code, "sub-event");
}
std::string FormatKindCode(FormatKind kind) { return CodeOf(kFormats, kind); }
std::string TimeClassCode(TimeClass time_class) {
  if (time_class == TimeClass::kUnspecified) return "";
  return CodeOf(kTimeClasses, time_class);
}
absl::StatusOr<TimeClass> ParseTimeClassCode(const std::string& code) {
  return ParseCode(kTimeClasses, code, "time class");
}

}  // namespace gorank::tournaments
