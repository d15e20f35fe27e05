#include "services/rules/go/conclude.h"

#include <string>
#include <vector>

namespace gorank::rules::go {
namespace {

bool IsLegalityOnly(const DeclaredResult& re) {
  return re.kind == ResultKind::kWin &&
         (re.reason == WinReason::kResignation ||
          re.reason == WinReason::kTime || re.reason == WinReason::kForfeit);
}

void DecideEnd(GameReport& report) {
  if (report.end == GameEnd::kTwoPasses) return;
  const DeclaredResult& re = report.record.result;
  if (re.kind == ResultKind::kDraw) {
    report.end = GameEnd::kAgreement;
  } else if (re.kind == ResultKind::kWin) {
    switch (re.reason) {
      case WinReason::kResignation:
        report.end = GameEnd::kResignation;
        break;
      case WinReason::kTime:
        report.end = GameEnd::kTime;
        break;
      case WinReason::kForfeit:
        report.end = GameEnd::kForfeit;
        break;
      case WinReason::kScore:
      case WinReason::kUnspecified:
        report.end = GameEnd::kAgreement;
        break;
    }
  }
  if (report.end != GameEnd::kUnfinished) report.end_move = report.move_count;
}

absl::Status CollectDead(const Board& board, const CheckOptions& options,
                         GameReport& report) {
  std::vector<bool> taken(board.size() * board.size(), false);
  auto add = [&](Point p) {
    if (!taken[p.row * board.size() + p.col]) {
      taken[p.row * board.size() + p.col] = true;
      report.dead_stones.push_back(p);
    }
  };
  if (options.dead_stones) {
    for (Point p : *options.dead_stones) {
      if (!board.OnBoard(p)) {
        return absl::InvalidArgumentError(
            "dead stone (" + std::to_string(p.col) + ", " +
            std::to_string(p.row) + ") is off the " +
            std::to_string(board.size()) + "x" + std::to_string(board.size()) +
            " board");
      }
      for (Point s : board.ChainAt(p)) add(s);
    }
    report.dead_stones_source = "request";
    return absl::OkStatus();
  }
  const GameRecord& rec = report.record;
  for (Point p : rec.territory_black) {
    if (board.At(p) == Color::kWhite) add(p);
  }
  for (Point p : rec.territory_white) {
    if (board.At(p) == Color::kBlack) add(p);
  }
  if (!rec.territory_black.empty() || !rec.territory_white.empty()) {
    report.dead_stones_source = "record";
  }
  return absl::OkStatus();
}

ScoringSettings Settings(const Board& board, const CheckOptions& options,
                         GameReport& report) {
  const GameRecord& rec = report.record;
  ScoringSettings s;
  bool area = options.ruleset == Ruleset::kChinese;
  s.method = area ? ScoringMethod::kArea : ScoringMethod::kTerritory;
  if (options.komi_half_points) {
    s.komi_half_points = *options.komi_half_points;
  } else if (rec.handicap == 1) {
    s.komi_half_points = 0;
    if (rec.komi && rec.komi->half_points != 0) {
      report.notes.push_back("HA[1] (让先): no komi, KM[" + rec.komi_text +
                             "] not applied");
    }
  } else if (rec.komi) {
    s.komi_half_points = rec.komi->half_points;
  } else if (rec.handicap >= 2) {
    s.komi_half_points = 0;
  } else {
    s.komi_half_points = area ? 15 : 13;
    report.notes.push_back(area ? "no KM: komi 7.5 points (3 3/4 stones)"
                                : "no KM: komi 6.5 points");
  }
  if (area && rec.handicap >= 2) {
    s.handicap_half_points = 2 * rec.handicap;
    report.notes.push_back("HA[" + std::to_string(rec.handicap) +
                           "]: black returns " + std::to_string(rec.handicap) +
                           "/2 stones (" + std::to_string(rec.handicap) +
                           " points) to white");
  }
  s.black_warnings = report.black_warnings;
  s.white_warnings = report.white_warnings;
  s.black_captures = board.captures(Color::kBlack);
  s.white_captures = board.captures(Color::kWhite);
  return s;
}

void DecideOutcome(GameReport& report) {
  const DeclaredResult& re = report.record.result;
  Outcome& o = report.outcome;
  if (report.two_warning_loser != Color::kEmpty) {
    o = {OutcomeKind::kWin, Opponent(report.two_warning_loser),
         OutcomeBasis::kTwoWarnings};
  } else if (IsLegalityOnly(re)) {
    o = {OutcomeKind::kWin, re.winner, OutcomeBasis::kDeclared};
  } else if (report.cycle) {
    o.basis = OutcomeBasis::kCycle;
    o.kind = report.cycle->ruling == CycleRuling::kDraw ? OutcomeKind::kDraw
             : report.cycle->ruling == CycleRuling::kReplay
                 ? OutcomeKind::kReplay
                 : OutcomeKind::kNoResult;
  } else {
    int m = report.count.margin_half_points;
    o.basis = OutcomeBasis::kCount;
    o.kind = m == 0 ? OutcomeKind::kDraw : OutcomeKind::kWin;
    o.winner = m > 0 ? Color::kBlack : m < 0 ? Color::kWhite : Color::kEmpty;
  }
}

std::string OutcomeText(const GameReport& report) {
  const Outcome& o = report.outcome;
  switch (o.basis) {
    case OutcomeBasis::kTwoWarnings:
      return std::string(ColorLetter(report.two_warning_loser)) +
             " loses by two warnings (第24条第2款)";
    case OutcomeBasis::kCycle:
      return "the repetition cycle is ruled by the event (第20条第3款)";
    case OutcomeBasis::kDeclared:
      return "the declared result";
    case OutcomeBasis::kCount:
      break;
  }
  return "the count gives " + report.count.result + " (" +
         report.count.chinese + ")";
}

void CheckDeclared(GameReport& report) {
  const DeclaredResult& re = report.record.result;
  const Outcome& o = report.outcome;
  std::string re_text = "RE[" + re.text + "]";
  switch (re.kind) {
    case ResultKind::kAbsent:
    case ResultKind::kUnknown:
      report.result_check = ResultCheck::kNotDeclared;
      report.result_check_detail = "no declared result";
      return;
    case ResultKind::kUnparsed:
      report.result_check = ResultCheck::kNotDeclared;
      report.result_check_detail = re_text + " could not be read";
      return;
    case ResultKind::kVoid:
      if (o.basis == OutcomeBasis::kCycle && o.kind == OutcomeKind::kNoResult)
        break;
      report.result_check = ResultCheck::kNotCompared;
      report.result_check_detail =
          re_text + ": no result declared; legality only";
      return;
    case ResultKind::kDraw:
    case ResultKind::kWin:
      if (IsLegalityOnly(re)) {
        report.result_check = ResultCheck::kNotCompared;
        report.result_check_detail =
            re_text +
            ": decided without a count; only the moves' legality is checked";
        return;
      }
      break;
  }
  bool agrees;
  if (re.kind == ResultKind::kVoid) {
    agrees = true;
  } else if (o.kind == OutcomeKind::kWin) {
    agrees =
        re.kind == ResultKind::kWin && re.winner == o.winner &&
        (!re.has_margin || o.basis != OutcomeBasis::kCount ||
         re.margin_half_points == std::abs(report.count.margin_half_points));
  } else {
    agrees = o.kind == OutcomeKind::kDraw && re.kind == ResultKind::kDraw;
  }
  report.result_check =
      agrees ? ResultCheck::kAgrees : ResultCheck::kContradicted;
  report.result_check_detail = re_text +
                               (agrees ? " agrees with " : " contradicts ") +
                               OutcomeText(report);
}

}  // namespace

absl::Status Conclude(const Board& board, const CheckOptions& options,
                      GameReport& report) {
  DecideEnd(report);
  absl::Status dead = CollectDead(board, options, report);
  if (!dead.ok()) return dead;
  ScoringSettings settings = Settings(board, options, report);
  report.count = CountPosition(board, report.dead_stones, settings);
  DecideOutcome(report);
  CheckDeclared(report);
  return absl::OkStatus();
}

}  // namespace gorank::rules::go
