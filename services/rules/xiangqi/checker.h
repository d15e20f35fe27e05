// Checks Xiangqi game records: replays each game of a PGN file (pgn.h) from
// the start position or its [FEN], reading every move in its notation
// (notation.h) against the board, and reports
//   - the first move that cannot be played and why: unreadable, naming no
//     piece that is there, ambiguous, or illegal with the rule it breaks
//     (legality.h); the replay stops there;
//   - a move after the game ended on the board (checkmate, no legal move,
//     or a repetition ruling);
//   - repetitions (repetition.h): the third occurrence of a position ends the
//     game with the ruling of the Chinese Xiangqi Association's rules as
//     read there, or as "needs an arbiter";
//   - the recorded [Result] against the board: after checkmate or no legal
//     move (困毙, stalemate included) the side to move has lost, and the
//     record must not name the other side or a draw; a repetition ruling
//     must match likewise. A result on an unfinished board (resignation,
//     time, agreement) is taken as recorded.
// Move numbers count plies: red's first move is 1, black's reply 2.
// A violation is an answer, not an error.
#ifndef GORANK_SERVICES_RULES_XIANGQI_CHECKER_H_
#define GORANK_SERVICES_RULES_XIANGQI_CHECKER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "services/rules/xiangqi/legality.h"
#include "services/rules/xiangqi/notation.h"
#include "services/rules/xiangqi/pgn.h"
#include "services/rules/xiangqi/repetition.h"

namespace gorank::rules::xiangqi {

struct CheckOptions {
  // Unset: the game's [Format] tag, else each move's own notation.
  std::optional<Notation> notation;
};

enum class ViolationKind {
  kUnreadableMove,
  kNoSuchPiece,
  kAmbiguousMove,
  kIllegalMove,
  kAfterGameEnd,
  kResultMismatch,
};
// "unreadable move", "no such piece", "ambiguous move", "illegal move",
// "move after the end of the game", "result mismatch".
const char* ViolationKindName(ViolationKind kind);

struct Violation {
  int move_number = 0;  // 0 for kResultMismatch
  ViolationKind kind = ViolationKind::kIllegalMove;
  Rule rule = Rule::kNone;  // for kIllegalMove
  Side side = Side::kRed;
  std::string notation;  // as written
  std::string message;   // "move 7 (red) C2.5: h2h9: the cannon ..."
};

struct Repetition {
  int first_move = 0, last_move = 0;
  RepetitionVerdict verdict;
};

enum class EndReason {
  kUnfinished,
  kCheckmate,
  kNoLegalMove,
  kRepetition,
  kRecordedWin,
  kRecordedDraw,
  kNeedsArbiter,
};
const char* EndReasonName(EndReason r);

struct Outcome {
  std::optional<Side> winner;
  EndReason reason = EndReason::kUnfinished;
  int decided_at_move = 0;
  std::string summary;
};

struct GameReport {
  int line = 1;  // where the game starts in the file
  std::string red, black, event, date, result_text, fen, format;
  int moves_played = 0;
  std::vector<Violation> violations;
  std::vector<Repetition> repetitions;
  Outcome outcome;
  std::string final_fen;
  bool needs_arbiter = false;
  bool failed() const { return !violations.empty(); }
};

struct FileReport {
  std::string charset, charset_note;
  std::vector<GameReport> games;
};

// INVALID_ARGUMENT naming the game's line for a [FEN] that is not a legal
// position or a [Format] other than ICCS, WXF or Chinese. Thread-safe.
absl::StatusOr<GameReport> CheckGame(const PgnGame& game,
                                     const CheckOptions& options = {});

// ReadPgn, then CheckGame for each game; their errors pass through.
absl::StatusOr<FileReport> CheckRecord(std::string_view bytes,
                                       const CheckOptions& options = {});

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_CHECKER_H_
