#include "services/rules/xiangqi/legality.h"

#include <cstdlib>

namespace gorank::rules::xiangqi {
namespace {

// Pieces strictly between two points of one file or rank.
int Between(const Position& pos, Square from, Square to) {
  const int df = FileOf(to) - FileOf(from), dr = RankOf(to) - RankOf(from);
  const int step = df != 0 ? (df > 0 ? 1 : -1) : (dr > 0 ? kWidth : -kWidth);
  int n = 0;
  for (int s = from + step; s != to; s += step)
    if (pos.at(static_cast<Square>(s)) != kEmpty) ++n;
  return n;
}

Rule PieceRule(const Position& pos, Square from, Square to) {
  const Side side = pos.side_to_move();
  const int df = FileOf(to) - FileOf(from), dr = RankOf(to) - RankOf(from);
  const int adf = std::abs(df), adr = std::abs(dr);
  const bool capture = pos.at(to) != kEmpty;
  switch (TypeOf(pos.at(from))) {
    case PieceType::kGeneral:
      if (!InPalace(side, to)) return Rule::kGeneralPalace;
      if (adf + adr != 1) return Rule::kGeneralStep;
      return Rule::kNone;
    case PieceType::kAdvisor:
      if (adf != 1 || adr != 1) return Rule::kAdvisorStep;
      if (!InPalace(side, to)) return Rule::kAdvisorPalace;
      return Rule::kNone;
    case PieceType::kElephant:
      if (adf != 2 || adr != 2) return Rule::kElephantStep;
      if (!OnOwnHalf(side, to)) return Rule::kElephantRiver;
      if (pos.at(static_cast<Square>((from + to) / 2)) != kEmpty)
        return Rule::kElephantEye;
      return Rule::kNone;
    case PieceType::kHorse: {
      if (!((adf == 1 && adr == 2) || (adf == 2 && adr == 1)))
        return Rule::kHorseStep;
      const int leg = adr == 2 ? from + (dr > 0 ? kWidth : -kWidth)
                               : from + (df > 0 ? 1 : -1);
      if (pos.at(static_cast<Square>(leg)) != kEmpty) return Rule::kHorseLeg;
      return Rule::kNone;
    }
    case PieceType::kChariot:
      if (df != 0 && dr != 0) return Rule::kChariotLine;
      if (Between(pos, from, to) != 0) return Rule::kChariotBlocked;
      return Rule::kNone;
    case PieceType::kCannon: {
      if (df != 0 && dr != 0) return Rule::kCannonLine;
      const int n = Between(pos, from, to);
      if (!capture && n != 0) return Rule::kCannonBlocked;
      if (capture && n != 1) return Rule::kCannonScreen;
      return Rule::kNone;
    }
    case PieceType::kSoldier: {
      const int forward = side == Side::kRed ? dr : -dr;
      if (forward < 0) return Rule::kSoldierBackward;
      if (adf + adr != 1) return Rule::kSoldierStep;
      if (df != 0 && OnOwnHalf(side, from)) return Rule::kSoldierSideways;
      return Rule::kNone;
    }
    case PieceType::kNone:
      break;
  }
  return Rule::kNoPiece;
}

}  // namespace

const char* RuleName(Rule rule) {
  switch (rule) {
    case Rule::kNone:
      return "legal";
    case Rule::kNoPiece:
      return "no piece";
    case Rule::kOpponentPiece:
      return "opponent's piece";
    case Rule::kOwnPieceOnTarget:
      return "own piece on target";
    case Rule::kGeneralPalace:
      return "general leaves the palace";
    case Rule::kGeneralStep:
      return "general step";
    case Rule::kAdvisorPalace:
      return "advisor leaves the palace";
    case Rule::kAdvisorStep:
      return "advisor step";
    case Rule::kElephantStep:
      return "elephant step";
    case Rule::kElephantRiver:
      return "elephant crosses the river";
    case Rule::kElephantEye:
      return "elephant eye blocked";
    case Rule::kHorseStep:
      return "horse step";
    case Rule::kHorseLeg:
      return "horse leg blocked";
    case Rule::kChariotLine:
      return "chariot line";
    case Rule::kChariotBlocked:
      return "chariot blocked";
    case Rule::kCannonLine:
      return "cannon line";
    case Rule::kCannonBlocked:
      return "cannon blocked";
    case Rule::kCannonScreen:
      return "cannon screen";
    case Rule::kSoldierBackward:
      return "soldier backward";
    case Rule::kSoldierSideways:
      return "soldier sideways before the river";
    case Rule::kSoldierStep:
      return "soldier step";
    case Rule::kFlyingGeneral:
      return "generals face";
    case Rule::kSelfCheck:
      return "self-check";
  }
  return "unknown";
}

const char* RuleDescription(Rule rule) {
  switch (rule) {
    case Rule::kNone:
      return "the move is legal";
    case Rule::kNoPiece:
      return "there is no piece on the from point";
    case Rule::kOpponentPiece:
      return "the piece on the from point belongs to the other side";
    case Rule::kOwnPieceOnTarget:
      return "the to point holds one of the side's own pieces";
    case Rule::kGeneralPalace:
      return "the general may not leave the palace (九宫)";
    case Rule::kGeneralStep:
      return "the general moves one point along a line";
    case Rule::kAdvisorPalace:
      return "the advisor may not leave the palace (九宫)";
    case Rule::kAdvisorStep:
      return "the advisor moves one point diagonally";
    case Rule::kElephantStep:
      return "the elephant moves two points diagonally (象走田)";
    case Rule::kElephantRiver:
      return "the elephant may not cross the river";
    case Rule::kElephantEye:
      return "the elephant is blocked at the eye (塞象眼)";
    case Rule::kHorseStep:
      return "the horse moves one point along a line then one diagonally "
             "(马走日)";
    case Rule::kHorseLeg:
      return "the horse is blocked at the leg (蹩马腿)";
    case Rule::kChariotLine:
      return "the chariot moves along a file or a rank";
    case Rule::kChariotBlocked:
      return "the chariot may not jump over pieces";
    case Rule::kCannonLine:
      return "the cannon moves along a file or a rank";
    case Rule::kCannonBlocked:
      return "the cannon needs a clear path to move without capturing";
    case Rule::kCannonScreen:
      return "the cannon captures over exactly one screen (炮打隔子)";
    case Rule::kSoldierBackward:
      return "the soldier never moves backward";
    case Rule::kSoldierSideways:
      return "the soldier moves sideways only after crossing the river";
    case Rule::kSoldierStep:
      return "the soldier moves one point";
    case Rule::kFlyingGeneral:
      return "the two generals may not face each other on an open file "
             "(将帅对面)";
    case Rule::kSelfCheck:
      return "the move leaves the side's own general in check";
  }
  return "unknown rule";
}

Rule WhyIllegal(const Position& pos, Square from, Square to) {
  const Piece p = pos.at(from);
  if (p == kEmpty) return Rule::kNoPiece;
  if (SideOf(p) != pos.side_to_move()) return Rule::kOpponentPiece;
  const Piece q = pos.at(to);
  if (q != kEmpty && SideOf(q) == pos.side_to_move())
    return Rule::kOwnPieceOnTarget;
  const Rule rule = PieceRule(pos, from, to);
  if (rule != Rule::kNone) return rule;
  Position after = pos;
  after.MakeMove(EncodeMove(from, to));
  if (after.GeneralsFace()) return Rule::kFlyingGeneral;
  if (after.Attacked(after.general(pos.side_to_move()), after.side_to_move()))
    return Rule::kSelfCheck;
  return Rule::kNone;
}

}  // namespace gorank::rules::xiangqi
