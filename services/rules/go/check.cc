#include "services/rules/go/check.h"

#include <utility>

#include "services/common/status_macros.h"
#include "services/rules/go/board.h"
#include "services/rules/go/conclude.h"
#include "services/rules/go/position_history.h"

namespace gorank::rules::go {
namespace {

// Side-to-move key for situational superko (any fixed odd constant).
constexpr uint64_t kWhiteToMoveKey = 0x5BD1E9955BD1E995ULL;

struct Rule {
  const char* article;
  bool turn_forfeited;
  bool warning;
};

Rule RuleOf(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kSuicide:
      return {"第5条 禁着点、第19条", true, false};
    case ViolationKind::kKoRecapture:
      return {"第20条第1款 禁止单劫立即回提、第18条第3款", true, true};
    case ViolationKind::kSuperko:
      return {"第6条 禁止全局同形、第20条", true, false};
    case ViolationKind::kOccupied:
      return {"第2条第4款 棋子下定后不再移动", true, false};
    case ViolationKind::kDoubleMove:
      return {"第17条第2款 连下两着", false, true};
    case ViolationKind::kWhiteFirst:
      return {"第2条第3款 黑先白后", false, false};
    case ViolationKind::kAfterEnd:
      return {"第7条 终局、第21条第3款", false, false};
  }
  return {"", false, false};
}

std::string Describe(ViolationKind kind, int repeats, int end_move) {
  switch (kind) {
    case ViolationKind::kSuicide:
      return "suicide: the stone's chain would have no liberty and it captures "
             "nothing";
    case ViolationKind::kKoRecapture:
      return "immediate ko recapture without a ko threat in between";
    case ViolationKind::kSuperko:
      return "repeats the whole-board position after move " +
             std::to_string(repeats) + " (superko)";
    case ViolationKind::kOccupied:
      return "the point is already occupied";
    case ViolationKind::kDoubleMove:
      return "second move in a row by the same side";
    case ViolationKind::kWhiteFirst:
      return "white moved first in an even game";
    case ViolationKind::kAfterEnd:
      return "move after the game ended at move " + std::to_string(end_move);
  }
  return "";
}

// Replays one record and fills the replay part of a report.
class Replay {
 public:
  Replay(const CheckOptions& options, GameReport& report)
      : options_(options),
        report_(report),
        record_(report.record),
        board_(record_.size) {}

  void Run() {
    board_.Setup(record_.initial_setup);
    empty_start_ = board_.hash() == 0;
    to_move_ = record_.player_to_move.value_or(
        record_.handicap >= 2 && !empty_start_ ? Color::kWhite : Color::kBlack);
    if (record_.handicap >= 2 && empty_start_ && !record_.player_to_move) {
      placements_left_ = record_.handicap;
    }
    use_history_ = options_.ko_rule != KoRule::kSimple;
    situational_ = options_.ko_rule != KoRule::kPositionalSuperko;
    if (use_history_) {
      // Positions: the start, one per step, one per void or pass.
      history_.Reset(board_.cell_count(),
                     2 * static_cast<int>(record_.steps.size()) + 2);
      scratch_.resize(board_.cell_count());
      Remember();
    }
    for (const RecordStep& step : record_.steps) {
      if (!step.setup.empty()) {
        board_.Setup(step.setup);
        if (use_history_) Remember();
      }
      int warn_move = report_.move_count + (step.move ? 1 : 0);
      for (const std::string& reason : step.black_warnings) {
        AddWarning(Color::kBlack, warn_move, WarningSource::kRecord, reason);
      }
      for (const std::string& reason : step.white_warnings) {
        AddWarning(Color::kWhite, warn_move, WarningSource::kRecord, reason);
      }
      if (step.move) HandleMove(*step.move);
    }
  }

