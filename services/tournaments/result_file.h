// Result files: the EGF results format (the text table the European Go
// Database imports) and rankd's CSV cross table. Both readers check the WHOLE
// file before returning anything and report every problem with its line
// number; the writers are strict and deterministic, so export -> import ->
// export gives the same bytes. The formats are documented in
// services/tournaments/RESULT_FORMATS.md.
#ifndef GORANK_SERVICES_TOURNAMENTS_RESULT_FILE_H_
#define GORANK_SERVICES_TOURNAMENTS_RESULT_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments {

// What a file holds. The event carries what the file says (EGF: name,
// dates, place, class, komi, handicap reduction, time; both: R as
// format.rounds); format.kind stays kUnspecified - the caller says which
// format was played before computing standings.
// Something a director should check in a file that was read without
// error, e.g. an EGF row whose last rounds have no game over the board
// (EGF cannot say "withdrew").
struct FileWarning {
  int row = 0;  // the row (entrant id) it is about; 0 = the whole file
  std::string text;
};

struct ResultFile {
  Event event;
  EventResults results;
  // Free comment lines of the EGF header (without "; "), and unknown
  // header tags as written ("XY[...]"), kept so an export can repeat them.
  std::vector<std::string> comments;
  std::vector<std::string> criteria_titles;  // informational, as read
  std::vector<FileWarning> warnings;
  // The file line of each player row (row k+1 = entrant k+1), for messages
  // about a row (the registry matching names both).
  std::vector<int> row_lines;
};

// Reads an EGF results file (lenient: blank place columns, ranks without a
// letter, "23+/w", "0=0", "3+/b0!", "5+/wh2", trailing "; comments", EGD
// PINs "|12345678"). The opponent number is the row number in file order.
// INVALID_ARGUMENT listing every problem as "line N: ..." when rows have
// different numbers of round results, a result is unreadable or asymmetric,
// an opponent row is unknown, a rank is invalid, a header value is bad, or
// there is no player row. A row whose last rounds have no game over the
// board (absent, or lost by forfeit) gets a warning: EGF cannot say
// "withdrew", so the director is asked for --withdrawn ROW=ROUND.
// Thread-safe.
absl::StatusOr<ResultFile> ReadEgf(const std::string& text);

// Writes the EGF file: header tags CL EV PC DT HA KM TM CM (those set),
// `comments`, a column-title line, then one row per entrant in standings
// order when `standings` is given (its criteria as columns: points as NBW =
// points / 2, A as SBcn, the others under short titles; a warnings column
// only when someone was warned) and in id order otherwise; entrants
// missing from the standings (voided) follow. Rows are numbered 1..N and
// opponents named by those numbers; forfeits keep their '!'.
// FAILED_PRECONDITION when a result is unknown, an entrant has no rank, or
// the standings are for teams (EGF files list players). Thread-safe.
absl::StatusOr<std::string> WriteEgf(const Event& event,
                                     const EventResults& results,
                                     const Standings* standings,
                                     const std::vector<std::string>& comments);

// Records withdrawals a file could not say, as (row, rounds completed
// before the withdrawal; 0 = before the start), and drops the warnings
// about those rows. INVALID_ARGUMENT naming a row outside 1..N, a round
// outside 0..R or a row given twice. Thread-compatible.
absl::Status ApplyWithdrawals(
    const std::vector<std::pair<int, int>>& withdrawals, ResultFile& file);

// Reads the CSV cross table (format in RESULT_FORMATS.md and csv_format.cc);
// a leading UTF-8 BOM is skipped (ReadEgf skips one too).
// INVALID_ARGUMENT with every problem as "line N: ..." (bad header, row
// numbers not 1..N in order, wrong cell count, bad quoting, and every
// cross-table problem EGF reports). Thread-safe.
absl::StatusOr<ResultFile> ReadCsv(const std::string& text);

// Writes the CSV cross table, rows in id order. FAILED_PRECONDITION when a
// result is unknown or an entrant has no rank. Thread-safe.
absl::StatusOr<std::string> WriteCsv(const Event& event,
                                     const EventResults& results);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_RESULT_FILE_H_
