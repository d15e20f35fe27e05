// Internal to the standings: the per-format entry points and the shared
// place numbering. Not part of the module's API.
#ifndef GORANK_SERVICES_TOURNAMENTS_STANDINGS_INTERNAL_H_
#define GORANK_SERVICES_TOURNAMENTS_STANDINGS_INTERNAL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments::internal {

// A row before numbering, with its sort key (compared lexicographically,
// larger is better; "fewer warnings" enters negated).
struct ScoredRow {
  StandingRow row;
  std::vector<Rational> key;
};

// Sorts best first (ties by id, for a stable display only) and numbers the
// places "1224"-style. Equal keys share a place when `shared_allowed`;
// a recorded TieDecision covering the whole group separates it instead
// (always); otherwise the group is kPendingPlayoff and `standings.status`
// and `pending_reason` say so. Fills standings.rows.
void NumberPlaces(std::vector<ScoredRow> rows, bool shared_allowed,
                  const std::vector<TieDecision>& decisions,
                  Standings& standings);

// Lists the games with unknown outcome; "" when there is none.
std::string UnknownGames(const std::vector<Game>& games);

absl::StatusOr<Standings> RoundRobinStandings(const Event& event,
                                              const EventResults& results);
// The round robin's results as its standings count them (see
// CountedResults).
absl::StatusOr<EventResults> RoundRobinCountedResults(
    const Event& event, const EventResults& results);
absl::StatusOr<Standings> SwissStandings(const Event& event,
                                         const EventResults& results);
absl::StatusOr<Standings> TeamStandings(const Event& event,
                                        const EventResults& results);
absl::StatusOr<Standings> KnockoutStandings(const Event& event,
                                            const EventResults& results);
absl::StatusOr<Standings> RelayStandings(const Event& event,
                                         const EventResults& results);
absl::StatusOr<Standings> MatchStandings(const Event& event,
                                         const EventResults& results);

// The withdrawn-player rule of SPEC section 4 for points-paired events:
// points + A x unplayed, A = points / games played (capped at 1), unplayed
// = rounds - withdrawn_after. games_played == 0 gives A = 0.
Rational WithdrawnScore(int points, int games_played, int rounds,
                        int withdrawn_after);

}  // namespace gorank::tournaments::internal

#endif  // GORANK_SERVICES_TOURNAMENTS_STANDINGS_INTERNAL_H_
