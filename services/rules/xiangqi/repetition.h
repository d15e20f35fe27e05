// The repetition rules of Xiangqi as this checker reads the Chinese Xiangqi
// Association's competition rules (中国象棋竞赛规则): when a position comes
// back for the third time (same side to move), the moves of the cycle are
// judged side by side:
//   - a side whose every move in the cycle checks plays perpetual check
//     (长将): it loses, unless the other side checks perpetually too, which
//     is a draw (双方长将, 不变作和);
//   - otherwise, a side whose every move checks or chases, and whose chasing
//     moves all newly attack one and the same piece that the other side
//     could not retake (长捉, "one check one chase" included) loses when the
//     other side only plays idle moves; both chasing is a draw;
//   - both sides idle (闲着): a draw;
//   - a side whose every move checks or attacks something, but not as a
//     certain chase (a protected piece, changing targets, a piece that was
//     already attacked): the checker cannot decide what the rules call a
//     chase there - the ruling is "needs an arbiter", never passed silently.
// What counts as a chase here: a move after which the mover could legally
// capture an opposing piece it could not capture before, the piece being
// neither the general nor a soldier on its own side of the river, the
// capturing piece being neither the general nor a soldier (their threats
// are allowed), no legal recapture on that point, and the piece not able
// to take its attacker first (an offered exchange).
#ifndef GORANK_SERVICES_RULES_XIANGQI_REPETITION_H_
#define GORANK_SERVICES_RULES_XIANGQI_REPETITION_H_

#include <optional>
#include <string>
#include <vector>

#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {

enum class RepetitionRuling {
  kPerpetualCheck,        // the checking side loses
  kMutualPerpetualCheck,  // draw
  kPerpetualChase,        // the chasing side loses
  kMutualPerpetualChase,  // draw
  kIdle,                  // draw
  kNeedsArbiter,
};
const char* RepetitionRulingName(
    RepetitionRuling r);  // "perpetual check (长将)"

struct ChasedPiece {
  int slot = -1;  // the piece's slot in its side's list (its identity)
  PieceType type = PieceType::kNone;
  Square square = 0;  // where it stands after the move
};

// What one move did, for the rules above.
struct MoveEffect {
  Side mover = Side::kRed;
  bool check = false;               // the move gives check
  std::vector<ChasedPiece> chased;  // newly attacked, no recapture
  bool threat = false;              // attacks something, not as a certain chase
};

// REQUIRES: m is legal in `before`. Thread-safe (const).
MoveEffect AnalyzeMove(const Position& before, Move m);

struct RepetitionVerdict {
  RepetitionRuling ruling = RepetitionRuling::kIdle;
  std::optional<Side> loser;
  std::string chased_piece;  // "black horse on c7" for a chase
  std::string description;   // a sentence for the report
};

// REQUIRES: cycle is non-empty, the moves of one repetition cycle in order.
RepetitionVerdict JudgeRepetition(const std::vector<MoveEffect>& cycle);

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_REPETITION_H_
