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

// How RoundBoards marks up one round (the /pairing page uses the defaults).
struct RoundView {
  std::string id_suffix;  // appended to the ids "boards" and "byes"
  std::string caption;    // the table's <caption>; none when empty
  // Registered entrants' names link to /players/{id} (in the page's
  // language); guests stay plain names.
  bool link_players = false;
};

// One round's boards (<table id="boards..."> with a row of class "board" a
// game, by board) and then its byes (<h3> and <ul id="byes...">), without a
// heading of its own; "" when the round has no regular game and no bye.
std::string RoundBoards(Lang lang, const v1::Event& event,
                        const v1::EventResults& results, int round,
                        const RoundView& view);

// A game's result in words ("white wins", "jigo (forfeit)", "to play").
std::string GameResultText(Lang lang, const v1::Game& game);

// An entrant's name as the pages show it: family then given name (no space
// between two Chinese parts), escaped, with the rank in brackets when known.
std::string EntrantLabel(Lang lang, const v1::Entrant& entrant);

// The body for round CurrentRound(results, round); "no pairing yet" when
// that round has no games.
std::string PairingBody(Lang lang, const v1::Event& event,
                        const v1::EventResults& results, int round);

// The JSON twin (GET /api/v1/pairing?event=ID[&round=N]) of the same data
// the page shows: {"event": Event, "round": CurrentRound(results, round),
// "results": EventResults with that round's regular games (by board), its
// byes and the entrants named in them}, messages as protobuf JSON with proto
// field names.
std::string PairingJson(const v1::Event& event, const v1::EventResults& results,
                        int round);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_PAIRING_PAGE_H_
