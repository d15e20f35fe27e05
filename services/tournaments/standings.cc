#include "services/tournaments/standings.h"

#include <algorithm>
#include <map>
#include <set>

#include "services/common/status_macros.h"
#include "services/tournaments/event_json.h"
#include "services/tournaments/standings_internal.h"

namespace gorank::tournaments {

std::string Rational::ToString() const {
  // A terminating decimal exists only when den is 2^a 5^b.
  int64_t rest = den_;
  while (rest % 2 == 0) rest /= 2;
  while (rest % 5 == 0) rest /= 5;
  if (rest != 1) {
    const bool negative = num_ < 0;
    const int64_t abs = negative ? -num_ : num_;
    const std::string sign = negative ? "-" : "";
    const std::string frac =
        std::to_string(abs % den_) + "/" + std::to_string(den_);
    if (abs < den_) return sign + frac;
    return sign + std::to_string(abs / den_) + " " + frac;
  }
  int digits = 0;
  int64_t scale = 1;
  while (scale % den_ != 0) {
    ++digits;
    scale *= 10;
  }
  const bool negative = num_ < 0;
  const int64_t abs = negative ? -num_ : num_;
  std::string out = std::to_string(abs / den_);
  if (digits > 0) {
    std::string frac = std::to_string((abs % den_) * (scale / den_));
    frac.insert(0, digits - frac.size(), '0');
    out += "." + frac;
  }
  return negative ? "-" + out : out;
}

std::string Rational::ToDecimal(int places) const {
  int64_t scale = 1;
  for (int i = 0; i < places; ++i) scale *= 10;
  const bool negative = num_ < 0;
  const Wide abs = negative ? -static_cast<Wide>(num_) : num_;
  // round(abs / den * scale), half away from zero
  const Wide scaled = (abs * scale * 2 + den_) / (2 * static_cast<Wide>(den_));
  const Rational r(static_cast<int64_t>(negative ? -scaled : scaled), scale);
  return r.ToString();
}

namespace internal {
namespace {

// The decision that orders exactly the members of `group`, or nullptr.
const TieDecision* FindDecision(const std::vector<ScoredRow>& rows,
                                size_t begin, size_t end,
                                const std::vector<TieDecision>& decisions) {
  for (const TieDecision& d : decisions) {
    std::set<int> covered(d.order.begin(), d.order.end());
    bool all = true;
    for (size_t i = begin; i < end && all; ++i) {
      all = covered.count(rows[i].row.id) > 0;
    }
    if (all) return &d;
  }
  return nullptr;
}

int Position(const TieDecision& d, int id) {
  return static_cast<int>(std::find(d.order.begin(), d.order.end(), id) -
                          d.order.begin());
}

}  // namespace

void NumberPlaces(std::vector<ScoredRow> rows, bool shared_allowed,
                  const std::vector<TieDecision>& decisions,
                  Standings& standings) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const ScoredRow& a, const ScoredRow& b) {
                     if (a.key != b.key) return a.key > b.key;
                     return a.row.id < b.row.id;
                   });
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin + 1;
    while (end < rows.size() && rows[end].key == rows[begin].key) ++end;
    const int place = static_cast<int>(begin) + 1;
    const int last = static_cast<int>(end);
    const TieDecision* decision =
        end - begin > 1 ? FindDecision(rows, begin, end, decisions) : nullptr;
    if (decision != nullptr) {
      std::stable_sort(rows.begin() + begin, rows.begin() + end,
                       [&](const ScoredRow& a, const ScoredRow& b) {
                         return Position(*decision, a.row.id) <
                                Position(*decision, b.row.id);
                       });
    }
    for (size_t i = begin; i < end; ++i) {
      StandingRow& row = rows[i].row;
      if (end - begin == 1) {
        row.place = place;
        row.state = PlaceState::kAlone;
        row.place_label = std::to_string(place);
      } else if (decision != nullptr) {
        row.place = static_cast<int>(i) + 1;
        const bool lots = decision->method == TieDecisionMethod::kLots;
        row.state = lots ? PlaceState::kByLots : PlaceState::kByPlayoff;
        row.place_label =
            std::to_string(row.place) + (lots ? " (lots)" : " (play-off)");
      } else if (shared_allowed) {
        row.place = place;
        row.state = PlaceState::kShared;
        row.place_label = std::to_string(place) + "=";
      } else {
        row.place = place;
        row.state = PlaceState::kPendingPlayoff;
        row.place_label = "pending play-off (" + std::to_string(place) + "-" +
                          std::to_string(last) + ")";
      }
    }
    if (end - begin > 1 && decision == nullptr && !shared_allowed) {
      standings.status = StandingsStatus::kPendingPlayoff;
      if (!standings.pending_reason.empty()) standings.pending_reason += "; ";
      standings.pending_reason += "places " + std::to_string(place) + "-" +
                                  std::to_string(last) +
                                  " await a play-off or drawing of lots";
    }
    begin = end;
  }
  for (ScoredRow& r : rows) standings.rows.push_back(std::move(r.row));
}

