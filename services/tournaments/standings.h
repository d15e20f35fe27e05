// Standings for every format of SPEC section 4 with its "readings taken":
// round robin (points, rule A = twice Sonneborn-Berger, warnings), Swiss
// (total = P + SOS/R - R compared exactly as P*R + SOS - R*R, or points
// first), team round robin and team Swiss (match points, board points,
// board 1, board 2, ...), knockout and relay (places by order of
// elimination: 1, 2, 3=, 5=, 9=, ...) and best-of-n matches. Withdrawals,
// byes, forfeits and double forfeits follow the SPEC; places are numbered as
// in "1224", or stay "pending play-off" where the event forbids sharing and
// no play-off or lots are recorded. Every row carries the criteria values
// that placed it.
#ifndef GORANK_SERVICES_TOURNAMENTS_STANDINGS_H_
#define GORANK_SERVICES_TOURNAMENTS_STANDINGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/event.h"
#include "services/tournaments/rational.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

enum class PlaceState {
  kAlone = 0,       // nobody else has this place
  kShared,          // equal on every criterion, place shared ("2=")
  kByPlayoff,       // separated by a recorded play-off
  kByLots,          // separated by a recorded drawing of lots
  kPendingPlayoff,  // equal, sharing forbidden, nothing recorded yet
};

struct StandingRow {
  // "1224" numbering: the best place of the group of equals. For a pending
  // play-off, the best place the group is competing for.
  int place = 0;
  PlaceState state = PlaceState::kAlone;
  std::string place_label;  // "1", "3=", "pending play-off (3-4)"
  int id = 0;               // entrant id, or team id when Standings::teams
  std::string name;
  std::vector<Rational> criteria;  // parallel to Standings::criteria_names
  std::string note;                // "withdrew after round 3", ...
  // Relay: the team's players still in (not yet beaten), in playing order.
  std::vector<int> players_left;
};

// Team formats: one match (the games of two teams in one round), each
// side's board points and match points. team_a < team_b. A round below 1
// is a match a withdrawn team forfeits 2-0 on every board (team round
// robin), not played.
struct TeamMatchResult {
  int round = 0;
  int team_a = 0;
  int team_b = 0;
  int board_points_a = 0;
  int board_points_b = 0;
  int match_points_a = 0;
  int match_points_b = 0;
};

// Relay (擂台赛): one player's record.
struct RelayPlayer {
  EntrantId entrant;
  TeamId team;
  std::string name;
  int games_won = 0;
  int games_played = 0;
  int left_after_game = 0;  // order number of the game they left after; 0 in
};

enum class StandingsStatus {
  kFinal = 0,
  kPendingResults,  // unknown results block the standings; rows are empty
  kPendingPlayoff,  // rows are complete but some places await a play-off
};

struct Standings {
  StandingsStatus status = StandingsStatus::kFinal;
  std::string pending_reason;  // which games or ties keep it pending
  bool teams = false;          // rows are teams, not entrants
  std::vector<std::string> criteria_names;  // in the order they were applied
  std::vector<StandingRow> rows;            // best first
  // Entrants (teams) who played at least one game over the board; voided
  // entrants excluded (athlete-grade note 2).
  int entrants_played = 0;
  // Entrants whose results were voided (round robin, 2p < S, or withdrawn
  // before the start); they leave the standings entirely.
  std::vector<EntrantId> voided;
  std::vector<TeamMatchResult> matches;  // team formats, by round
  // Relay: by team, in playing order; filled while the relay runs too.
  std::vector<RelayPlayer> relay_players;
};

// Computes the standings of `event` from `results`. INVALID_ARGUMENT when
// ValidateEvent or ValidateResults fails (all problems listed), or when the
// format's own structure is broken (a team game without a board or a team,
// a relay team without a board order). Unknown results are not an error:
// the answer is OK with status kPendingResults and the games listed.
// Pure function; thread-safe.
absl::StatusOr<Standings> ComputeStandings(const Event& event,
                                           const EventResults& results);

// OK when every decision in `decisions` orders exactly the members of one
// group of `standings` whose place awaits a play-off or lots (what a closed
// event may still take). FAILED_PRECONDITION naming the decision and the
// pending groups otherwise. Pure function; thread-safe.
absl::Status CheckDecidesPendingTies(const Standings& standings,
                                     const std::vector<TieDecision>& decisions);

// True when `after` is `before` with the tie decisions changed and nothing
// else: the one change a closed event takes (repositories enforce it).
// Thread-safe.
bool OnlyTieDecisionsDiffer(const EventResults& before,
                            const EventResults& after);

// The results as the standings count them, which is what a result file
// exports: every game of a voided entrant removed (round robin, 2p < S, or
// withdrawn before the start), and in a round robin the forfeits a
// withdrawal implies (2p >= S) added as forfeit games, each in the first
// round after the withdrawal where both sides are free, else in a round
// after the last. Other formats, and events whose format is not set, come
// back unchanged but for the voided entrants' games. Errors as
// ComputeStandings' validation. Pure function; thread-safe.
absl::StatusOr<EventResults> CountedResults(const Event& event,
                                            const EventResults& results);

// The criterion names used in Standings::criteria_names.
inline constexpr char kCritPoints[] = "points";
inline constexpr char kCritRuleA[] = "A";  // SB_cn, twice FIDE SB
inline constexpr char kCritWarnings[] = "warnings";
inline constexpr char kCritSos[] = "SOS";
inline constexpr char kCritTotal[] = "total";  // P + SOS/R - R
inline constexpr char kCritMatchPoints[] = "match points";
inline constexpr char kCritBoardPoints[] = "board points";
inline constexpr char kCritTiesWon[] = "ties won";
inline constexpr char kCritEliminatedIn[] = "eliminated in round";  // 0: not

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_STANDINGS_H_
