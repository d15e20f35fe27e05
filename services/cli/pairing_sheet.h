// rankctl event sheet: the printed sheets of one round of a paired event -
// the pairing list (board, white, black, handicap, komi; byes) for the
// notice board, then one result slip a board (four to an A4 page, cut
// along the lines) for the players to fill in and sign. Drawn with
// libharu as the certificate is (certificate_pdf.h): Chinese text in the
// built-in SimSun/SimHei (GBK-EUC-H), ASCII text in Helvetica, so Chinese
// and Latin names print with no font file.
#ifndef GORANK_SERVICES_CLI_PAIRING_SHEET_H_
#define GORANK_SERVICES_CLI_PAIRING_SHEET_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::cli {

struct SheetBoard {
  int board = 0;
  std::string white;  // "12 Wang Lei (5d)"
  std::string black;
  int handicap = 0;
  std::string komi;  // "7.5"
};

struct PairingSheet {
  std::string event_name;
  long long event_id = 0;
  int round = 0;
  std::vector<SheetBoard> boards;
  std::vector<std::string> byes;  // "40 Qian Ming (2k): bye, 2 points"
};

// Pages: the list (40 boards a page, the byes after the last board), then
// ceil(boards / 4) pages of slips. The same sheet gives the same bytes.
int PairingSheetPages(const PairingSheet& sheet);

// The PDF's bytes. INVALID_ARGUMENT naming the text when a name has a
// non-ASCII character outside GBK; INTERNAL when libharu fails. Thread-safe.
absl::StatusOr<std::string> RenderPairingSheetPdf(const PairingSheet& sheet);

}  // namespace gorank::cli

#endif  // GORANK_SERVICES_CLI_PAIRING_SHEET_H_
