#include "services/rules/gomoku/checker.h"

#include <array>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::rules::gomoku {
namespace {

constexpr int kStep[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

const char* ColorName(Stone color) {
  return color == Stone::kBlack ? "black" : "white";
}

Winner WinnerOf(Stone color) {
  return color == Stone::kBlack ? Winner::kBlack : Winner::kWhite;
}

std::string Describe(const RecordedMove& move) {
  return "move " + std::to_string(move.number) + " (" + ColorName(move.color) +
         " " + (move.point ? move.point->ToString() : "pass") + ")";
}

// The longest run of `color` through `p` (which holds `color`), in line order.
std::vector<Point> LongestRun(const Board& board, Point p, Stone color) {
  std::vector<Point> best;
  for (const auto& step : kStep) {
    Point a = p;
    while (true) {
      const Point next{a.col - step[0], a.row - step[1]};
      if (!next.OnBoard() || board.At(next) != color) break;
      a = next;
    }
    std::vector<Point> run;
    for (Point q = a; q.OnBoard() && board.At(q) == color;
         q = Point{q.col + step[0], q.row + step[1]}) {
      run.push_back(q);
    }
    if (run.size() > best.size()) best = std::move(run);
  }
  return best;
}

std::string JoinPoints(const std::vector<Point>& points) {
  std::string out;
  for (const Point& p : points) out += (out.empty() ? "" : " ") + p.ToString();
  return out;
}

class Replay {
 public:
  Replay(const GameRecord& record, const CheckOptions& options)
      : record_(record), options_(options) {
    placed_by_.fill(0);
  }

  CheckReport Run() {
    for (const RecordedMove& move : record_.moves) Play(move);
    if (!ended_) ClaimFromRecord();
    if (ended_) {
      CompareWithRecord();
    } else {
      OutcomeFromRecord();
    }
    return std::move(report_);
  }

 private:
  bool formal() const { return options_.ruleset == Ruleset::kFormal; }
  Board& board() { return report_.final_board; }

  void AddViolation(int number, ViolationKind kind, std::string message) {
    report_.violations.push_back(Violation{number, kind, std::move(message)});
  }

  void End(Winner winner, EndReason reason, int at_move, std::string summary) {
    ended_ = true;
    report_.outcome.winner = winner;
    report_.outcome.reason = reason;
    report_.outcome.decided_at_move = at_move;
    report_.outcome.summary = std::move(summary);
  }

  void Play(const RecordedMove& move);
  void PlayStone(const RecordedMove& move, Point p);
  bool CheckColorAndPlace(const RecordedMove& move);
  void ClaimFromRecord();
  void OutcomeFromRecord();
  void CompareWithRecord();

  const GameRecord& record_;
  const CheckOptions options_;
  CheckReport report_;
  std::array<int, kNumPoints> placed_by_;  // move number of each stone
  Stone to_move_ = Stone::kBlack;
  bool ended_ = false;
  bool any_stone_ = false;
  int passes_in_row_ = 0;
  int stones_ = 0;
};

// Colour, end-of-game and occupancy checks; false when the move is not played.
bool Replay::CheckColorAndPlace(const RecordedMove& move) {
  if (ended_) {
    AddViolation(move.number, ViolationKind::kAfterGameEnd,
                 Describe(move) + " comes after the game ended at move " +
                     std::to_string(report_.outcome.decided_at_move) + " (" +
                     report_.outcome.summary + "); it is not played");
    return false;
  }
  if (move.color != to_move_) {
    AddViolation(move.number, ViolationKind::kWrongColor,
                 move.number == 1 ? "black moves first, but move 1 is white's"
                                  : Describe(move) + ": it is " +
                                        ColorName(to_move_) + "'s turn; " +
                                        ColorName(move.color) + " moves twice");
  }
  to_move_ = Opponent(move.color);
  return true;
}

void Replay::Play(const RecordedMove& move) {
  if (!CheckColorAndPlace(move)) return;
  if (!move.point) {
    ++report_.moves_played;
    if (++passes_in_row_ == 2) {
      End(Winner::kNone, EndReason::kDrawByPasses, move.number,
          "draw: both players passed (moves " +
              std::to_string(move.number - 1) + " and " +
              std::to_string(move.number) + ")");
    }
    return;
  }
  passes_in_row_ = 0;
  const Point p = *move.point;
  if (!any_stone_ && formal() && p != kCenter) {
    AddViolation(move.number, ViolationKind::kFirstMoveNotCenter,
                 Describe(move) +
                     ": in formal games the first stone goes on H8 "
                     "(天元), not " +
                     p.ToString());
  }
  if (!board().IsEmpty(p)) {
    AddViolation(move.number, ViolationKind::kOccupied,
                 Describe(move) + ": " + p.ToString() + " already holds the " +
                     StoneName(board().At(p)) + " stone of move " +
                     std::to_string(placed_by_[p.Index()]) +
                     "; the move is void");
    return;
  }
  PlayStone(move, p);
}

void Replay::PlayStone(const RecordedMove& move, Point p) {
  const bool check_forbidden = formal() && move.color == Stone::kBlack;
  MoveAnalysis analysis;
  if (check_forbidden) analysis = AnalyzeBlackMove(board(), p);
  board().Set(p, move.color);
  placed_by_[p.Index()] = move.number;
  any_stone_ = true;
  ++stones_;
  ++report_.moves_played;
  std::vector<Point> run = LongestRun(board(), p, move.color);
  const bool five = check_forbidden ? analysis.makes_five : run.size() >= 5;
  if (five) {
    if (check_forbidden) {  // black's five: the exact-five line, not an
                            // overline
      for (const LineShape& s : analysis.shapes) {
        if (s.kind == ShapeKind::kFive) run = s.stones;
      }
    }
    std::string summary = std::string(ColorName(move.color)) +
                          " wins by five at move " +
                          std::to_string(move.number) + ": " + JoinPoints(run);
    if (!analysis.fouls.empty()) {
      summary += " (the five takes precedence over the " +
                 std::string(FoulName(analysis.fouls.front())) + ")";
    }
    report_.outcome.five = run;
    End(WinnerOf(move.color), EndReason::kFive, move.number,
        std::move(summary));
  } else if (analysis.forbidden()) {
    const bool claim = options_.claim == ClaimPolicy::kImmediate;
    report_.forbidden_moves.push_back(
        ForbiddenMoveReport{move.number, analysis, claim});
    if (claim) {
      End(Winner::kWhite, EndReason::kForbiddenMoveClaimed, move.number,
          "white wins: black's move " + std::to_string(move.number) +
              " is forbidden (" + analysis.ToString() + ")");
    }
  } else if (stones_ == kNumPoints) {
    End(Winner::kNone, EndReason::kDrawFullBoard, move.number,
        "draw: the board is full with no five");
  }
}

// kAsRecorded: the record's last move is black's forbidden move and the
// recorded result gives white the win on it.
void Replay::ClaimFromRecord() {
  using Reason = RecordedResult::Reason;
  const RecordedResult& result = record_.result;
  if (report_.forbidden_moves.empty() || record_.moves.empty()) return;
  ForbiddenMoveReport& last = report_.forbidden_moves.back();
  if (last.move_number != record_.moves.back().number) return;
  if (result.kind != RecordedResult::Kind::kWhiteWins) return;
  if (result.reason == Reason::kResignation || result.reason == Reason::kTime)
    return;
  last.claimed = true;
  End(Winner::kWhite, EndReason::kForbiddenMoveClaimed, last.move_number,
      "white wins: black's move " + std::to_string(last.move_number) +
          " is forbidden and white claimed it (" + last.analysis.ToString() +
          ")");
}

void Replay::OutcomeFromRecord() {
  using Kind = RecordedResult::Kind;
  using Reason = RecordedResult::Reason;
  const RecordedResult& result = record_.result;
  Outcome& outcome = report_.outcome;
  const std::string recorded = " (recorded result " + result.text + ")";
  switch (result.kind) {
    case Kind::kAbsent:
    case Kind::kUnknown:
      outcome.summary =
          "unfinished: no five on the board and no result recorded";
      return;
    case Kind::kDraw:
      outcome.reason = EndReason::kDrawRecorded;
      outcome.summary = "draw" + recorded;
      return;
    case Kind::kVoid:
      outcome.reason = EndReason::kVoid;
      outcome.summary = "void" + recorded;
      return;
    case Kind::kBlackWins:
    case Kind::kWhiteWins:
      break;
  }
  outcome.winner =
      result.kind == Kind::kBlackWins ? Winner::kBlack : Winner::kWhite;
  const std::string who = outcome.winner == Winner::kBlack ? "black" : "white";
  switch (result.reason) {
    case Reason::kResignation:
      outcome.reason = EndReason::kResignation;
      outcome.summary = who + " wins by resignation" + recorded;
      return;
    case Reason::kTime:
      outcome.reason = EndReason::kTime;
      outcome.summary = who + " wins on time" + recorded;
      return;
    case Reason::kForfeit:
      outcome.reason = EndReason::kForfeit;
      outcome.summary = who + " wins by forfeit" + recorded;
      return;
    case Reason::kForbiddenMove:
      AddViolation(0, ViolationKind::kResultMismatch,
                   "the record says white won on a forbidden move" + recorded +
                       ", but the last move is not a forbidden black move");
      [[fallthrough]];
    case Reason::kUnspecified:
      outcome.reason = EndReason::kRecordedWin;
      outcome.summary = who + " wins" + recorded + "; the board shows no five";
      return;
  }
}

void Replay::CompareWithRecord() {
  using Kind = RecordedResult::Kind;
  const RecordedResult& result = record_.result;
  Winner recorded;
  switch (result.kind) {
    case Kind::kBlackWins:
      recorded = Winner::kBlack;
      break;
    case Kind::kWhiteWins:
      recorded = Winner::kWhite;
      break;
    case Kind::kDraw:
      recorded = Winner::kNone;
      break;
    default:
      return;  // nothing to compare
  }
  if (recorded == report_.outcome.winner) return;
  AddViolation(0, ViolationKind::kResultMismatch,
               "the record's result " + result.text +
                   " contradicts the board: " + report_.outcome.summary);
}

}  // namespace

const char* ViolationKindName(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kWrongColor:
      return "wrong colour";
    case ViolationKind::kFirstMoveNotCenter:
      return "first move not on H8";
    case ViolationKind::kOccupied:
      return "occupied point";
    case ViolationKind::kAfterGameEnd:
      return "move after the end of the game";
    case ViolationKind::kResultMismatch:
      return "result mismatch";
  }
  std::abort();
}

