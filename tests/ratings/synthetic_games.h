// Test and benchmark helper: a reproducible synthetic game history.
// `games` games among `players` players (ids 1..players), in events of 32
// entrants and 5 rounds (80 games each), three events closing a day. Each
// player has a fixed rank (kyu, amateur dan, about 2% professionals) that
// is declared at every event; results follow the rank gap; about 3% of
// games are forfeits and 2% under the minimum time. Uses only the raw
// output of std::mt19937_64, so the data is the same on every platform.
#ifndef GORANK_TESTS_RATINGS_SYNTHETIC_GAMES_H_
#define GORANK_TESTS_RATINGS_SYNTHETIC_GAMES_H_

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "services/ratings/rated_game.h"
#include "services/registry/rank.h"

namespace gorank::ratings::testing {

inline std::vector<RatedGame> SyntheticGames(int players, int64_t games,
                                             uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto below = [&rng](uint64_t n) { return static_cast<int64_t>(rng() % n); };
  std::vector<registry::Rank> rank;
  rank.reserve(players + 1);
  rank.push_back(registry::Rank::FromString("30k"));  // unused id 0
  for (int p = 1; p <= players; ++p) {
    if (below(50) == 0) {
      rank.push_back(
          *registry::Rank::Create(registry::Ladder::kProDan, 1 + below(9)));
    } else {
      rank.push_back(*registry::Rank::FromOrdinal(-29 + below(37)));
    }
  }
  constexpr int kEntrants = 32, kRounds = 5;
  std::vector<RatedGame> out;
  out.reserve(games);
  const Date start{2000, 1, 1};
  for (int64_t event = 0; static_cast<int64_t>(out.size()) < games; ++event) {
    std::vector<int64_t> entrants;
    while (entrants.size() < kEntrants) {
      const int64_t p = 1 + below(players);
      bool dup = false;
      for (int64_t q : entrants) dup = dup || q == p;
      if (!dup) entrants.push_back(p);
    }
    const std::string id = "ev" + std::to_string(event);
    const Date date = start.AddDays(event / 3);
    const TimeClass time_class = static_cast<TimeClass>(below(4));
    for (int round = 1; round <= kRounds; ++round) {
      for (int i = kEntrants - 1; i > 0; --i)
        std::swap(entrants[i], entrants[below(i + 1)]);
      for (int b = 0;
           b < kEntrants / 2 && static_cast<int64_t>(out.size()) < games; ++b) {
        RatedGame g;
        g.event_id = id;
        g.event_date = date;
        g.event_order = event % 3;
        g.time_class = time_class;
        g.game_id = round * 1000 + b;
        g.black = PlayerId{entrants[2 * b]};
        g.white = PlayerId{entrants[2 * b + 1]};
        g.black_rank = rank[g.black.value];
        g.white_rank = rank[g.white.value];
        const int gap = g.white_rank->Ordinal() - g.black_rank->Ordinal();
        if (gap > 0 && gap <= 9 && g.black_rank->IsAmateur() &&
            g.white_rank->IsAmateur()) {
          g.handicap = gap;
          g.komi = 0.5;
        }
        const int64_t roll = below(1000);
        const int64_t black_wins_below = 500 + 40 * (g.handicap > 0 ? 0 : -gap);
        g.result = roll < black_wins_below       ? GameResult::kBlackWin
                   : roll < black_wins_below + 5 ? GameResult::kJigo
                                                 : GameResult::kWhiteWin;
        const int64_t flag = below(100);
        g.forfeit = flag < 3;
        g.under_minimum_time = flag >= 3 && flag < 5;
        out.push_back(std::move(g));
      }
    }
  }
  return out;
}

}  // namespace gorank::ratings::testing

#endif  // GORANK_TESTS_RATINGS_SYNTHETIC_GAMES_H_
