#include "services/rules/rules_proto_convert.h"

#include <string>
#include <utility>
#include <vector>

#include "services/common/status_macros.h"

namespace gorank::rules {
namespace {

absl::Status UnknownEnum(const std::string& field, int value) {
  return absl::InvalidArgumentError("options." + field + ": unknown value " +
                                    std::to_string(value));
}

absl::StatusOr<go::Ruleset> RulesetFromProto(v1::Ruleset r) {
  switch (r) {
    case v1::RULESET_UNSPECIFIED:
    case v1::RULESET_CHINESE:
      return go::Ruleset::kChinese;
    case v1::RULESET_JAPANESE:
      return go::Ruleset::kJapanese;
    case v1::RULESET_KOREAN:
      return go::Ruleset::kKorean;
    default:
      return UnknownEnum("ruleset", r);
  }
}

absl::StatusOr<go::KoRule> KoRuleFromProto(v1::KoRule k) {
  switch (k) {
    case v1::KO_RULE_UNSPECIFIED:
    case v1::KO_RULE_SITUATIONAL_SUPERKO:
      return go::KoRule::kSituationalSuperko;
    case v1::KO_RULE_SIMPLE:
      return go::KoRule::kSimple;
    case v1::KO_RULE_POSITIONAL_SUPERKO:
      return go::KoRule::kPositionalSuperko;
    case v1::KO_RULE_CYCLES_REPORTED:
      return go::KoRule::kCyclesReported;
    default:
      return UnknownEnum("ko_rule", k);
  }
}

absl::StatusOr<go::CycleRuling> CycleRulingFromProto(v1::CycleRuling c) {
  switch (c) {
    case v1::CYCLE_RULING_UNSPECIFIED:
    case v1::CYCLE_RULING_NO_RESULT:
      return go::CycleRuling::kNoResult;
    case v1::CYCLE_RULING_DRAW:
      return go::CycleRuling::kDraw;
    case v1::CYCLE_RULING_REPLAY:
      return go::CycleRuling::kReplay;
    default:
      return UnknownEnum("cycle_ruling", c);
  }
}

v1::CycleRuling CycleRulingToProto(go::CycleRuling c) {
  switch (c) {
    case go::CycleRuling::kNoResult:
      return v1::CYCLE_RULING_NO_RESULT;
    case go::CycleRuling::kDraw:
      return v1::CYCLE_RULING_DRAW;
    case go::CycleRuling::kReplay:
      return v1::CYCLE_RULING_REPLAY;
  }
  return v1::CYCLE_RULING_UNSPECIFIED;
}

// A dead stone of the request: its `sgf` name when given, else col/row.
absl::StatusOr<go::Point> DeadStoneFromProto(const v1::BoardPoint& p,
                                             int index) {
  const std::string field =
      "options.dead_stones[" + std::to_string(index) + "]";
  if (!p.sgf().empty()) {
    const std::string& s = p.sgf();
    if (s.size() != 2 || s[0] < 'a' || s[0] > 'y' || s[1] < 'a' || s[1] > 'y') {
      return absl::InvalidArgumentError(
          field + ".sgf must be two letters a..y, got '" + s + "'");
    }
    return go::Point{s[0] - 'a', s[1] - 'a'};
  }
  if (p.col() < 0 || p.row() < 0 || p.col() >= go::kMaxBoardSize ||
      p.row() >= go::kMaxBoardSize) {
    return absl::InvalidArgumentError(
        field + ": col and row must be 0..24, got (" + std::to_string(p.col()) +
        ", " + std::to_string(p.row()) + ")");
  }
  return go::Point{p.col(), p.row()};
}

absl::Status WarningsFromProto(const v1::CheckOptions& in,
                               go::CheckOptions& out) {
  for (auto [field, value] :
       {std::pair{"black_warnings", in.black_warnings()},
        std::pair{"white_warnings", in.white_warnings()}}) {
    if (value < 0 || value > kMaxRequestWarnings) {
      return absl::InvalidArgumentError(std::string("options.") + field +
                                        " must be 0.." +
                                        std::to_string(kMaxRequestWarnings) +
                                        ", got " + std::to_string(value));
    }
  }
  out.black_warnings = in.black_warnings();
  out.white_warnings = in.white_warnings();
  return absl::OkStatus();
}

v1::StoneColor ColorToProto(go::Color c) {
  switch (c) {
    case go::Color::kBlack:
      return v1::STONE_COLOR_BLACK;
    case go::Color::kWhite:
      return v1::STONE_COLOR_WHITE;
    case go::Color::kEmpty:
      break;
  }
  return v1::STONE_COLOR_UNSPECIFIED;
}

void InfoToProto(const go::GameReport& r, v1::GameInfo* out) {
  const go::GameRecord& rec = r.record;
  out->set_board_size(rec.size);
  out->set_handicap(rec.handicap);
  out->set_komi_text(rec.komi_text);
  out->set_result_text(rec.result.text);
  out->set_black_player(rec.black_player);
  out->set_white_player(rec.white_player);
  out->set_black_rank(rec.black_rank);
  out->set_white_rank(rec.white_rank);
  out->set_event(rec.event);
  out->set_round(rec.round);
  out->set_date(rec.date);
  out->set_place(rec.place);
  out->set_rules(rec.rules);
  out->set_application(rec.application);
  out->set_charset(r.charset);
}

void ViolationToProto(const go::Violation& v, int board_size,
                      v1::Violation* out) {
  out->set_move_number(v.move_number);
  out->set_color(ColorToProto(v.color));
  out->set_pass(v.pass);
  if (!v.pass) PointToProto(v.point, board_size, out->mutable_point());
  switch (v.kind) {
    case go::ViolationKind::kSuicide:
      out->set_kind(v1::VIOLATION_KIND_SUICIDE);
      break;
    case go::ViolationKind::kKoRecapture:
      out->set_kind(v1::VIOLATION_KIND_KO_RECAPTURE);
      break;
    case go::ViolationKind::kSuperko:
      out->set_kind(v1::VIOLATION_KIND_SUPERKO);
      break;
    case go::ViolationKind::kOccupied:
      out->set_kind(v1::VIOLATION_KIND_OCCUPIED);
      break;
    case go::ViolationKind::kDoubleMove:
      out->set_kind(v1::VIOLATION_KIND_DOUBLE_MOVE);
      break;
    case go::ViolationKind::kWhiteFirst:
      out->set_kind(v1::VIOLATION_KIND_WHITE_FIRST);
      break;
    case go::ViolationKind::kAfterEnd:
      out->set_kind(v1::VIOLATION_KIND_AFTER_END);
      break;
  }
  out->set_repeats_move(v.repeats_move);
  out->set_move_void(v.move_void);
  out->set_turn_forfeited(v.turn_forfeited);
  out->set_warning(v.warning);
  out->set_article(v.article);
  out->set_description(v.description);
}

void WarningToProto(const go::Warning& w, v1::Warning* out) {
  out->set_color(ColorToProto(w.color));
  out->set_move_number(w.move_number);
  switch (w.source) {
    case go::WarningSource::kViolation:
      out->set_source(v1::WARNING_SOURCE_VIOLATION);
      break;
    case go::WarningSource::kRecord:
      out->set_source(v1::WARNING_SOURCE_RECORD);
      break;
    case go::WarningSource::kRequest:
      out->set_source(v1::WARNING_SOURCE_REQUEST);
      break;
  }
  out->set_reason(w.reason);
}

v1::GameEnd GameEndToProto(go::GameEnd e) {
  switch (e) {
    case go::GameEnd::kUnfinished:
      return v1::GAME_END_UNFINISHED;
    case go::GameEnd::kTwoPasses:
      return v1::GAME_END_TWO_PASSES;
    case go::GameEnd::kAgreement:
      return v1::GAME_END_AGREEMENT;
    case go::GameEnd::kResignation:
      return v1::GAME_END_RESIGNATION;
    case go::GameEnd::kTime:
      return v1::GAME_END_TIME;
    case go::GameEnd::kForfeit:
      return v1::GAME_END_FORFEIT;
  }
  return v1::GAME_END_UNSPECIFIED;
}

void CountToProto(const go::Count& c, v1::Count* out) {
  out->set_method(c.method == go::ScoringMethod::kArea
                      ? v1::SCORING_METHOD_AREA
                      : v1::SCORING_METHOD_TERRITORY);
  out->set_black_stones(c.black_stones);
  out->set_white_stones(c.white_stones);
  out->set_black_territory(c.black_territory);
  out->set_white_territory(c.white_territory);
  out->set_shared_points(c.shared_points);
  out->set_black_area(c.black_area);
  out->set_white_area(c.white_area);
  out->set_black_dead(c.black_dead);
  out->set_white_dead(c.white_dead);
  out->set_black_prisoners(c.black_prisoners);
  out->set_white_prisoners(c.white_prisoners);
  out->set_komi_half_points(c.komi_half_points);
  out->set_handicap_half_points(c.handicap_half_points);
  out->set_black_warning_half_points(c.black_warning_half_points);
  out->set_white_warning_half_points(c.white_warning_half_points);
  out->set_margin_half_points(c.margin_half_points);
  out->set_result(c.result);
  out->set_chinese(c.chinese);
}

void OutcomeToProto(const go::GameReport& r, v1::GameReport* out) {
  switch (r.outcome.kind) {
    case go::OutcomeKind::kWin:
      out->set_outcome(v1::OUTCOME_KIND_WIN);
      break;
    case go::OutcomeKind::kDraw:
      out->set_outcome(v1::OUTCOME_KIND_DRAW);
      break;
    case go::OutcomeKind::kNoResult:
      out->set_outcome(v1::OUTCOME_KIND_NO_RESULT);
      break;
    case go::OutcomeKind::kReplay:
      out->set_outcome(v1::OUTCOME_KIND_REPLAY);
      break;
  }
  out->set_winner(ColorToProto(r.outcome.winner));
  switch (r.outcome.basis) {
    case go::OutcomeBasis::kCount:
      out->set_outcome_basis(v1::OUTCOME_BASIS_COUNT);
      break;
    case go::OutcomeBasis::kTwoWarnings:
      out->set_outcome_basis(v1::OUTCOME_BASIS_TWO_WARNINGS);
      break;
    case go::OutcomeBasis::kDeclared:
      out->set_outcome_basis(v1::OUTCOME_BASIS_DECLARED);
      break;
    case go::OutcomeBasis::kCycle:
      out->set_outcome_basis(v1::OUTCOME_BASIS_CYCLE);
      break;
  }
  switch (r.result_check) {
    case go::ResultCheck::kNotDeclared:
      out->set_result_check(v1::RESULT_CHECK_NOT_DECLARED);
      break;
    case go::ResultCheck::kNotCompared:
      out->set_result_check(v1::RESULT_CHECK_NOT_COMPARED);
      break;
    case go::ResultCheck::kAgrees:
      out->set_result_check(v1::RESULT_CHECK_AGREES);
      break;
    case go::ResultCheck::kContradicted:
      out->set_result_check(v1::RESULT_CHECK_CONTRADICTED);
      break;
  }
  out->set_result_check_detail(r.result_check_detail);
}

}  // namespace

absl::StatusOr<go::CheckOptions> CheckOptionsFromProto(
    const v1::CheckOptions& in) {
  go::CheckOptions out;
  GORANK_ASSIGN_OR_RETURN(out.ruleset, RulesetFromProto(in.ruleset()));
  GORANK_ASSIGN_OR_RETURN(out.ko_rule, KoRuleFromProto(in.ko_rule()));
  GORANK_ASSIGN_OR_RETURN(out.cycle_ruling,
                          CycleRulingFromProto(in.cycle_ruling()));
  if (in.has_komi_half_points()) {
    const int komi = in.komi_half_points();
    if (komi < -kMaxKomiHalfPoints || komi > kMaxKomiHalfPoints) {
      return absl::InvalidArgumentError(
          "options.komi_half_points must be within +-" +
          std::to_string(kMaxKomiHalfPoints) +
          " (half points; 15 = 7.5 points), got " + std::to_string(komi));
    }
    out.komi_half_points = komi;
  }
  if (!in.dead_stones_given() && in.dead_stones_size() > 0) {
    return absl::InvalidArgumentError(
        "options.dead_stones given without options.dead_stones_given = true");
  }
  if (in.dead_stones_given()) {
    std::vector<go::Point> dead;
    dead.reserve(in.dead_stones_size());
    for (int i = 0; i < in.dead_stones_size(); ++i) {
      GORANK_ASSIGN_OR_RETURN(go::Point p,
                              DeadStoneFromProto(in.dead_stones(i), i));
      dead.push_back(p);
    }
    out.dead_stones = std::move(dead);
  }
  GORANK_RETURN_IF_ERROR(WarningsFromProto(in, out));
  for (int i = 0; i < in.variation_size(); ++i) {
    if (in.variation(i) < 0) {
      return absl::InvalidArgumentError(
          "options.variation[" + std::to_string(i) +
          "] must be >= 0 (0 = the main line at that fork), got " +
          std::to_string(in.variation(i)));
    }
    out.variation.push_back(in.variation(i));
  }
  return out;
}

void PointToProto(go::Point p, int board_size, v1::BoardPoint* out) {
  out->set_col(p.col);
  out->set_row(p.row);
  out->set_sgf(go::ToSgf(p));
  out->set_label(go::ToLabel(p, board_size));
}

void GameReportToProto(const go::GameReport& r, v1::GameReport* out) {
  const int size = r.record.size;
  out->set_game_index(r.game_index);
  InfoToProto(r, out->mutable_info());
  for (const std::string& note : r.notes) out->add_notes(note);
  out->set_move_count(r.move_count);
  for (const go::Violation& v : r.violations) {
    ViolationToProto(v, size, out->add_violations());
  }
  for (const go::Warning& w : r.warnings)
    WarningToProto(w, out->add_warnings());
  out->set_black_warnings(r.black_warnings);
  out->set_white_warnings(r.white_warnings);
  out->set_two_warning_loser(ColorToProto(r.two_warning_loser));
  if (r.cycle) {
    v1::Cycle* c = out->mutable_cycle();
    c->set_move_number(r.cycle->move_number);
    c->set_repeats_move(r.cycle->repeats_move);
    c->set_ruling(CycleRulingToProto(r.cycle->ruling));
  }
  out->set_end(GameEndToProto(r.end));
  out->set_end_move(r.end_move);
  for (const std::string& row : r.final_position) out->add_final_position(row);
  for (go::Point p : r.dead_stones)
    PointToProto(p, size, out->add_dead_stones());
  out->set_dead_stones_source(r.dead_stones_source);
  CountToProto(r.count, out->mutable_count());
  OutcomeToProto(r, out);
  out->set_failed(r.failed());
}

}  // namespace gorank::rules