const char* EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kUnfinished:
      return "unfinished";
    case EndReason::kFive:
      return "five";
    case EndReason::kForbiddenMoveClaimed:
      return "forbidden move claimed";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kTime:
      return "time";
    case EndReason::kForfeit:
      return "forfeit";
    case EndReason::kRecordedWin:
      return "recorded win";
    case EndReason::kDrawFullBoard:
      return "draw by full board";
    case EndReason::kDrawByPasses:
      return "draw by passes";
    case EndReason::kDrawRecorded:
      return "recorded draw";
    case EndReason::kVoid:
      return "void";
  }
  std::abort();
}

absl::StatusOr<CheckReport> CheckRecord(const GameRecord& record,
                                        const CheckOptions& options) {
  for (const RecordedMove& move : record.moves) {
    if (move.color != Stone::kBlack && move.color != Stone::kWhite) {
      return absl::InvalidArgumentError(
          "move " + std::to_string(move.number) +
          " has no colour; expected black or white");
    }
    if (move.point && !move.point->OnBoard()) {
      return absl::InvalidArgumentError("move " + std::to_string(move.number) +
                                        " is off the 15x15 board");
    }
  }
  return Replay(record, options).Run();
}

absl::StatusOr<CheckReport> CheckSgf(const std::string& sgf,
                                     const CheckOptions& options) {
  GORANK_ASSIGN_OR_RETURN(GameRecord record, ParseSgfRecord(sgf));
  return CheckRecord(record, options);
}

absl::StatusOr<CheckReport> CheckMoveList(const std::string& moves,
                                          const CheckOptions& options) {
  GORANK_ASSIGN_OR_RETURN(GameRecord record, ParseMoveList(moves));
  return CheckRecord(record, options);
}

}  // namespace gorank::rules::gomoku
