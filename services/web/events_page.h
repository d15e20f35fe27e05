// The public tournament pages (issue #21 item 3), a page module of the web
// page (site.h):
//   GET /events[?agency=110][&year=2025 | &from=YYYY-MM-DD&to=YYYY-MM-DD]
//       [&page_size=N][&page=TOKEN]     the events, newest first, paged
//   GET /events/{id}                    the event page (event_view.h)
//   GET /events/{id}.egf, /events/{id}.csv
//                                       the result file as ExportResults
//                                       gives it, as a download
// and their JSON twins GET /api/v1/events (ListEventsResponse) and
// GET /api/v1/events/{id} ({"event", "results", "standings"}). Everything
// comes from the public TournamentService and AgencyService methods, called
// for the visitor. A malformed id or filter is 400 and an unknown event 404,
// with a message in the page's language.
#ifndef GORANK_SERVICES_WEB_EVENTS_PAGE_H_
#define GORANK_SERVICES_WEB_EVENTS_PAGE_H_

#include <httplib.h>

#include "services/web/site.h"

namespace gorank::web {

// Registers the routes above on `http`; `site` must outlive it.
void InstallEventPages(httplib::Server& http, Site& site);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_EVENTS_PAGE_H_
