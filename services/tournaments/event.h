// The event model of SPEC section 4: one event is one standings table - a
// competition's group and sub-event played in one format (for example "the
// 2025 National Go Championship, amateur group, men's individual, Swiss of 9
// rounds"). Value types only; the competition catalogue that names the
// competitions lives in competition_catalogue.h, entrants and results in
// results.h.
#ifndef GORANK_SERVICES_TOURNAMENTS_EVENT_H_
#define GORANK_SERVICES_TOURNAMENTS_EVENT_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/registry/rank.h"

namespace gorank::tournaments {

struct EventId {
  int64_t value = 0;
  auto operator<=>(const EventId&) const = default;
};

enum class EventLevel {
  kUnspecified = 0,
  kWorld,
  kContinental,
  kNational,
  kProvincial,
  kCity,
  kClub,
};

// The sub-events of the athlete-grade standard, note 1, plus the others an
// event may have. "Open" is a sub-event not split by gender.
enum class SubEvent {
  kUnspecified = 0,
  kMenIndividual,
  kWomenIndividual,
  kOpenIndividual,
  kMenTeam,
  kWomenTeam,
  kOpenTeam,
  kMixedPairs,
  kMixedTeam,
  kOther,
};

enum class FormatKind {
  kUnspecified = 0,
  kRoundRobin,      // single (cycles 1) or double (cycles 2)
  kSwiss,           // rounds = R
  kKnockout,        // lives = 1 single, 2 double, n n-loss elimination
  kTeamRoundRobin,  // boards = n
  kTeamSwiss,       // boards = n, rounds = R
  kRelay,           // 擂台赛: one game at a time, the loser leaves
  kMatch,           // best of n games between two entrants
};

// How a Swiss total ranks players (SPEC section 4, readings taken).
enum class SwissRanking {
  kTotal = 0,    // the literal rule: the total ranks everyone (default)
  kPointsFirst,  // points first, the total as the first tiebreak
};

struct Format {
  FormatKind kind = FormatKind::kUnspecified;
  int cycles = 1;   // round robin: how often each pair meets (1 or 2)
  int rounds = 0;   // Swiss and team Swiss: R, the same for every entrant
  int lives = 1;    // knockout: losses that eliminate
  int boards = 0;   // team formats: players a side in every match
  int best_of = 0;  // match: number of games scheduled (odd)
  SwissRanking swiss_ranking = SwissRanking::kTotal;
};

enum class RuleSet { kUnspecified = 0, kChinese, kJapaneseKorean };

enum class HandicapPolicy {
  kUnspecified = 0,
  kEven,            // even games; komi only
  kRankDifference,  // stones = rank difference - handicap_reduction
  kFixedPerGame,    // recorded on each game
};

struct Rules {
  RuleSet rule_set = RuleSet::kChinese;
  int komi_x2 = 15;  // komi in half points: 15 = 7.5 points = 3 3/4 stones
  HandicapPolicy handicap_policy = HandicapPolicy::kEven;
  int handicap_reduction = 9;  // EGF "HA[h9]"
};

// EGF time classes (A strongest .. D internet, X unclassified).
enum class TimeClass { kUnspecified = 0, kA, kB, kC, kD, kX };

struct TimeControl {
  TimeClass time_class = TimeClass::kUnspecified;
  std::string adjusted_minutes;  // EGF "TM", a decimal such as "75" or "52.5"
  std::string system;            // free text, EGF "CM"
};

enum class PairingSystem {
  kSwiss = 0,  // 积分编排制: by score
  kMcMahon,    // EGF McMahon: by McMahon score (rank, bar and floor)
};

// How the next round of a Swiss event is paired (pairing.h). Handicap games
// follow Rules: HandicapPolicy::kRankDifference gives the rank difference
// minus Rules::handicap_reduction stones, at most max_handicap.
struct PairingSettings {
  PairingSystem system = PairingSystem::kSwiss;
  // McMahon: every player at or above the bar starts equal, every player at
  // or below the floor too. Empty: no bar (no floor).
  std::optional<registry::Rank> mcmahon_bar;
  std::optional<registry::Rank> mcmahon_floor;
  // Players of the same club (else the same country) are not paired in
  // rounds 1..same_club_rounds when the score groups allow; 0: never
  // avoided.
  int same_club_rounds = 0;
  int max_handicap = 9;
  bool first_round_by_lot = false;  // round 1 by lot instead of by rank
  // Breaks ties between equal pairings, so a pairing can be reproduced;
  // drawn when the event is created, read-only afterwards.
  uint64_t seed = 0;
};

struct Event {
  EventId id;
  std::string name;
  Date start;
  Date end;
  std::string organiser_prefix;  // agency region prefix, "000" national
  std::string country;           // ISO 3166-1 alpha-2, EGF "PC"
  std::string city;
  EventLevel level = EventLevel::kUnspecified;
  std::string competition;  // catalogue code, e.g. "national_championship"
  std::string group;        // catalogue group code, "" when none
  // False when the event runs several groups and this is not the highest
  // one (athlete-grade note 3).
  bool highest_group = true;
  SubEvent sub_event = SubEvent::kUnspecified;
  Format format;
  Rules rules;
  TimeControl time;
  bool shared_places_allowed = true;
  // Set when the organiser closed the event: its results are final and can
  // no longer be changed.
  bool closed = false;
  PairingSettings pairing;  // Swiss events
};

// Checks what the standings need: a name, start <= end when both are set,
// a format kind and the numbers it requires (cycles 1..2, rounds >= 1,
// lives >= 1, boards >= 1 for team formats, best_of odd >= 1).
// Returns INVALID_ARGUMENT naming the field otherwise. Thread-safe.
absl::Status ValidateEvent(const Event& event);

bool IsTeamFormat(FormatKind kind);  // team round robin, team Swiss, relay

// Stable lower-case codes used in data files and messages ("world",
// "men_individual", "round_robin", ...), and their parsers, which return
// INVALID_ARGUMENT for an unknown code. Thread-safe.
std::string LevelCode(EventLevel level);
absl::StatusOr<EventLevel> ParseLevelCode(const std::string& code);
std::string SubEventCode(SubEvent sub_event);
absl::StatusOr<SubEvent> ParseSubEventCode(const std::string& code);
std::string FormatKindCode(FormatKind kind);
// "A".."D", "X"; "" for unspecified.
std::string TimeClassCode(TimeClass time_class);
absl::StatusOr<TimeClass> ParseTimeClassCode(const std::string& code);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_EVENT_H_
