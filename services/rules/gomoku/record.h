// A Gomoku game record as read from its two accepted notations:
//   - SGF with GM[4] (SZ[15] or no SZ): the main line of B/W moves, plus PB,
//     PW, EV, DT, RU and RE. SGF points are two letters a-o, column then row
//     counted from the top (so "hh" is H8, "ao" is A1); B[] and B[tt] pass.
//   - the plain move list of the Chinese rule text: "H8 I9 H9 ...", a column
//     letter A-O (I included, as the rule text lists A-O in order) then a row
//     1-15 from black's side; moves alternate starting with black; tokens are
//     separated by white space, commas or semicolons; move numbers such as
//     "1." or "12." between moves are skipped; "pass" passes.
// Reading checks notation only; the rules are checked by checker.h.
#ifndef GORANK_SERVICES_RULES_GOMOKU_RECORD_H_
#define GORANK_SERVICES_RULES_GOMOKU_RECORD_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/rules/gomoku/board.h"

namespace gorank::rules::gomoku {

// A place in the input text, both 1-based; columns count characters (UTF-8
// code points), not bytes.
struct TextPosition {
  int line = 1;
  int column = 1;
  // "line 3, column 14".
  std::string ToString() const;
};

struct RecordedMove {
  int number = 0;               // 1-based position in the record
  Stone color = Stone::kBlack;  // kBlack or kWhite
  std::optional<Point> point;   // no value: a pass
  TextPosition position;        // where the move is written

  // "12. W J9" or "13. B pass".
  std::string ToString() const;
};

// The result the record states (SGF RE), as read.
struct RecordedResult {
  enum class Kind { kAbsent, kBlackWins, kWhiteWins, kDraw, kVoid, kUnknown };
  enum class Reason {
    kUnspecified,
    kResignation,
    kTime,
    kForfeit,
    kForbiddenMove
  };
  Kind kind = Kind::kAbsent;
  Reason reason = Reason::kUnspecified;
  std::string text;  // as written
};

// Reads RE text: "B+R" "W+Resign" "B+T" "W+Time" "W+F" "W+Forfeit"
// "W+Foul" "B+" "W+5"; "0" "Draw" "Jigo"; "Void"; "?"; and Chinese "黑胜"
// "白胜" "黑方认输"→white "白方认输"→black "和棋" "和局" "平局", with "禁手"
// anywhere meaning white wins on black's forbidden move. Text it cannot read
// gives kind kUnknown (not an error: the board decides).
RecordedResult ParseRecordedResult(const std::string& text);

struct GameRecord {
  std::vector<RecordedMove> moves;
  RecordedResult result;
  std::string black_player;
  std::string white_player;
  std::string event;
  std::string date;
  std::string rules;  // SGF RU, as written
  // SGF only: the charset the bytes were read in ("UTF-8", "GB18030", ...)
  // and, when that was a guess or overrode CA[], a sentence saying so.
  std::string charset;
  std::string charset_note;
};

// Reads SGF through the shared reader (services/rules/sgf: charset detection
// for GBK/GB18030/Big5 records, lenient FF[1]-FF[3] syntax, iterative parse).
// Errors:
//   INVALID_ARGUMENT for malformed SGF (the shared reader's message, with the
//     byte offset); and, naming the line/column and what was expected: more
//     than one game in the file, GM other than 4, SZ other than 15, a node
//     with both B and W, a move value that is not two letters a-o (or empty
//     / "tt" for a pass), a property given more than one value where one is
//     meant.
//   UNIMPLEMENTED for setup stones (AB, AW, AE): start positions are not
//     supported.
//   RESOURCE_EXHAUSTED over the shared reader's limits (1 MiB, 200000 nodes,
//     nesting 10000).
// Thread-safe.
absl::StatusOr<GameRecord> ParseSgfRecord(const std::string& sgf);

// INVALID_ARGUMENT naming the move number, the line/column and the token
// for anything that is not a point A1..O15, "pass" or a move number; also
// for an empty list. Thread-safe.
absl::StatusOr<GameRecord> ParseMoveList(const std::string& text);

}  // namespace gorank::rules::gomoku

#endif  // GORANK_SERVICES_RULES_GOMOKU_RECORD_H_
