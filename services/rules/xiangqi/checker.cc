#include "services/rules/xiangqi/checker.h"

#include <utility>

#include "absl/status/status.h"

namespace gorank::rules::xiangqi {
namespace {

std::string Lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
  return s;
}

absl::StatusOr<std::optional<Notation>> FormatTag(const std::string& tag,
                                                  int line) {
  const std::string f = Lower(tag);
  if (f.empty()) return std::optional<Notation>();
  if (f == "iccs" || f == "coordinates")
    return std::optional<Notation>(Notation::kIccs);
  if (f == "wxf") return std::optional<Notation>(Notation::kWxf);
  if (f == "chinese" || f == "中文")
    return std::optional<Notation>(Notation::kChinese);
  return absl::InvalidArgumentError("game at line " + std::to_string(line) +
                                    ": [Format \"" + tag +
                                    "\"] is not ICCS, WXF or Chinese");
}

ViolationKind KindOf(Resolution::Status s) {
  switch (s) {
    case Resolution::Status::kUnreadable:
      return ViolationKind::kUnreadableMove;
    case Resolution::Status::kNoSuchPiece:
      return ViolationKind::kNoSuchPiece;
    case Resolution::Status::kAmbiguous:
      return ViolationKind::kAmbiguousMove;
    default:
      return ViolationKind::kIllegalMove;
  }
}

std::string MoveLabel(const WrittenMove& m, Side side) {
  return "move " + std::to_string(m.number) + " (" + SideName(side) + ") " +
         m.text;
}

std::string Wins(Side s) { return std::string(SideName(s)) + " wins"; }

const char* ResultWords(RecordedResult::Kind k) {
  switch (k) {
    case RecordedResult::Kind::kRedWins:
      return "red wins";
    case RecordedResult::Kind::kBlackWins:
      return "black wins";
    case RecordedResult::Kind::kDraw:
      return "a draw";
    default:
      return "no result";
  }
}

// Compares the recorded result with the board's verdict (winner unset: draw).
void CheckResult(const RecordedResult& recorded, std::optional<Side> winner,
                 const std::string& board, GameReport* report) {
  using K = RecordedResult::Kind;
  if (recorded.kind != K::kRedWins && recorded.kind != K::kBlackWins &&
      recorded.kind != K::kDraw)
    return;
  const K expected = !winner                 ? K::kDraw
                     : *winner == Side::kRed ? K::kRedWins
                                             : K::kBlackWins;
  if (recorded.kind == expected) return;
  Violation v;
  v.kind = ViolationKind::kResultMismatch;
  v.message = "the record says " + std::string(ResultWords(recorded.kind)) +
              " (\"" + recorded.text + "\"), but " + board;
  report->violations.push_back(std::move(v));
}

}  // namespace

const char* ViolationKindName(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::kUnreadableMove:
      return "unreadable move";
    case ViolationKind::kNoSuchPiece:
      return "no such piece";
    case ViolationKind::kAmbiguousMove:
      return "ambiguous move";
    case ViolationKind::kIllegalMove:
      return "illegal move";
    case ViolationKind::kAfterGameEnd:
      return "move after the end of the game";
    case ViolationKind::kResultMismatch:
      return "result mismatch";
  }
  return "?";
}

const char* EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kUnfinished:
      return "unfinished";
    case EndReason::kCheckmate:
      return "checkmate";
    case EndReason::kNoLegalMove:
      return "no legal move";
    case EndReason::kRepetition:
      return "repetition";
    case EndReason::kRecordedWin:
      return "recorded win";
    case EndReason::kRecordedDraw:
      return "recorded draw";
    case EndReason::kNeedsArbiter:
      return "needs an arbiter";
  }
  return "?";
}

