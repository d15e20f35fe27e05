// The rules check of Go game records (SPEC section 7, Chinese rules 2002,
// chapters 1 and 3): replay a record's main line (or a chosen variation),
// report every violation with its move number, article and penalty, how the
// game ended, the final position, the count with komi, handicap compensation
// and warnings, and whether the declared result (RE) agrees.
//
// Replay rules (SPEC "Readings taken for the Go checker"):
// - A void move (suicide, immediate ko recapture, superko, occupied point) is
//   a forfeited turn: the board is unchanged and the opponent moves next.
//   A move by the side not on turn (double move) is void with a warning, and
//   the side on turn stays on turn; so is a pass out of turn. White moving
//   first in an even game (empty board, HA < 2) is void; black stays on turn.
// - Captures are made before the suicide test; multi-stone suicide is suicide.
// - An immediate ko recapture is always its own violation (void, forfeit,
//   warning - 第18条第3款), whatever the ko rule.
// - Ko rules: simple ko (only the immediate recapture), positional superko,
//   situational superko (default: a move may not give the opponent a position
//   they already faced), or "cycles reported": repetitions are legal and the
//   first one is reported as a cycle ruled by the event (no result, draw or
//   replay, 第20条第3款). Repetition is confirmed on the full board.
// - The game ends with two consecutive passes; later moves are void
//   violations. A void move between passes breaks the sequence.
// - HA[n], n >= 2: white moves first after the handicap stones; when the
//   record has no setup stones the first n black moves place them.
// - Counting: dead stones from the request, else from TB/TW of the last node,
//   else none. Chinese: area, komi (KM, else 7.5; HA[1]: none; HA[n]: KM, else
//   0, plus n points to white). Japanese/Korean: territory + prisoners, komi
//   KM else 6.5 (0 with handicap). A warning costs its side one stone (2
//   points); two warnings lose the game (第24条).
// - RE: a resignation, time or forfeit result is checked for legality only;
//   a score or draw is compared with the count exactly.
#ifndef GORANK_SERVICES_RULES_GO_CHECK_H_
#define GORANK_SERVICES_RULES_GO_CHECK_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "services/rules/go/game_info.h"
#include "services/rules/go/record.h"
#include "services/rules/go/scoring.h"
#include "services/rules/go/types.h"
#include "services/rules/sgf/sgf.h"

namespace gorank::rules::go {

enum class Ruleset { kChinese, kJapanese, kKorean };
enum class KoRule {
  kSimple,
  kPositionalSuperko,
  kSituationalSuperko,
  kCyclesReported
};
enum class CycleRuling { kNoResult, kDraw, kReplay };

struct CheckOptions {
  Ruleset ruleset = Ruleset::kChinese;
  KoRule ko_rule = KoRule::kSituationalSuperko;
  CycleRuling cycle_ruling = CycleRuling::kNoResult;
  std::optional<int> komi_half_points;  // overrides KM and the defaults
  // Dead stones: each point names its whole chain. Overrides TB/TW. Applies
  // to every game of a collection (meant for single-game requests).
  std::optional<std::vector<Point>> dead_stones;
  int black_warnings = 0;  // given by the referee, not in the record
  int white_warnings = 0;
  std::vector<int> variation;  // see sgf::GameTree::Line; empty: main line
  sgf::Limits limits;
};

enum class ViolationKind {
  kSuicide,      // 第5条, 第19条: void, turn forfeited
  kKoRecapture,  // 第20条第1款, 第18条第3款: void, turn forfeited, warning
  kSuperko,      // 第6条, 第20条: void, turn forfeited
  kOccupied,     // 第2条: void, turn forfeited
  kDoubleMove,  // 第17条第2款: void, warning
  kWhiteFirst,  // 第2条第3款: void
  kAfterEnd,    // 第7条, 第21条第3款: void
};

struct Violation {
  int move_number = 0;  // 1-based over the move nodes of the line
  Color color = Color::kBlack;
  bool pass = false;
  Point point;
  ViolationKind kind = ViolationKind::kSuicide;
  int repeats_move =
      -1;  // superko: move after which the position arose (0 = start)
  bool move_void = true;
  bool turn_forfeited = false;
  bool warning = false;
  std::string article;      // "第19条 禁着点"
  std::string description;  // an English sentence
};

enum class WarningSource { kViolation, kRecord, kRequest };

struct Warning {
  Color color = Color::kBlack;
  int move_number = 0;  // 0 for warnings given in the request
  WarningSource source = WarningSource::kViolation;
  std::string reason;
};

struct Cycle {
  int move_number = 0;   // the move that repeated a position
  int repeats_move = 0;  // the move after which it first arose
  CycleRuling ruling = CycleRuling::kNoResult;
};

enum class GameEnd {
  kUnfinished,
  kTwoPasses,
  kAgreement,
  kResignation,
  kTime,
  kForfeit
};

enum class OutcomeKind { kWin, kDraw, kNoResult, kReplay };
enum class OutcomeBasis { kCount, kTwoWarnings, kDeclared, kCycle };

struct Outcome {
  OutcomeKind kind = OutcomeKind::kDraw;
  Color winner = Color::kEmpty;
  OutcomeBasis basis = OutcomeBasis::kCount;
};

enum class ResultCheck {
  kNotDeclared,  // RE absent, "?", or unreadable
  kNotCompared,  // resignation / time / forfeit / void: legality only
  kAgrees,
  kContradicted,
};

struct GameReport {
  int game_index = 0;  // position in the collection, 0-based
  GameRecord record;   // game information as read (moves included)
  std::string charset;
  std::vector<std::string> notes;  // charset, komi and handicap readings
  int move_count = 0;  // move nodes on the line (passes, void moves included)
  std::vector<Violation> violations;
  std::vector<Warning> warnings;
  int black_warnings = 0;
  int white_warnings = 0;
  Color two_warning_loser = Color::kEmpty;  // kEmpty when nobody reached two
  std::optional<Cycle> cycle;
  GameEnd end = GameEnd::kUnfinished;
  int end_move =
      0;  // the move that ended the game (last move for RE-based ends)
  std::vector<std::string>
      final_position;  // rows top to bottom: '.', 'X' black, 'O' white
  std::vector<Point> dead_stones;  // removed before counting
  std::string dead_stones_source;  // "request", "record", ""
  Count count;
  Outcome outcome;
  ResultCheck result_check = ResultCheck::kNotDeclared;
  std::string result_check_detail;

  // A violation, or a declared result contradicted by the check.
  bool failed() const {
    return !violations.empty() || result_check == ResultCheck::kContradicted;
  }
};

// Names used in reports and tests: "suicide", "ko", "superko", "occupied",
// "double_move", "white_first", "after_end"; "unfinished", "two_passes",
// "agreement", "resignation", "time", "forfeit".
const char* ViolationName(ViolationKind kind);
const char* GameEndName(GameEnd end);

// Checks one game of a parsed collection. INVALID_ARGUMENT for a malformed
// record (see ReadGameRecord) or a variation path that does not fit the tree.
// Thread-safe.
absl::StatusOr<GameReport> CheckGame(const sgf::GameTree& game,
                                     const CheckOptions& options,
                                     int game_index = 0);

// Parses `bytes` (one SGF file, any number of games) and checks every game;
// one report per game, in order. Errors: those of sgf::ParseCollection and
// CheckGame (prefixed with the game's index when the collection has several).
// Thread-safe.
absl::StatusOr<std::vector<GameReport>> CheckRecords(
    std::string_view bytes, const CheckOptions& options);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_CHECK_H_
