// The last step of CheckGame (internal to the rules module): after the
// replay, decide how the game ended, which stones are dead, the count, the
// outcome and whether the declared result agrees. Split from check.cc to
// keep each file to one concern.
#ifndef GORANK_SERVICES_RULES_GO_CONCLUDE_H_
#define GORANK_SERVICES_RULES_GO_CONCLUDE_H_

#include "absl/status/status.h"
#include "services/rules/go/board.h"
#include "services/rules/go/check.h"

namespace gorank::rules::go {

// Fills report.end (unless the replay saw two passes), end_move,
// dead_stones(_source), count, outcome, result_check(_detail) and notes.
// INVALID_ARGUMENT when options.dead_stones holds a point off the board.
// REQUIRES: report.record, move_count, warnings and cycle are filled.
absl::Status Conclude(const Board& board, const CheckOptions& options,
                      GameReport& report);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_CONCLUDE_H_
