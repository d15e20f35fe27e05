#include "services/rules/xiangqi_proto_convert.h"

#include <string>

namespace gorank::rules {
namespace {

namespace xq = xiangqi;

v1::XiangqiSide SideToProto(std::optional<xq::Side> s) {
  if (!s) return v1::XIANGQI_SIDE_UNSPECIFIED;
  return *s == xq::Side::kRed ? v1::XIANGQI_SIDE_RED : v1::XIANGQI_SIDE_BLACK;
}

v1::XiangqiViolationKind KindToProto(xq::ViolationKind k) {
  switch (k) {
    case xq::ViolationKind::kUnreadableMove:
      return v1::XIANGQI_VIOLATION_KIND_UNREADABLE_MOVE;
    case xq::ViolationKind::kNoSuchPiece:
      return v1::XIANGQI_VIOLATION_KIND_NO_SUCH_PIECE;
    case xq::ViolationKind::kAmbiguousMove:
      return v1::XIANGQI_VIOLATION_KIND_AMBIGUOUS_MOVE;
    case xq::ViolationKind::kIllegalMove:
      return v1::XIANGQI_VIOLATION_KIND_ILLEGAL_MOVE;
    case xq::ViolationKind::kAfterGameEnd:
      return v1::XIANGQI_VIOLATION_KIND_AFTER_GAME_END;
    case xq::ViolationKind::kResultMismatch:
      return v1::XIANGQI_VIOLATION_KIND_RESULT_MISMATCH;
  }
  return v1::XIANGQI_VIOLATION_KIND_UNSPECIFIED;
}

// The proto enum lists the domain's rules in the same order, from 1.
v1::XiangqiRule RuleToProto(xq::Rule r) {
  if (r == xq::Rule::kNone) return v1::XIANGQI_RULE_UNSPECIFIED;
  return static_cast<v1::XiangqiRule>(static_cast<int>(r));
}

v1::XiangqiRepetitionRuling RulingToProto(xq::RepetitionRuling r) {
  switch (r) {
    case xq::RepetitionRuling::kPerpetualCheck:
      return v1::XIANGQI_REPETITION_RULING_PERPETUAL_CHECK;
    case xq::RepetitionRuling::kMutualPerpetualCheck:
      return v1::XIANGQI_REPETITION_RULING_MUTUAL_PERPETUAL_CHECK;
    case xq::RepetitionRuling::kPerpetualChase:
      return v1::XIANGQI_REPETITION_RULING_PERPETUAL_CHASE;
    case xq::RepetitionRuling::kMutualPerpetualChase:
      return v1::XIANGQI_REPETITION_RULING_MUTUAL_PERPETUAL_CHASE;
    case xq::RepetitionRuling::kIdle:
      return v1::XIANGQI_REPETITION_RULING_IDLE;
    case xq::RepetitionRuling::kNeedsArbiter:
      return v1::XIANGQI_REPETITION_RULING_NEEDS_ARBITER;
  }
  return v1::XIANGQI_REPETITION_RULING_UNSPECIFIED;
}

v1::XiangqiEndReason ReasonToProto(xq::EndReason r) {
  switch (r) {
    case xq::EndReason::kUnfinished:
      return v1::XIANGQI_END_REASON_UNFINISHED;
    case xq::EndReason::kCheckmate:
      return v1::XIANGQI_END_REASON_CHECKMATE;
    case xq::EndReason::kNoLegalMove:
      return v1::XIANGQI_END_REASON_NO_LEGAL_MOVE;
    case xq::EndReason::kRepetition:
      return v1::XIANGQI_END_REASON_REPETITION;
    case xq::EndReason::kRecordedWin:
      return v1::XIANGQI_END_REASON_RECORDED_WIN;
    case xq::EndReason::kRecordedDraw:
      return v1::XIANGQI_END_REASON_RECORDED_DRAW;
    case xq::EndReason::kNeedsArbiter:
      return v1::XIANGQI_END_REASON_NEEDS_ARBITER;
  }
  return v1::XIANGQI_END_REASON_UNSPECIFIED;
}

void GameToProto(const xq::GameReport& g, v1::XiangqiGameReport* out) {
  v1::XiangqiGameInfo* info = out->mutable_info();
  info->set_red(g.red);
  info->set_black(g.black);
  info->set_event(g.event);
  info->set_date(g.date);
  info->set_result_text(g.result_text);
  info->set_fen(g.fen);
  info->set_format(g.format);
  out->set_moves_played(g.moves_played);
  for (const xq::Violation& v : g.violations) {
    v1::XiangqiViolation* p = out->add_violations();
    p->set_move_number(v.move_number);
    p->set_kind(KindToProto(v.kind));
    p->set_rule(RuleToProto(v.rule));
    if (v.kind != xq::ViolationKind::kResultMismatch)
      p->set_side(SideToProto(v.side));
    p->set_notation(v.notation);
    p->set_message(v.message);
  }
  for (const xq::Repetition& r : g.repetitions) {
    v1::XiangqiRepetition* p = out->add_repetitions();
    p->set_first_move(r.first_move);
    p->set_last_move(r.last_move);
    p->set_ruling(RulingToProto(r.verdict.ruling));
    p->set_loser(SideToProto(r.verdict.loser));
    p->set_chased_piece(r.verdict.chased_piece);
    p->set_description(r.verdict.description);
  }
  v1::XiangqiOutcome* o = out->mutable_outcome();
  o->set_winner(SideToProto(g.outcome.winner));
  o->set_reason(ReasonToProto(g.outcome.reason));
  o->set_decided_at_move(g.outcome.decided_at_move);
  o->set_summary(g.outcome.summary);
  out->set_final_fen(g.final_fen);
  out->set_failed(g.failed());
  out->set_needs_arbiter(g.needs_arbiter);
  out->set_line(g.line);
}

}  // namespace

absl::StatusOr<xiangqi::CheckOptions> XiangqiOptionsFromProto(
    const v1::CheckXiangqiRecordRequest& req) {
  if (req.record().empty())
    return absl::InvalidArgumentError(
        "record is empty: send the bytes of a PGN file");
  xq::CheckOptions options;
  switch (req.notation()) {
    case v1::XIANGQI_NOTATION_UNSPECIFIED:
      break;
    case v1::XIANGQI_NOTATION_ICCS:
      options.notation = xq::Notation::kIccs;
      break;
    case v1::XIANGQI_NOTATION_WXF:
      options.notation = xq::Notation::kWxf;
      break;
    case v1::XIANGQI_NOTATION_CHINESE:
      options.notation = xq::Notation::kChinese;
      break;
    default:
      return absl::InvalidArgumentError(
          "notation has a value this server does not know (" +
          std::to_string(req.notation()) + ")");
  }
  return options;
}

void XiangqiReportToProto(const xiangqi::FileReport& report,
                          v1::CheckXiangqiRecordResponse* out) {
  out->set_charset(report.charset);
  out->set_charset_note(report.charset_note);
  for (const xq::GameReport& g : report.games) GameToProto(g, out->add_games());
}

}  // namespace gorank::rules
