// The public search, GET /search?q=... (and /api/v1/search?q=...): players
// and events in one answer, within the public data policy.
//  - Players: the public's whole-name look-up (SearchPlayers without a
//    token: a whole name or Latin name, at most 20, no paging). A Latin
//    name (pinyin among them) matches in any case and with or without its
//    spaces and hyphens ("ke jie", "KE JIE", "Ke-Jie" find latin_name
//    "Ke Jie"); only a stored Latin name is searched, no Chinese name is
//    transliterated. No prefix search, so the registry cannot be listed.
//  - Events: every event whose name contains q (ASCII letters in any
//    case), newest first, at most 20 (ListEvents name_contains).
// Three public gRPC calls: SearchPlayers, ListAgencies (the agencies'
// names), ListEvents. The rendering is pure; thread-safe.
#ifndef GORANK_SERVICES_WEB_SEARCH_PAGE_H_
#define GORANK_SERVICES_WEB_SEARCH_PAGE_H_

#include <httplib.h>

#include <string>
#include <string_view>
#include <vector>

#include "gorank/v1/registry.pb.h"
#include "gorank/v1/tournaments.pb.h"
#include "services/web/html.h"
#include "services/web/site.h"

namespace gorank::web {

// Events a search shows at most (players: the public look-up's own 20).
inline constexpr int kSearchEvents = 20;

struct SearchView {
  std::string query;  // trimmed
  std::vector<v1::Player> players;
  std::vector<v1::Agency> agencies;
  std::vector<v1::Event> events;  // newest first
  bool more_events = false;       // more than kSearchEvents matched
};

// The search form (GET /search; one labelled field `q`, the language kept),
// for the search page and for the shell's header. `field_id` is the input's
// id (unique within a page: give another when the page shows two forms).
std::string SearchForm(Lang lang, std::string_view query,
                       std::string_view field_id = "search-q");

// The page body: the form, then the players and events found (or the form
// alone for an empty query).
std::string SearchBody(Lang lang, const SearchView& view);
// The JSON twin: {"query", "players" (as the public SearchPlayers gives
// them, less has_resident_id), "events", "more_events"}.
std::string SearchJson(const SearchView& view);

// Registers GET /search and /api/v1/search. An empty q is the form alone
// (the API: 400); a q the registry or ListEvents refuses (too long, a
// control character) is 400.
void InstallSearchPages(httplib::Server& http, Site& site);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_SEARCH_PAGE_H_