  void AddWarning(Color color, int move, WarningSource source,
                  std::string reason) {
    report_.warnings.push_back(Warning{color, move, source, std::move(reason)});
    int& count = color == Color::kBlack ? report_.black_warnings
                                        : report_.white_warnings;
    if (++count == 2 && report_.two_warning_loser == Color::kEmpty) {
      report_.two_warning_loser = color;
    }
  }

  const Board& board() const { return board_; }
  bool ended() const { return ended_; }

 private:
  uint64_t Key(uint64_t hash, Color to_move) const {
    return situational_ && to_move == Color::kWhite ? hash ^ kWhiteToMoveKey
                                                    : hash;
  }
  void Remember() {
    history_.Add(Key(board_.hash(), to_move_), board_.cells(),
                 report_.move_count);
  }

  void Report(const RecordMove& m, ViolationKind kind, int repeats = -1) {
    Rule rule = RuleOf(kind);
    Violation v;
    v.move_number = report_.move_count;
    v.color = m.color;
    v.pass = m.pass;
    v.point = m.point;
    v.kind = kind;
    v.repeats_move = repeats;
    v.turn_forfeited = rule.turn_forfeited;
    v.warning = rule.warning;
    v.article = rule.article;
    v.description = Describe(kind, repeats, report_.end_move);
    report_.violations.push_back(std::move(v));
    if (rule.warning) {
      AddWarning(m.color, report_.move_count, WarningSource::kViolation,
                 ViolationName(kind));
    }
  }

  // A void move: board unchanged; after a forfeited turn the opponent of the
  // mover is on turn, otherwise the side on turn stays.
  void Void(const RecordMove& m, ViolationKind kind, int repeats = -1) {
    Report(m, kind, repeats);
    consecutive_passes_ = 0;
    if (RuleOf(kind).turn_forfeited) {
      to_move_ = Opponent(m.color);
      if (use_history_ && situational_) Remember();
    }
  }

  void HandleMove(const RecordMove& m) {
    ++report_.move_count;
    if (ended_) return Report(m, ViolationKind::kAfterEnd);
    bool first = first_move_;
    first_move_ = false;
    if (first && empty_start_ && record_.handicap < 2 &&
        m.color == Color::kWhite) {
      to_move_ = Color::kBlack;
      return Report(m, ViolationKind::kWhiteFirst);
    }
    if (placements_left_ > 0 && (m.color == Color::kWhite || m.pass)) {
      placements_left_ = 0;  // HA[n] without the stones: white simply starts
      to_move_ = Color::kWhite;
    }
    if (m.color != to_move_) return Void(m, ViolationKind::kDoubleMove);
    if (m.pass) return Pass();
    switch (board_.Check(m.color, m.point)) {
      case Board::PlayResult::kOccupied:
        return Void(m, ViolationKind::kOccupied);
      case Board::PlayResult::kKoRecapture:
        return Void(m, ViolationKind::kKoRecapture);
      case Board::PlayResult::kSuicide:
        return Void(m, ViolationKind::kSuicide);
      case Board::PlayResult::kOk:
        break;
    }
    Color next = Opponent(m.color);
    if (placements_left_ > 0 && --placements_left_ > 0) next = Color::kBlack;
    if (use_history_) {
      uint64_t key = Key(board_.HashAfter(m.color, m.point), next);
      if (history_.ContainsKey(key)) {
        board_.CellsAfter(m.color, m.point, scratch_.data());
        int repeats = history_.Find(key, scratch_.data());
        if (repeats >= 0 && options_.ko_rule != KoRule::kCyclesReported) {
          return Void(m, ViolationKind::kSuperko, repeats);
        }
        if (repeats >= 0 && !report_.cycle) {
          report_.cycle =
              Cycle{report_.move_count, repeats, options_.cycle_ruling};
        }
      }
    }
    board_.Play(m.color, m.point);
    to_move_ = next;
    consecutive_passes_ = 0;
    if (use_history_) Remember();
  }

  void Pass() {
    board_.Pass();
    to_move_ = Opponent(to_move_);
    if (use_history_ && situational_) Remember();
    if (++consecutive_passes_ >= 2) {
      ended_ = true;
      report_.end = GameEnd::kTwoPasses;
      report_.end_move = report_.move_count;
    }
  }