absl::StatusOr<GameReport> CheckGame(const PgnGame& game,
                                     const CheckOptions& options) {
  GameReport report;
  report.line = game.line;
  report.red = game.red;
  report.black = game.black;
  report.event = game.event;
  report.date = game.date;
  report.result_text = game.result.text;
  report.fen = game.fen;
  report.format = game.format;
  Position pos = Position::Start();
  if (!game.fen.empty()) {
    absl::StatusOr<Position> p = Position::FromFen(game.fen);
    if (!p.ok())
      return absl::InvalidArgumentError(
          "game at line " + std::to_string(game.line) +
          ": [FEN]: " + std::string(p.status().message()));
    pos = *p;
  }
  std::optional<Notation> notation = options.notation;
  if (!notation) {
    absl::StatusOr<std::optional<Notation>> tag =
        FormatTag(game.format, game.line);
    if (!tag.ok()) return tag.status();
    notation = *tag;
  }

  std::vector<uint64_t> hashes{pos.hash()};
  // The position before each move and the move, for judging a cycle.
  std::vector<Position> before;
  std::vector<Move> played;
  size_t reversible_from = 0;  // no position before a capture can come back
  bool ended = false, stopped = false;
  Outcome& out = report.outcome;
  std::optional<Side> board_winner;
  std::string board_says;
  const auto end_by_no_move = [&](int at) {
    const Side loser = pos.side_to_move();
    ended = true;
    board_winner = Opponent(loser);
    out.winner = board_winner;
    out.reason =
        pos.InCheck() ? EndReason::kCheckmate : EndReason::kNoLegalMove;
    out.decided_at_move = at;
    board_says =
        std::string(SideName(loser)) +
        (pos.InCheck() ? " is checkmated" : " has no legal move (困毙)") +
        (at ? " after move " + std::to_string(at) : " in the start position");
    out.summary = Wins(Opponent(loser)) + ": " + board_says;
  };
  if (!pos.HasLegalMove()) end_by_no_move(0);

  for (const WrittenMove& m : game.moves) {
    const Side side = pos.side_to_move();
    if (ended) {
      Violation v;
      v.move_number = m.number;
      v.kind = ViolationKind::kAfterGameEnd;
      v.side = side;
      v.notation = m.text;
      v.message =
          MoveLabel(m, side) + ": the game had ended (" + out.summary + ")";
      report.violations.push_back(std::move(v));
      break;
    }
    const Notation n = notation ? *notation : DetectNotation(m.text);
    const Resolution r = ResolveMove(pos, m.text, n);
    if (r.status != Resolution::Status::kOk) {
      Violation v;
      v.move_number = m.number;
      v.kind = KindOf(r.status);
      v.rule = r.rule;
      v.side = side;
      v.notation = m.text;
      v.message =
          MoveLabel(m, side) + " (" + NotationName(n) + "): " + r.message;
      report.violations.push_back(std::move(v));
      stopped = true;
      break;
    }
    before.push_back(pos);
    played.push_back(r.move);
    if (pos.at(To(r.move)) != kEmpty) reversible_from = hashes.size();
    pos.MakeMove(r.move);
    hashes.push_back(pos.hash());
    ++report.moves_played;
    if (!pos.HasLegalMove()) {
      end_by_no_move(m.number);
      continue;
    }
    // The third occurrence of this position (same side to move).
    std::vector<size_t> seen;
    for (size_t i = reversible_from; i + 1 < hashes.size(); ++i)
      if (hashes[i] == pos.hash()) seen.push_back(i);
    if (seen.size() < 2) continue;
    const size_t first = seen[0];
    Repetition rep;
    rep.first_move = static_cast<int>(first) + 1;
    rep.last_move = m.number;
    std::vector<MoveEffect> cycle;
    for (size_t k = first; k < played.size(); ++k)
      cycle.push_back(AnalyzeMove(before[k], played[k]));
    rep.verdict = JudgeRepetition(cycle);
    ended = true;
    out.reason = rep.verdict.ruling == RepetitionRuling::kNeedsArbiter
                     ? EndReason::kNeedsArbiter
                     : EndReason::kRepetition;
    out.decided_at_move = m.number;
    board_winner.reset();
    if (rep.verdict.loser) board_winner = Opponent(*rep.verdict.loser);
    out.winner = board_winner;
    board_says = "moves " + std::to_string(rep.first_move) + "-" +
                 std::to_string(m.number) +
                 " repeat the position a third time: " +
                 RepetitionRulingName(rep.verdict.ruling) + ", " +
                 rep.verdict.description;
    out.summary = (rep.verdict.ruling == RepetitionRuling::kNeedsArbiter
                       ? std::string("needs an arbiter")
                   : board_winner ? Wins(*board_winner)
                                  : std::string("draw")) +
                  ": " + board_says;
    report.needs_arbiter =
        rep.verdict.ruling == RepetitionRuling::kNeedsArbiter;
    report.repetitions.push_back(std::move(rep));
  }
  report.final_fen = pos.ToFen();

  using K = RecordedResult::Kind;
  const K recorded = game.result.kind;
  if (stopped) {
    out = Outcome();
    out.summary = "replay stopped at move " +
                  std::to_string(report.violations.back().move_number);
  } else if (ended && out.reason != EndReason::kNeedsArbiter) {
    CheckResult(game.result, board_winner, board_says, &report);
  } else if (ended) {
    out.summary += std::string("; the record says ") + ResultWords(recorded);
  } else if (recorded == K::kRedWins || recorded == K::kBlackWins) {
    out.winner = recorded == K::kRedWins ? Side::kRed : Side::kBlack;
    out.reason = EndReason::kRecordedWin;
    out.summary = Wins(*out.winner) + " as recorded (\"" + game.result.text +
                  "\"; resignation or time, not on the board) after " +
                  std::to_string(report.moves_played) + " moves";
  } else if (recorded == K::kDraw) {
    out.reason = EndReason::kRecordedDraw;
    out.summary = "a draw as recorded after " +
                  std::to_string(report.moves_played) + " moves";
  } else {
    out.summary =
        "unfinished after " + std::to_string(report.moves_played) + " moves";
  }
  return report;
}

absl::StatusOr<FileReport> CheckRecord(std::string_view bytes,
                                       const CheckOptions& options) {
  absl::StatusOr<PgnFile> file = ReadPgn(bytes);
  if (!file.ok()) return file.status();
  FileReport out;
  out.charset = file->charset;
  out.charset_note = file->charset_note;
  for (const PgnGame& g : file->games) {
    absl::StatusOr<GameReport> r = CheckGame(g, options);
    if (!r.ok()) return r.status();
    out.games.push_back(std::move(*r));
  }
  return out;
}

}  // namespace gorank::rules::xiangqi
