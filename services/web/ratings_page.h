// The public rating lists (GET /ratings, its JSON twin /api/v1/ratings, the
// kept months /api/v1/ratings/months, and the downloads /ratings.csv and
// /ratings.xlsx): the GoR list or the pro list, current or as kept at the
// end of a month, narrowed by agency (province), registered Go rank range
// and activity (a rated event in the last N months), paged with each row's
// place, from RatingService.ListRatings / ListRatingSnapshots and
// RegistryService.ListAgencies (the agencies' names). Ratings are Go
// ratings: Gomoku has no rating system, which the page says; discipline=
// gomoku is refused with that reason.
//
// Query parameters (every page, JSON and download alike): list=gor|pro,
// agency=PREFIX, min_rank=, max_rank= (any Go rank notation), active=N
// (months), month=YYYY-MM, discipline=go, page_token= (pages only), lang=en.
// The rendering is pure (RatingsBody, RatingsSheet); thread-safe.
#ifndef GORANK_SERVICES_WEB_RATINGS_PAGE_H_
#define GORANK_SERVICES_WEB_RATINGS_PAGE_H_

#include <httplib.h>

#include <string>
#include <vector>

#include "gorank/v1/ratings.pb.h"
#include "gorank/v1/registry.pb.h"
#include "services/cli/office_file.h"
#include "services/web/html.h"
#include "services/web/site.h"

namespace gorank::web {

// What a visitor asked for, as the query parameters give it.
struct RatingsQuery {
  bool pro_list = false;
  std::string agency;
  std::string min_rank;
  std::string max_rank;
  int active_months = 0;
  std::string month;
  std::string page_token;
};

// The query string of `q` without page_token (for links and downloads), ""
// when nothing is set; starts with '?' otherwise.
std::string RatingsQueryString(const RatingsQuery& q);

// Everything one page shows.
struct RatingsView {
  RatingsQuery query;
  v1::ListRatingsResponse list;
  std::vector<v1::Agency> agencies;
  std::vector<v1::RatingSnapshotMonth> months;
};

// The page title ("等级分排名" / "Rating list", with the month when set).
std::string RatingsTitle(Lang lang, const RatingsQuery& q);
// The page body: the filter form, the table (caption, place, player linked
// to /players/{id}, agency, rank, rating, grade, games, last rated), the
// page links and the download links.
std::string RatingsBody(Lang lang, const RatingsView& view);
// The rows as a sheet with the same columns as the page's table (the
// download's content).
cli::Sheet RatingsSheet(Lang lang, bool pro_list,
                        const std::vector<v1::PlayerRating>& rows,
                        int64_t first_position,
                        const std::vector<v1::Agency>& agencies);

// Registers /ratings, /api/v1/ratings, /api/v1/ratings/months,
// /ratings.csv and /ratings.xlsx.
void InstallRatingsPages(httplib::Server& http, Site& site);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_RATINGS_PAGE_H_
