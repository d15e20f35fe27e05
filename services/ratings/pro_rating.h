// The professional rating list (职业等级分): a plain Elo list kept beside the
// professional dan ranks. It reflects current strength and is shown next to
// the rank; it is never an input to promotion (the CWA: "围棋等级分暂不与升段
// 与否挂钩"). The CWA's own formula and K are not published, so K is a
// setting. Seeds follow the CWA: 1p = 2240, +40 a dan (9p = 2560), with
// per-player overrides (historically Nie Weiping and Ma Xiaochun at 2600).
//
//   E(ra, rb) = 1 / (1 + 10 ^ ((rb - ra) / 400))
//   change    = K * (S - E)       summed over an event, applied at its end
//
// A game enters the list when both players declared a professional rank for
// the event, it is rated (see RatedGame::IsRated) and it is an even game
// (handicap 0). Every function here is pure and thread-safe.
#ifndef GORANK_SERVICES_RATINGS_PRO_RATING_H_
#define GORANK_SERVICES_RATINGS_PRO_RATING_H_

#include <map>

#include "services/ratings/rated_game.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

struct ProEloSettings {
  double k = 16.0;
  double seed_1p = 2240.0;
  double seed_per_dan = 40.0;
  // Seeds that replace the rank-based one for named players.
  std::map<PlayerId, double> seed_overrides;

  friend bool operator==(const ProEloSettings&,
                         const ProEloSettings&) = default;
};

double EloExpectedScore(double rating, double opponent);

// K * (score - expected).
double EloGameChange(const ProEloSettings& settings, double rating,
                     double opponent, double score);

// Seed of `player` holding professional `rank`: the override if any, else
// seed_1p + seed_per_dan * (level - 1). REQUIRES: rank.IsPro().
double ProSeed(const ProEloSettings& settings, PlayerId player,
               const registry::Rank& rank);

// True when `game` enters the professional list (see the file comment).
bool IsProListGame(const RatedGame& game);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_PRO_RATING_H_
