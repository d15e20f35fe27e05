// Checks a Gomoku game record against the rules of SPEC section 7 and says
// who won and how. Formal rules (the default): black moves first and puts the
// first stone on H8; moves alternate on empty points; the game ends at the
// first five (black: exactly five; white: five or more); black's double three,
// double four and overline are forbidden (forbidden.h), but a five made
// together with a forbidden shape wins. Free-style rules: no forbidden moves,
// five or more wins for both, the first stone may go anywhere.
//
// Forbidden moves must be claimed by white (白方指出). With ClaimPolicy
// kAsRecorded (default) a forbidden move loses only when it is the record's
// last move and the recorded result gives white the win other than by
// resignation or time; earlier forbidden moves are reported as unclaimed and
// play goes on. With kImmediate the checker claims for white at the first
// forbidden move, as an online referee would.
//
// A rule violation is an answer, not an error: it is listed with its move
// number. A move on an occupied point or after the end is not played; a move
// by the wrong colour is played as recorded. Passes are allowed; two passes
// in a row end the game as a draw (the RIF convention; the rule text is
// silent). A full board without five is a draw.
#ifndef GORANK_SERVICES_RULES_GOMOKU_CHECKER_H_
#define GORANK_SERVICES_RULES_GOMOKU_CHECKER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/rules/gomoku/board.h"
#include "services/rules/gomoku/forbidden.h"
#include "services/rules/gomoku/record.h"

namespace gorank::rules::gomoku {

enum class Ruleset { kFormal, kFreestyle };
enum class ClaimPolicy { kAsRecorded, kImmediate };

struct CheckOptions {
  Ruleset ruleset = Ruleset::kFormal;
  ClaimPolicy claim = ClaimPolicy::kAsRecorded;
};

enum class ViolationKind {
  kWrongColor,          // white first, or a colour moving twice in a row
  kFirstMoveNotCenter,  // formal rules: black's first stone not on H8
  kOccupied,            // the point already holds a stone
  kAfterGameEnd,        // a move after five, a claimed forbidden move, ...
  kResultMismatch,      // the recorded result contradicts the board
};
// "wrong colour", "first move not on H8", "occupied point",
// "move after the end of the game", "result mismatch".
const char* ViolationKindName(ViolationKind kind);

struct Violation {
  int move_number = 0;  // 0 for kResultMismatch (about the whole record)
  ViolationKind kind = ViolationKind::kWrongColor;
  std::string message;  // a sentence a referee can act on
};

// A black move on a forbidden point.
struct ForbiddenMoveReport {
  int move_number = 0;
  MoveAnalysis analysis;  // analysis.forbidden() is true
  bool claimed = false;   // white claimed it and won
};

enum class Winner { kNone, kBlack, kWhite };
enum class EndReason {
  kUnfinished,            // no five and no recorded end
  kFive,                  // decided_at_move made five
  kForbiddenMoveClaimed,  // decided_at_move was black's forbidden move
  kResignation,           // from the recorded result
  kTime,                  // from the recorded result
  kForfeit,               // from the recorded result
  kRecordedWin,           // the record names a winner without a reason
  kDrawFullBoard,         // 225 stones, no five
  kDrawByPasses,          // two passes in a row
  kDrawRecorded,          // the record says draw
  kVoid,                  // the record says void
};
const char* EndReasonName(EndReason reason);

struct Outcome {
  Winner winner = Winner::kNone;
  EndReason reason = EndReason::kUnfinished;
  int decided_at_move = 0;  // 0 when not decided by a move on the board
  std::vector<Point> five;  // the winning line, when reason is kFive
  std::string summary;      // e.g. "black wins by five at move 9 (H4-H8)"
};

struct CheckReport {
  std::vector<Violation> violations;  // in move order
  std::vector<ForbiddenMoveReport> forbidden_moves;
  Outcome outcome;
  Board final_board;
  int moves_played = 0;  // moves placed on the board (passes count)

  bool ok() const { return violations.empty(); }
};

// Replays `record` under `options`. Returns an OK report for every record a
// parser accepts; the StatusOr is for records built by hand: INVALID_ARGUMENT
// when a move's colour is not kBlack/kWhite or its point is off the board,
// naming the move. Thread-safe.
absl::StatusOr<CheckReport> CheckRecord(const GameRecord& record,
                                        const CheckOptions& options = {});

// ParseSgfRecord / ParseMoveList, then CheckRecord; their errors pass through.
absl::StatusOr<CheckReport> CheckSgf(const std::string& sgf,
                                     const CheckOptions& options = {});
absl::StatusOr<CheckReport> CheckMoveList(const std::string& moves,
                                          const CheckOptions& options = {});

}  // namespace gorank::rules::gomoku

#endif  // GORANK_SERVICES_RULES_GOMOKU_CHECKER_H_