std::string UnknownGames(const std::vector<Game>& games) {
  std::string out;
  int listed = 0;
  int total = 0;
  for (const Game& g : games) {
    if (g.outcome != Outcome::kUnknown) continue;
    ++total;
    if (++listed > 10) continue;
    out += (out.empty() ? "" : ", ") + std::string("round ") +
           std::to_string(g.round) + " " + std::to_string(g.black.value) +
           " v " + std::to_string(g.white.value);
  }
  if (total == 0) return "";
  if (total > 10) out += ", ... (" + std::to_string(total) + " in all)";
  return "unknown results: " + out;
}

Rational WithdrawnScore(int points, int games_played, int rounds,
                        int withdrawn_after) {
  const int unplayed = std::max(0, rounds - withdrawn_after);
  if (games_played <= 0) return Rational(points);
  Rational a(points, games_played);
  if (a > Rational(1)) a = Rational(1);
  return Rational(points) + a * Rational(unplayed);
}

}  // namespace internal

bool OnlyTieDecisionsDiffer(const EventResults& before,
                            const EventResults& after) {
  EventResults a = before, b = after;
  a.tie_decisions.clear();
  b.tie_decisions.clear();
  return ResultsToJson(a) == ResultsToJson(b) &&
         ResultsToJson(before) != ResultsToJson(after);
}

absl::Status CheckDecidesPendingTies(
    const Standings& standings, const std::vector<TieDecision>& decisions) {
  // Pending groups share a place number.
  std::map<int, std::set<int>> groups;
  for (const StandingRow& r : standings.rows) {
    if (r.state == PlaceState::kPendingPlayoff) groups[r.place].insert(r.id);
  }
  std::string pending;
  for (const auto& [place, ids] : groups) {
    std::string members;
    for (int id : ids)
      members += (members.empty() ? "" : " ") + std::to_string(id);
    pending += (pending.empty() ? "" : "; ") + std::string("place ") +
               std::to_string(place) + ": " + members;
  }
  for (const TieDecision& d : decisions) {
    const std::set<int> order(d.order.begin(), d.order.end());
    bool found = false;
    for (const auto& [place, ids] : groups) found = found || ids == order;
    if (found) continue;
    std::string named;
    for (int id : d.order)
      named += (named.empty() ? "" : " ") + std::to_string(id);
    return absl::FailedPreconditionError(
        "the event is closed: it takes only a play-off or lots deciding a "
        "tie that is still pending, and " +
        named + " is not one (" +
        (pending.empty() ? std::string("no place is pending")
                         : "pending: " + pending) +
        ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<EventResults> CountedResults(const Event& event,
                                            const EventResults& results) {
  if (event.format.kind == FormatKind::kRoundRobin) {
    GORANK_RETURN_IF_ERROR(ValidateResults(event, results));
    return internal::RoundRobinCountedResults(event, results);
  }
  // Elsewhere only an entrant withdrawn before the start is voided (a
  // redraw), and only when they never played.
  EventResults counted = results;
  std::set<int> played;
  for (const Game& g : results.games) {
    played.insert(g.black.value);
    played.insert(g.white.value);
  }
  std::set<int> voided;
  for (const Entrant& e : results.entrants) {
    if (e.withdrawn_after_round == 0 && !played.count(e.id.value)) {
      voided.insert(e.id.value);
    }
  }
  std::erase_if(counted.byes, [&](const Bye& b) {
    return voided.count(b.entrant.value) > 0;
  });
  return counted;
}

absl::StatusOr<Standings> ComputeStandings(const Event& event,
                                           const EventResults& results) {
  GORANK_RETURN_IF_ERROR(ValidateEvent(event));
  GORANK_RETURN_IF_ERROR(ValidateResults(event, results));
  const std::string unknown = internal::UnknownGames(results.games);
  if (!unknown.empty()) {
    Standings pending;
    pending.status = StandingsStatus::kPendingResults;
    pending.pending_reason = unknown;
    pending.teams = IsTeamFormat(event.format.kind);
    return pending;
  }
  switch (event.format.kind) {
    case FormatKind::kRoundRobin:
      return internal::RoundRobinStandings(event, results);
    case FormatKind::kSwiss:
      return internal::SwissStandings(event, results);
    case FormatKind::kTeamRoundRobin:
    case FormatKind::kTeamSwiss:
      return internal::TeamStandings(event, results);
    case FormatKind::kKnockout:
      return internal::KnockoutStandings(event, results);
    case FormatKind::kRelay:
      return internal::RelayStandings(event, results);
    case FormatKind::kMatch:
      return internal::MatchStandings(event, results);
    case FormatKind::kUnspecified:
      break;
  }
  return absl::InvalidArgumentError("event has no format");
}

}  // namespace gorank::tournaments