  const CheckOptions& options_;
  GameReport& report_;
  const GameRecord& record_;
  Board board_;
  PositionHistory history_;
  std::vector<uint8_t> scratch_;
  Color to_move_ = Color::kBlack;
  bool empty_start_ = true;
  bool first_move_ = true;
  bool use_history_ = false;
  bool situational_ = true;
  bool ended_ = false;
  int placements_left_ = 0;
  int consecutive_passes_ = 0;
};

std::vector<std::string> Rows(const Board& board) {
  std::vector<std::string> rows(board.size(), std::string(board.size(), '.'));
  for (int row = 0; row < board.size(); ++row) {
    for (int col = 0; col < board.size(); ++col) {
      Color c = board.At(Point{col, row});
      if (c != Color::kEmpty) rows[row][col] = c == Color::kBlack ? 'X' : 'O';
    }
  }
  return rows;
}

}  // namespace

const char* ViolationName(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kSuicide:
      return "suicide";
    case ViolationKind::kKoRecapture:
      return "ko";
    case ViolationKind::kSuperko:
      return "superko";
    case ViolationKind::kOccupied:
      return "occupied";
    case ViolationKind::kDoubleMove:
      return "double_move";
    case ViolationKind::kWhiteFirst:
      return "white_first";
    case ViolationKind::kAfterEnd:
      return "after_end";
  }
  return "";
}

const char* GameEndName(GameEnd end) {
  switch (end) {
    case GameEnd::kUnfinished:
      return "unfinished";
    case GameEnd::kTwoPasses:
      return "two_passes";
    case GameEnd::kAgreement:
      return "agreement";
    case GameEnd::kResignation:
      return "resignation";
    case GameEnd::kTime:
      return "time";
    case GameEnd::kForfeit:
      return "forfeit";
  }
  return "";
}

absl::StatusOr<GameReport> CheckGame(const sgf::GameTree& game,
                                     const CheckOptions& options,
                                     int game_index) {
  GameReport report;
  report.game_index = game_index;
  GORANK_ASSIGN_OR_RETURN(std::vector<int> line, game.Line(options.variation));
  GORANK_ASSIGN_OR_RETURN(report.record, ReadGameRecord(game, line));
  report.notes = report.record.notes;
  Replay replay(options, report);
  for (int i = 0; i < options.black_warnings; ++i) {
    replay.AddWarning(Color::kBlack, 0, WarningSource::kRequest,
                      "given in the request");
  }
  for (int i = 0; i < options.white_warnings; ++i) {
    replay.AddWarning(Color::kWhite, 0, WarningSource::kRequest,
                      "given in the request");
  }
  replay.Run();
  report.final_position = Rows(replay.board());
  GORANK_RETURN_IF_ERROR(Conclude(replay.board(), options, report));
  return report;
}

absl::StatusOr<std::vector<GameReport>> CheckRecords(
    std::string_view bytes, const CheckOptions& options) {
  GORANK_ASSIGN_OR_RETURN(sgf::Collection collection,
                          sgf::ParseCollection(bytes, options.limits));
  std::vector<GameReport> reports;
  reports.reserve(collection.games.size());
  for (size_t i = 0; i < collection.games.size(); ++i) {
    absl::StatusOr<GameReport> report =
        CheckGame(collection.games[i], options, static_cast<int>(i));
    if (!report.ok()) {
      if (collection.games.size() == 1) return report.status();
      return absl::Status(report.status().code(),
                          "game " + std::to_string(i) + ": " +
                              std::string(report.status().message()));
    }
    report->charset = collection.charset;
    if (!collection.charset_note.empty()) {
      report->notes.insert(report->notes.begin(), collection.charset_note);
    }
    reports.push_back(*std::move(report));
  }
  return reports;
}

}  // namespace gorank::rules::go
