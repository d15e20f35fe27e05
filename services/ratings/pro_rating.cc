#include "services/ratings/pro_rating.h"

#include <cmath>
#include <cstdlib>

namespace gorank::ratings {

double EloExpectedScore(double rating, double opponent) {
  return 1.0 / (1.0 + std::pow(10.0, (opponent - rating) / 400.0));
}

double EloGameChange(const ProEloSettings& settings, double rating,
                     double opponent, double score) {
  return settings.k * (score - EloExpectedScore(rating, opponent));
}

double ProSeed(const ProEloSettings& settings, PlayerId player,
               const registry::Rank& rank) {
  if (!rank.IsPro()) std::abort();  // REQUIRES violated
  if (auto it = settings.seed_overrides.find(player);
      it != settings.seed_overrides.end()) {
    return it->second;
  }
  return settings.seed_1p + settings.seed_per_dan * (rank.level() - 1);
}

bool IsProListGame(const RatedGame& game) {
  return game.IsRated() && game.handicap == 0 && game.black_rank.has_value() &&
         game.white_rank.has_value() && game.black_rank->IsPro() &&
         game.white_rank->IsPro();
}

}  // namespace gorank::ratings
