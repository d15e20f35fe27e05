// Why a move is not legal: the one Xiangqi rule a from-to move breaks, for
// the record check's violations ("the horse is blocked at the leg"). The
// move generator (position.h) decides legality; this file only names the
// reason, checking the rules in the order a referee would: the piece, the
// piece's own movement rule, then the generals facing, then self-check.
#ifndef GORANK_SERVICES_RULES_XIANGQI_LEGALITY_H_
#define GORANK_SERVICES_RULES_XIANGQI_LEGALITY_H_

#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {

enum class Rule {
  kNone,              // the move is legal
  kNoPiece,           // nothing on the from point
  kOpponentPiece,     // the from point holds the other side's piece
  kOwnPieceOnTarget,  // the to point holds one's own piece
  kGeneralPalace,
  kGeneralStep,
  kAdvisorPalace,
  kAdvisorStep,
  kElephantStep,
  kElephantRiver,
  kElephantEye,
  kHorseStep,
  kHorseLeg,
  kChariotLine,
  kChariotBlocked,
  kCannonLine,
  kCannonBlocked,
  kCannonScreen,
  kSoldierBackward,
  kSoldierSideways,
  kSoldierStep,
  kFlyingGeneral,
  kSelfCheck,
};

// A sentence for the rule: "the horse is blocked at the leg (蹩马腿)".
const char* RuleDescription(Rule rule);
// A short name: "horse leg blocked".
const char* RuleName(Rule rule);

// The rule the move from -> to breaks for the side to move, kNone when it is
// legal. REQUIRES: from and to are on the board. Thread-safe (const).
Rule WhyIllegal(const Position& pos, Square from, Square to);

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_LEGALITY_H_
