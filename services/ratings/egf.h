// The EGF rating system (GoR), 2021 version: the per-game formulas, the
// seeding of new players from their declared rank, and the mapping of a
// rating back to an amateur grade. Event batching (ratings frozen for the
// whole event, changes summed at its end, the floor applied once) lives in
// rating_book.h; this file is the arithmetic only.
//
//   Se(r1, r2) = 1 / (1 + exp(beta(r2) - beta(r1))),  beta(r) = -7 ln(3300 - r)
//   con(r)     = ((3300 - r) / 200) ^ 1.6
//   bonus(r)   = ln(1 + exp((2300 - r) / 80)) / 5
//   change     = w * con(r) * (Sa - Se) + wb * bonus(r)
//   new        = max(floor, r + sum of changes)         floor = -900
// where w is the event's class weight (A 1.0, B 0.75, C 0.5, D 0.25) and wb
// is w or 1 depending on EgfSettings::weight_applies_to_bonus. The handicap
// receiver's rating inside beta only is raised by H = 100 (h - 0.5) for
// h >= 1 (h = 1 is worth 50 points, h = 9 850); con and bonus use the
// unshifted rating. Every function here is pure and thread-safe.
#ifndef GORANK_SERVICES_RATINGS_EGF_H_
#define GORANK_SERVICES_RATINGS_EGF_H_

#include <array>

#include "services/ratings/rated_game.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

struct EgfSettings {
  double floor = -900.0;
  // Indexed by TimeClass.
  std::array<double, 4> class_weights = {1.0, 0.75, 0.5, 0.25};
  // The EGF text does not say whether the class weight multiplies bonus too;
  // the default weights the whole per-game change.
  bool weight_applies_to_bonus = true;

  friend bool operator==(const EgfSettings&, const EgfSettings&) = default;
};

// Ratings entering beta are capped here so that 3300 - r stays positive: a
// strong player receiving many stones (2700 + 850 > 3300) would otherwise
// give NaN. With the cap such a game is simply (almost) certain for the
// receiver, which is what the data says.
inline constexpr double kEgfMaxEffectiveRating = 3299.0;

double EgfCon(double rating);
double EgfBonus(double rating);
// beta(min(r, kEgfMaxEffectiveRating)).
double EgfBeta(double rating);
// 0 for h = 0, else 100 (h - 0.5). REQUIRES: 0 <= h <= 9.
double EgfHandicapShift(int handicap);

// Expected score of player 1. `shift1`/`shift2` are the handicap shifts of
// each side (at most one is non-zero).
double EgfExpectedScore(double r1, double r2, double shift1 = 0.0,
                        double shift2 = 0.0);

// The change of one game for the player rated `rating` who scored `score`
// (1, 0.5, 0) against `opponent`, before the floor: weight * con * (Sa - Se)
// + (weight or 1) * bonus.
double EgfGameChange(const EgfSettings& settings, double rating,
                     double opponent, double score, double own_shift,
                     double opponent_shift, double weight);

// Class weight of `time_class` under `settings`.
double EgfClassWeight(const EgfSettings& settings, TimeClass time_class);

// Seed rating of a new player: k kyu 2100 - 100k (30k = -900), d dan
// 2000 + 100d (1d = 2100; 8d honorary = 2800), p pro 2700 + 30 (p - 1).
double EgfSeed(const registry::Rank& rank);

// Amateur grade of a rating, 100 points a grade, 2050 the 1k/1d boundary;
// the lower edge of each band belongs to the band:
//   r >= 2050: dan = floor((r - 2050) / 100) + 1, at most 7d
//              (2050 .. 2149.99 -> 1d, 2150 -> 2d, 2650 and above -> 7d)
//   r <  2050: kyu = ceil((2050 - r) / 100), at most 30k
//              (1950 .. 2049.99 -> 1k, 1949.99 -> 2k, -900 -> 30k)
// Never returns 8d (honorary) nor a professional rank.
registry::Rank EgfGrade(double rating);

// Lowest rating inside `rank`'s band (the promotion threshold of that
// grade): seed - 50, e.g. 1d -> 2050, 1k -> 1950, 5d -> 2450.
// REQUIRES: rank is amateur kyu or dan 1..7.
double EgfGradeThreshold(const registry::Rank& rank);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_EGF_H_
