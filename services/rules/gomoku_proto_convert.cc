#include "services/rules/gomoku_proto_convert.h"

#include <string>
#include <utility>
#include <vector>

#include "services/common/status_macros.h"

namespace gorank::rules {
namespace {

namespace gm = gomoku;

std::string FieldError(const char* field, int value) {
  return std::string(field) + " has a value this server does not know (" +
         std::to_string(value) + ")";
}

v1::GomokuViolationKind KindToProto(gm::ViolationKind k) {
  switch (k) {
    case gm::ViolationKind::kWrongColor:
      return v1::GOMOKU_VIOLATION_KIND_WRONG_COLOR;
    case gm::ViolationKind::kFirstMoveNotCenter:
      return v1::GOMOKU_VIOLATION_KIND_FIRST_MOVE_NOT_CENTER;
    case gm::ViolationKind::kOccupied:
      return v1::GOMOKU_VIOLATION_KIND_OCCUPIED;
    case gm::ViolationKind::kAfterGameEnd:
      return v1::GOMOKU_VIOLATION_KIND_AFTER_GAME_END;
    case gm::ViolationKind::kResultMismatch:
      return v1::GOMOKU_VIOLATION_KIND_RESULT_MISMATCH;
  }
  return v1::GOMOKU_VIOLATION_KIND_UNSPECIFIED;
}

v1::GomokuFoul FoulToProto(gm::Foul f) {
  switch (f) {
    case gm::Foul::kDoubleThree:
      return v1::GOMOKU_FOUL_DOUBLE_THREE;
    case gm::Foul::kDoubleFour:
      return v1::GOMOKU_FOUL_DOUBLE_FOUR;
    case gm::Foul::kOverline:
      return v1::GOMOKU_FOUL_OVERLINE;
  }
  return v1::GOMOKU_FOUL_UNSPECIFIED;
}

v1::GomokuShapeKind ShapeToProto(gm::ShapeKind k) {
  switch (k) {
    case gm::ShapeKind::kFive:
      return v1::GOMOKU_SHAPE_KIND_FIVE;
    case gm::ShapeKind::kOverline:
      return v1::GOMOKU_SHAPE_KIND_OVERLINE;
    case gm::ShapeKind::kFour:
      return v1::GOMOKU_SHAPE_KIND_FOUR;
    case gm::ShapeKind::kLiveThree:
      return v1::GOMOKU_SHAPE_KIND_LIVE_THREE;
  }
  return v1::GOMOKU_SHAPE_KIND_UNSPECIFIED;
}

v1::GomokuDirection DirectionToProto(gm::Direction d) {
  switch (d) {
    case gm::Direction::kHorizontal:
      return v1::GOMOKU_DIRECTION_HORIZONTAL;
    case gm::Direction::kVertical:
      return v1::GOMOKU_DIRECTION_VERTICAL;
    case gm::Direction::kDiagonal:
      return v1::GOMOKU_DIRECTION_DIAGONAL;
    case gm::Direction::kAntiDiagonal:
      return v1::GOMOKU_DIRECTION_ANTI_DIAGONAL;
  }
  return v1::GOMOKU_DIRECTION_UNSPECIFIED;
}

v1::GomokuEndReason ReasonToProto(gm::EndReason r) {
  switch (r) {
    case gm::EndReason::kUnfinished:
      return v1::GOMOKU_END_REASON_UNFINISHED;
    case gm::EndReason::kFive:
      return v1::GOMOKU_END_REASON_FIVE;
    case gm::EndReason::kForbiddenMoveClaimed:
      return v1::GOMOKU_END_REASON_FORBIDDEN_MOVE_CLAIMED;
    case gm::EndReason::kResignation:
      return v1::GOMOKU_END_REASON_RESIGNATION;
    case gm::EndReason::kTime:
      return v1::GOMOKU_END_REASON_TIME;
    case gm::EndReason::kForfeit:
      return v1::GOMOKU_END_REASON_FORFEIT;
    case gm::EndReason::kRecordedWin:
      return v1::GOMOKU_END_REASON_RECORDED_WIN;
    case gm::EndReason::kDrawFullBoard:
      return v1::GOMOKU_END_REASON_DRAW_FULL_BOARD;
    case gm::EndReason::kDrawByPasses:
      return v1::GOMOKU_END_REASON_DRAW_BY_PASSES;
    case gm::EndReason::kDrawRecorded:
      return v1::GOMOKU_END_REASON_DRAW_RECORDED;
    case gm::EndReason::kVoid:
      return v1::GOMOKU_END_REASON_VOID;
  }
  return v1::GOMOKU_END_REASON_UNSPECIFIED;
}

v1::StoneColor WinnerToProto(gm::Winner w) {
  switch (w) {
    case gm::Winner::kBlack:
      return v1::STONE_COLOR_BLACK;
    case gm::Winner::kWhite:
      return v1::STONE_COLOR_WHITE;
    case gm::Winner::kNone:
      break;
  }
  return v1::STONE_COLOR_UNSPECIFIED;
}

template <typename Repeated>
void AddPoints(const std::vector<gm::Point>& points, Repeated* out) {
  for (const gm::Point& p : points) out->Add(p.ToString());
}

void ForbiddenToProto(const gm::ForbiddenMoveReport& f,
                      v1::GomokuForbiddenMove* out) {
  out->set_move_number(f.move_number);
  out->set_point(f.analysis.point.ToString());
  for (gm::Foul foul : f.analysis.fouls) out->add_fouls(FoulToProto(foul));
  for (const gm::LineShape& shape : f.analysis.shapes) {
    v1::GomokuLine* line = out->add_lines();
    line->set_kind(ShapeToProto(shape.kind));
    line->set_direction(DirectionToProto(shape.direction));
    AddPoints(shape.stones, line->mutable_stones());
    AddPoints(shape.points, line->mutable_points());
    line->set_description(shape.ToString());
  }
  out->set_claimed(f.claimed);
  out->set_description(f.analysis.ToString());
}

void InfoToProto(const gm::GameRecord& r, v1::GomokuGameInfo* out) {
  out->set_black_player(r.black_player);
  out->set_white_player(r.white_player);
  out->set_event(r.event);
  out->set_date(r.date);
  out->set_rules(r.rules);
  out->set_result_text(r.result.text);
  out->set_charset(r.charset);
  out->set_charset_note(r.charset_note);
}

}  // namespace

absl::StatusOr<gm::CheckOptions> GomokuOptionsFromProto(
    const v1::CheckGomokuRecordRequest& req) {
  gm::CheckOptions o;
  switch (req.ruleset()) {
    case v1::GOMOKU_RULESET_UNSPECIFIED:
    case v1::GOMOKU_RULESET_FORMAL:
      o.ruleset = gm::Ruleset::kFormal;
      break;
    case v1::GOMOKU_RULESET_FREESTYLE:
      o.ruleset = gm::Ruleset::kFreestyle;
      break;
    default:
      return absl::InvalidArgumentError(FieldError("ruleset", req.ruleset()));
  }
  switch (req.claim_policy()) {
    case v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED:
    case v1::GOMOKU_CLAIM_POLICY_AS_RECORDED:
      o.claim = gm::ClaimPolicy::kAsRecorded;
      break;
    case v1::GOMOKU_CLAIM_POLICY_IMMEDIATE:
      o.claim = gm::ClaimPolicy::kImmediate;
      break;
    default:
      return absl::InvalidArgumentError(
          FieldError("claim_policy", req.claim_policy()));
  }
  return o;
}

v1::GomokuRecordFormat DetectGomokuFormat(const std::string& record) {
  size_t i = record.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  i = record.find_first_not_of(" \t\r\n\f\v", i);
  return i != std::string::npos && record[i] == '('
             ? v1::GOMOKU_RECORD_FORMAT_SGF
             : v1::GOMOKU_RECORD_FORMAT_MOVE_LIST;
}

absl::StatusOr<ParsedGomokuRecord> GomokuRecordFromProto(
    const v1::CheckGomokuRecordRequest& req) {
  const std::string& text = req.record();
  if (text.size() > kMaxGomokuRecordBytes) {
    return absl::ResourceExhaustedError(
        "record of " + std::to_string(text.size()) + " bytes is over the " +
        std::to_string(kMaxGomokuRecordBytes) + "-byte limit");
  }
  if (text.find_first_not_of(" \t\r\n\f\v") == std::string::npos) {
    return absl::InvalidArgumentError(
        "record is empty: send an SGF file (GM[4]) or a move list such as "
        "\"H8 I9 H9\"");
  }
  ParsedGomokuRecord out;
  out.format = req.format();
  if (out.format == v1::GOMOKU_RECORD_FORMAT_UNSPECIFIED)
    out.format = DetectGomokuFormat(text);
  switch (out.format) {
    case v1::GOMOKU_RECORD_FORMAT_SGF: {
      GORANK_ASSIGN_OR_RETURN(out.record, gm::ParseSgfRecord(text));
      break;
    }
    case v1::GOMOKU_RECORD_FORMAT_MOVE_LIST: {
      GORANK_ASSIGN_OR_RETURN(out.record, gm::ParseMoveList(text));
      break;
    }
    default:
      return absl::InvalidArgumentError(FieldError("format", req.format()));
  }
  return out;
}

void GomokuReportToProto(const ParsedGomokuRecord& parsed,
                         const gm::CheckReport& report,
                         v1::CheckGomokuRecordResponse* out) {
  out->set_format(parsed.format);
  InfoToProto(parsed.record, out->mutable_info());
  out->set_moves_played(report.moves_played);
  for (const gm::Violation& v : report.violations) {
    v1::GomokuViolation* pv = out->add_violations();
    pv->set_move_number(v.move_number);
    pv->set_kind(KindToProto(v.kind));
    pv->set_message(v.message);
  }
  for (const gm::ForbiddenMoveReport& f : report.forbidden_moves)
    ForbiddenToProto(f, out->add_forbidden_moves());
  v1::GomokuOutcome* o = out->mutable_outcome();
  o->set_winner(WinnerToProto(report.outcome.winner));
  o->set_reason(ReasonToProto(report.outcome.reason));
  o->set_decided_at_move(report.outcome.decided_at_move);
  AddPoints(report.outcome.five, o->mutable_five());
  o->set_summary(report.outcome.summary);
  const std::string diagram = report.final_board.ToDiagram();
  for (size_t start = 0; start < diagram.size();) {
    const size_t end = diagram.find('\n', start);
    out->add_final_position(diagram.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  out->set_failed(!report.ok());
}

}  // namespace gorank::rules
