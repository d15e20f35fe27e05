// The public player page, GET /players/{id} (and /api/v1/players/{id}):
// the name and Latin name as the public GetPlayer answers them, the agency,
// the current Go and Gomoku ranks, the rank history (date, grade, reason,
// basis: certificate numbers masked as GetRankHistory gives them to the
// public, with a note saying why), the current GoR and pro rating with the
// rating graph (rating_graph.h) and its table of points, and the events the
// player played with the place and a link to /events/{id}.
//
// Six public gRPC calls a page: GetPlayer, ListAgencies, GetRankHistory,
// GetRating (NOT_FOUND: no rating yet), GetRatingHistory and ListEvents
// (player_id, newest first, with the player's places). The rendering is
// pure (proto answers to escaped HTML or JSON); thread-safe.
#ifndef GORANK_SERVICES_WEB_PLAYER_PAGE_H_
#define GORANK_SERVICES_WEB_PLAYER_PAGE_H_

#include <httplib.h>

#include <string>
#include <vector>

#include "gorank/v1/ratings.pb.h"
#include "gorank/v1/registry.pb.h"
#include "gorank/v1/tournaments.pb.h"
#include "services/web/html.h"
#include "services/web/site.h"

namespace gorank::web {

// The events a page lists (the newest).
inline constexpr int kPlayerPageEvents = 50;

// What a player page shows, as the public gRPC methods answered.
struct PlayerView {
  v1::Player player;
  v1::Agency agency;  // prefix "" when the registry does not name it
  std::vector<v1::RankHistoryEntry> history;  // oldest first
  bool has_rating = false;
  v1::PlayerRating rating;
  std::vector<v1::RatingChange> rating_history;  // oldest first
  std::vector<v1::Event> events;                 // newest first
  std::vector<v1::PlayerPlace> places;
  bool more_events = false;  // more than kPlayerPageEvents
};

// The player's name for the title and the heading.
std::string PlayerTitle(const v1::Player& player);
// The page body.
std::string PlayerBody(Lang lang, const PlayerView& view);
// The JSON twin: {"player", "agency", "rank_history", "rating" (absent
// without one), "rating_history", "events" (each with its "place" when the
// standings give one), "more_events"}; proto field names. The player holds
// what the public GetPlayer gives, less the has_resident_id flag.
std::string PlayerJson(const PlayerView& view);

// The agency's name in `lang` ("" when unknown).
std::string AgencyName(Lang lang, const v1::Agency& agency);

// Registers GET /players/{id} and /api/v1/players/{id}: 400 for an id that
// is not a positive number, 404 for an unknown player.
void InstallPlayerPages(httplib::Server& http, Site& site);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_PLAYER_PAGE_H_
