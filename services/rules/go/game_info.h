// Reading the root properties of a Go record whose spelling varies in the
// wild: the declared result (RE) in SGF, English and Chinese forms, and komi
// (KM) including the Fox server's scaled values and komi written in stones.
#ifndef GORANK_SERVICES_RULES_GO_GAME_INFO_H_
#define GORANK_SERVICES_RULES_GO_GAME_INFO_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "services/rules/go/types.h"

namespace gorank::rules::go {

enum class ResultKind {
  kAbsent,   // no RE (or RE[])
  kUnknown,  // "?", "Unfinished"
  kVoid,     // "Void", "无胜负": no result
  kDraw,     // "0", "Draw", "Jigo", "和棋"
  kWin,
  kUnparsed,  // something we cannot read; reported, never compared
};

enum class WinReason { kUnspecified, kScore, kResignation, kTime, kForfeit };

struct DeclaredResult {
  ResultKind kind = ResultKind::kAbsent;
  Color winner = Color::kEmpty;
  WinReason reason = WinReason::kUnspecified;
  bool has_margin = false;     // only for kScore
  int margin_half_points = 0;  // the winner's margin, > 0
  std::string text;            // RE as written (UTF-8)
};

// Reads RE. Accepted (case-insensitive, surrounding space ignored):
//   "B+R" "B+Resign" "W+T" "W+Time" "B+F" "B+Forfeit" "B+3.5" "W+64" "B+"
//   "Black+R" "White+2.5" "0" "Draw" "Jigo" "Void" "?" "Unfinished"
//   "黑中盘胜" "白中押胜" "黑不计点胜" "黑胜3/4子" "白胜3又3/4子" "黑胜半子"
//   "白胜2子" "白胜43.5目" "黑超时负" "白超时胜" "黑弃权负" "和棋" "无胜负"
//   (traditional 勝/負 as well). Never fails: unreadable text is kUnparsed.
// Thread-safe.
DeclaredResult ParseResult(std::string_view text);

struct Komi {
  int half_points = 0;
  std::string note;  // non-empty when the value was reinterpreted
};

// Reads KM into points (in halves). A whole number of at least 50 that is a
// multiple of 25 is the Fox scale (hundredths): KM[375] = 3.75; a value with
// a quarter fraction (3.75, 2.75, 375 -> 3.75) or 3.0..3.5 after scaling is
// komi in stones (Chinese "3 3/4 子") and is doubled to points (7.5). Each
// reinterpretation is described in `note`.
// INVALID_ARGUMENT when the text is not a number or is not a multiple of
// half a point after reinterpretation. Thread-safe.
absl::StatusOr<Komi> ReadKomi(std::string_view text);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_GAME_INFO_H_
