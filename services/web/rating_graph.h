// The rating graph of a player page: a player's GoR over time as inline SVG
// drawn on the server (no JavaScript, no external asset). The amateur
// grades are shaded bands behind the line, labelled with the grade the
// ratings in them map to (services/ratings/egf.h EgfGrade: 100 points a
// grade, 2050 the 1k/1d boundary, 7d at most, 30k at least). The SVG has a
// viewBox and width 100% (it scales to a phone's width), a <title> and an
// aria-label; the table of points that the page prints beside it is the
// text alternative. Pure functions; thread-safe.
#ifndef GORANK_SERVICES_WEB_RATING_GRAPH_H_
#define GORANK_SERVICES_WEB_RATING_GRAPH_H_

#include <string>
#include <vector>

#include "gorank/v1/ratings.pb.h"
#include "services/web/html.h"

namespace gorank::web {

// The grade band a rating falls in, as (ladder, level) of common.proto's
// RankLadder: 1 kyu, 2 amateur dan; the lower edge belongs to the band.
struct GradeBand {
  int ladder = 0;
  int level = 0;
};
GradeBand GradeOfRating(double gor);

// Days since 1970-01-01 of a proleptic Gregorian date.
long long DaysFromCivil(int year, int month, int day);

// The graph of `changes` (oldest first, as GetRatingHistory answers): one
// point per event at its date and the GoR after it, joined by a line;
// `points` circles carry class "point" and data-gor. "" when `changes` is
// empty.
std::string RatingGraphSvg(Lang lang,
                           const std::vector<v1::RatingChange>& changes);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_RATING_GRAPH_H_
