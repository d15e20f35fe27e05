// The public page of a paired round (GET /pairing?event=ID[&round=N]): the
// event's name, the round (by default the current one: the last round with
// games or byes), one row a board - board, white, black (names and ranks),
// handicap, komi and the result once known - then the byes. Rendered from
// the public TournamentService answers (GetEvent, GetResults) into escaped
// UTF-8 HTML in one language; the caller wraps it with RenderPage (html.h).
// Pure functions; thread-safe.
#ifndef GORANK_SERVICES_WEB_PAIRING_PAGE_H_
#define GORANK_SERVICES_WEB_PAIRING_PAGE_H_

#include <string>

#include "gorank/v1/tournaments.pb.h"
#include "services/web/html.h"

namespace gorank::web {

// The round shown: `round` when > 0, else the last round with a regular
// game or a bye (0 when there is none).
int CurrentRound(const v1::EventResults& results, int round);

// The page title ("第3轮对阵" / "Round 3 pairing").
std::string PairingTitle(Lang lang, int round);

// The body for round CurrentRound(results, round); "no pairing yet" when
// that round has no games.
std::string PairingBody(Lang lang, const v1::Event& event,
                        const v1::EventResults& results, int round);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_PAIRING_PAGE_H_
