// The public tournament pages' bodies (/events, /events/{id}), rendered from
// the public TournamentService answers (ListEvents, GetEvent, GetResults,
// GetStandings) and the names of agencies and competitions (ListAgencies,
// ListCompetitions) into escaped UTF-8 HTML in one language; the caller
// wraps them with RenderPage (html.h). The standings are shown as the domain
// computed them (places, states, every criterion in the event's order);
// these functions only lay them out. Pure functions; thread-safe.
#ifndef GORANK_SERVICES_WEB_EVENT_VIEW_H_
#define GORANK_SERVICES_WEB_EVENT_VIEW_H_

#include <map>
#include <string>

#include "gorank/v1/registry.pb.h"
#include "gorank/v1/tournaments.pb.h"
#include "services/web/html.h"

namespace gorank::web {

// What names the codes an event carries.
struct EventDirectory {
  v1::ListAgenciesResponse agencies;
  v1::ListCompetitionsResponse competitions;
};

// The list's filters as the visitor gave them (echoed into the form and
// the links to further pages; already checked by the caller).
struct EventListQuery {
  std::string agency;  // organiser prefix, "" any
  std::string year;    // "2025", "" any
  std::string from;    // "YYYY-MM-DD", "" open
  std::string to;      // "YYYY-MM-DD", "" open
  int page_size = 0;   // 0: the default
};

// "赛事" / "Events".
std::string EventListTitle(Lang lang);

// The filter form, then the events of `page` (newest first, as ListEvents
// gave them) in a table (id "event-list", a row of class "event" each,
// data-event the id, the name linking to /events/{id}), then a link to the
// next page when `page` has a next_page_token.
std::string EventListBody(Lang lang, const EventListQuery& query,
                          const v1::ListEventsResponse& page,
                          const EventDirectory& names);

// The event page: the facts (section "event": dates, place, organiser,
// level, competition, system and rounds, rules, state, the result files),
// the standings (section "standings"), the cross table (section
// "cross-table": player x player for a round robin, round by round in the
// EGF cell style otherwise, teams for team formats), the rounds' pairings
// and results (section "rounds"), and for team events the teams' board
// orders (section "teams"). Registered entrants link to /players/{id}.
std::string EventBody(Lang lang, const v1::Event& event,
                      const v1::EventResults& results,
                      const v1::Standings& standings,
                      const EventDirectory& names);

// The place column of row `index` of `standings`: "3" alone; "3–4" for a
// place shared by two (the rows with the same place and state); the
// pending play-off for it in words ("待定（3–4）" / "play-off pending
// (3–4)"); a place settled by play-off or lots says so.
std::string PlaceText(Lang lang, const v1::Standings& standings, int index);

// The EGF cell of entrant `id` in round `round` against the numbering
// `number_of` (entrant id -> row number): "12+/w", "7-/b2" (handicap),
// "5=/?", "3+!" (forfeit), "4?/b" (unknown), "0+" bye, "0=" half bye,
// "0-" no game.
std::string EgfCell(const v1::EventResults& results, int id, int round,
                    const std::map<int, int>& number_of);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_EVENT_VIEW_H_
