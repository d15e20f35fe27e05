// The cross table shared by the EGF and CSV result files: one row per
// entrant, one result cell per round in the EGF cell syntax, opponents named
// by their row number (1..N). This file turns rows into EventResults,
// checking the whole table (symmetric results, known opponent rows, same
// number of rounds, valid ranks), and turns results back into cells.
//
// Cell syntax (reader lenient, writer strict):
//   <opp><outcome>[<sep>[<colour>][<handicap>]][!]
//   opp      row number of the opponent, 0 = no opponent
//   outcome  '+' win, '-' loss, '=' draw (jigo), '?' unknown
//   sep      '/' over the board, '!' by default (forfeit)
//   colour   'w', 'b' or '?' (unknown)
//   handicap stones, 0 = even (reader: may be omitted, "h" tolerated)
//   "0+" bye (2 points), "0=" half bye (1 point), "0-" no game.
//   Two losses marked '!' on both sides are a double forfeit.
// Writer: "12+/w0", "12-!b0" (forfeit), "0+", "0=", "0-".
#ifndef GORANK_SERVICES_TOURNAMENTS_CROSS_TABLE_H_
#define GORANK_SERVICES_TOURNAMENTS_CROSS_TABLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

struct ResultCell {
  int opponent = 0;
  char outcome = '-';  // '+', '-', '=', '?'
  bool forfeit = false;
  char colour = '?';  // 'w', 'b', '?'
  int handicap = 0;
};

// Lenient parse of one cell; nullopt when it is not a result cell.
std::optional<ResultCell> ParseResultCell(const std::string& text);
// Strict form of a cell.
std::string FormatResultCell(const ResultCell& cell);

struct CrossTableRow {
  int line = 0;  // source line, for messages
  std::string family_name;
  std::string given_name;
  std::string rank;  // as written; "10" (no letter) is read as 10k
  std::string country;
  std::string club;
  std::string egd_pin;
  std::optional<registry::PlayerId> player_id;
  std::optional<int> withdrawn_after_round;
  std::vector<std::string> criteria;  // informational, as written
  std::vector<std::string> cells;     // one per round
};

// Builds entrants (id = row number), games and byes from `rows`, which all
// have `rounds` cells. Every problem is appended to `problems` as
// "line N: ..."; the results are meaningful only when none was added.
EventResults BuildResultsFromCrossTable(const std::vector<CrossTableRow>& rows,
                                        int rounds,
                                        std::vector<std::string>& problems);

// The cells of every entrant, for rows in the order `order` (entrant ids;
// row k+1 is order[k]), over `rounds` rounds. FAILED_PRECONDITION when a
// result is unknown (never exported) or an entrant in `order` is missing.
absl::StatusOr<std::vector<std::vector<std::string>>> CrossTableCells(
    const EventResults& results, const std::vector<int>& order, int rounds);

// The number of rounds the results span: the event's R when set, else the
// highest round recorded.
int RoundsOf(const Event& event, const EventResults& results);

// INVALID_ARGUMENT listing `problems` (one a line) under `title`.
absl::Status ProblemsStatus(const std::string& title,
                            const std::vector<std::string>& problems);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_CROSS_TABLE_H_
