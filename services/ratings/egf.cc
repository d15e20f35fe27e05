#include "services/ratings/egf.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace gorank::ratings {

using registry::Ladder;
using registry::Rank;

double EgfCon(double rating) {
  // Ratings never reach 3300 (con -> 0 there); the max() keeps pow() real.
  return std::pow(std::max(0.0, 3300.0 - rating) / 200.0, 1.6);
}

double EgfBonus(double rating) {
  return std::log1p(std::exp((2300.0 - rating) / 80.0)) / 5.0;
}

double EgfBeta(double rating) {
  return -7.0 * std::log(3300.0 - std::min(rating, kEgfMaxEffectiveRating));
}

double EgfHandicapShift(int handicap) {
  return handicap <= 0 ? 0.0 : 100.0 * (handicap - 0.5);
}

double EgfExpectedScore(double r1, double r2, double shift1, double shift2) {
  return 1.0 / (1.0 + std::exp(EgfBeta(r2 + shift2) - EgfBeta(r1 + shift1)));
}

double EgfGameChange(const EgfSettings& settings, double rating,
                     double opponent, double score, double own_shift,
                     double opponent_shift, double weight) {
  const double expected =
      EgfExpectedScore(rating, opponent, own_shift, opponent_shift);
  const double bonus_weight = settings.weight_applies_to_bonus ? weight : 1.0;
  return weight * EgfCon(rating) * (score - expected) +
         bonus_weight * EgfBonus(rating);
}

double EgfClassWeight(const EgfSettings& settings, TimeClass time_class) {
  return settings.class_weights[static_cast<int>(time_class)];
}

double EgfSeed(const Rank& rank) {
  switch (rank.ladder()) {
    case Ladder::kKyu:
      return 2100.0 - 100.0 * rank.level();
    case Ladder::kAmateurDan:
      return 2000.0 + 100.0 * rank.level();
    case Ladder::kProDan:
      return 2700.0 + 30.0 * (rank.level() - 1);
    default:
      break;  // other disciplines' ladders have no GoR
  }
  std::abort();
}

Rank EgfGrade(double rating) {
  if (rating >= 2050.0) {
    const int dan = std::min(
        7, static_cast<int>(std::floor((rating - 2050.0) / 100.0)) + 1);
    return *Rank::Create(Ladder::kAmateurDan, dan);
  }
  const double kyu = std::ceil((2050.0 - rating) / 100.0);
  return *Rank::Create(Ladder::kKyu, static_cast<int>(std::min(30.0, kyu)));
}

double EgfGradeThreshold(const Rank& rank) {
  if (rank.IsPro() || (rank.IsAmateurDan() && rank.level() > 7)) std::abort();
  return EgfSeed(rank) - 50.0;
}

}  // namespace gorank::ratings
