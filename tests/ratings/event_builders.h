// Entrants and games for the ratings tests that build tournament results by
// hand (event_games_test, event_ratings_test).
#ifndef GORANK_TESTS_RATINGS_EVENT_BUILDERS_H_
#define GORANK_TESTS_RATINGS_EVENT_BUILDERS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "services/registry/rank.h"
#include "services/tournaments/results.h"

namespace gorank::ratings::test_events {

// Entrant `entrant` (family name "P<entrant>"), registered as `player_id`
// when set, entered at `rank`.
inline tournaments::Entrant Player(int entrant,
                                   std::optional<int64_t> player_id,
                                   const std::string& rank) {
  tournaments::Entrant e;
  e.id = tournaments::EntrantId{entrant};
  if (player_id) e.player_id = registry::PlayerId{*player_id};
  e.family_name = "P" + std::to_string(entrant);
  e.rank = registry::Rank::FromString(rank);
  return e;
}

inline tournaments::Game G(int round, int black, int white,
                           tournaments::Outcome outcome) {
  tournaments::Game g;
  g.round = round;
  g.black = tournaments::EntrantId{black};
  g.white = tournaments::EntrantId{white};
  g.outcome = outcome;
  return g;
}

}  // namespace gorank::ratings::test_events

#endif  // GORANK_TESTS_RATINGS_EVENT_BUILDERS_H_
