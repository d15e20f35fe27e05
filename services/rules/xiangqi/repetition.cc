#include "services/rules/xiangqi/repetition.h"

#include <algorithm>
#include <map>

namespace gorank::rules::xiangqi {
namespace {

struct Attack {
  PieceType type = PieceType::kNone;
  Square square = 0;
  bool unprotected = false;
};

// The opposing pieces `pos`'s side to move could take now, under the chase
// definition of the header, by slot.
std::map<int, Attack> Attacks(const Position& pos) {
  std::map<int, Attack> out;
  const Side side = pos.side_to_move();
  MoveList list;
  pos.GenerateLegal(&list);
  for (Move m : list) {
    const Piece attacker = pos.at(From(m)), target = pos.at(To(m));
    if (target == kEmpty) continue;
    const PieceType a = TypeOf(attacker), t = TypeOf(target);
    if (a == PieceType::kGeneral || a == PieceType::kSoldier) continue;
    if (t == PieceType::kGeneral) continue;
    if (t == PieceType::kSoldier && OnOwnHalf(Opponent(side), To(m))) continue;
    Position after = pos;
    after.MakeMove(m);
    bool retaken = false;
    MoveList replies;
    after.GenerateLegal(&replies);
    for (Move r : replies) retaken |= To(r) == To(m);
    // A target that could take its attacker first (two chariots on one
    // line: an offer to exchange) is not a certain chase either.
    const bool mutual =
        pos.WithSideToMove(Opponent(side)).IsLegal(EncodeMove(To(m), From(m)));
    Attack& entry = out[pos.slot(To(m))];
    entry.type = t;
    entry.square = To(m);
    entry.unprotected |= !retaken && !mutual;
  }
  return out;
}

std::string Describe(Side side, const ChasedPiece& p) {
  return std::string(SideName(side)) + " " + PieceTypeName(p.type) + " on " +
         SquareName(p.square);
}

enum class Play { kCheck, kChase, kUncertain, kIdle };

struct SideVerdict {
  Play play = Play::kIdle;
  ChasedPiece target;
};

SideVerdict Classify(const std::vector<const MoveEffect*>& moves) {
  SideVerdict v;
  if (moves.empty()) return v;
  bool all_check = true, all_check_or_chase = true, all_active = true;
  std::vector<int> common;
  bool first_chase = true;
  for (const MoveEffect* m : moves) {
    all_check &= m->check;
    if (m->check) continue;
    all_check_or_chase &= !m->chased.empty();
    all_active &= !m->chased.empty() || m->threat;
    std::vector<int> slots;
    for (const ChasedPiece& p : m->chased) slots.push_back(p.slot);
    std::sort(slots.begin(), slots.end());
    if (first_chase) {
      common = slots;
      first_chase = false;
    } else {
      std::vector<int> keep;
      std::set_intersection(common.begin(), common.end(), slots.begin(),
                            slots.end(), std::back_inserter(keep));
      common = keep;
    }
  }
  if (all_check) {
    v.play = Play::kCheck;
  } else if (all_check_or_chase && !common.empty()) {
    v.play = Play::kChase;
    for (auto it = moves.rbegin(); it != moves.rend(); ++it)
      for (const ChasedPiece& p : (*it)->chased)
        if (p.slot == common[0] && v.target.slot < 0) v.target = p;
  } else if (all_active) {
    v.play = Play::kUncertain;
  }
  return v;
}

}  // namespace

const char* RepetitionRulingName(RepetitionRuling r) {
  switch (r) {
    case RepetitionRuling::kPerpetualCheck:
      return "perpetual check (长将)";
    case RepetitionRuling::kMutualPerpetualCheck:
      return "mutual perpetual check (双方长将)";
    case RepetitionRuling::kPerpetualChase:
      return "perpetual chase (长捉)";
    case RepetitionRuling::kMutualPerpetualChase:
      return "mutual perpetual chase (双方长捉)";
    case RepetitionRuling::kIdle:
      return "idle repetition (闲着)";
    case RepetitionRuling::kNeedsArbiter:
      return "needs an arbiter";
  }
  return "?";
}

MoveEffect AnalyzeMove(const Position& before, Move m) {
  MoveEffect e;
  e.mover = before.side_to_move();
  Position after = before;
  after.MakeMove(m);
  e.check = after.InCheck();
  const std::map<int, Attack> old_attacks = Attacks(before);
  const std::map<int, Attack> new_attacks =
      Attacks(after.WithSideToMove(e.mover));
  for (const auto& [slot, attack] : new_attacks) {
    const bool fresh = old_attacks.count(slot) == 0;
    if (fresh && attack.unprotected) {
      e.chased.push_back(ChasedPiece{slot, attack.type, attack.square});
    } else {
      e.threat = true;  // a protected piece, or one attacked already
    }
  }
  if (!e.chased.empty()) e.threat = false;
  return e;
}

RepetitionVerdict JudgeRepetition(const std::vector<MoveEffect>& cycle) {
  std::vector<const MoveEffect*> by_side[2];
  for (const MoveEffect& m : cycle)
    by_side[static_cast<int>(m.mover)].push_back(&m);
  const SideVerdict red = Classify(by_side[0]), black = Classify(by_side[1]);
  RepetitionVerdict v;
  const auto loses = [&](Side s, RepetitionRuling r, const std::string& why) {
    v.ruling = r;
    v.loser = s;
    v.description =
        std::string(SideName(s)) + " " + why + ": " + SideName(s) + " loses";
  };
  if (red.play == Play::kCheck && black.play == Play::kCheck) {
    v.ruling = RepetitionRuling::kMutualPerpetualCheck;
    v.description = "both sides check on every move: a draw";
  } else if (red.play == Play::kCheck) {
    loses(Side::kRed, RepetitionRuling::kPerpetualCheck,
          "checks on every move");
  } else if (black.play == Play::kCheck) {
    loses(Side::kBlack, RepetitionRuling::kPerpetualCheck,
          "checks on every move");
  } else if (red.play == Play::kUncertain || black.play == Play::kUncertain) {
    v.ruling = RepetitionRuling::kNeedsArbiter;
    v.description =
        std::string(red.play == Play::kUncertain ? "red" : "black") +
        " attacks on every move, but not as a chase this checker can "
        "decide (a protected piece, changing or standing targets): "
        "needs an arbiter";
  } else if (red.play == Play::kChase && black.play == Play::kChase) {
    v.ruling = RepetitionRuling::kMutualPerpetualChase;
    v.description = "both sides chase on every move: a draw";
  } else if (red.play == Play::kChase || black.play == Play::kChase) {
    const Side s = red.play == Play::kChase ? Side::kRed : Side::kBlack;
    const SideVerdict& sv = s == Side::kRed ? red : black;
    v.chased_piece = Describe(Opponent(s), sv.target);
    loses(s, RepetitionRuling::kPerpetualChase,
          "chases the " + v.chased_piece + " on every move");
  } else {
    v.ruling = RepetitionRuling::kIdle;
    v.description =
        "neither side checks or chases on every move (闲着): a draw";
  }
  return v;
}

}  // namespace gorank::rules::xiangqi
