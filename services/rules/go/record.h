// A Go game record read from one line (root to leaf) of an SGF game tree:
// game information, the starting position, and the steps of the line (moves,
// setup changes, warnings), with every point already checked against the
// board. Interpretation only; legality is the checker's job.
//
// Properties read: GM FF CA SZ KM HA RE RU DT PB PW BR WR EV RO PC AP PL,
// AB AW AE (setup, compressed `aa:cc` lists accepted), B W (moves; `B[]`,
// and `B[tt]` on boards up to 19x19, are passes), TB TW (territory markup of
// the last node: stones of the other colour on marked points are dead), and
// this project's private WARNB / WARNW: each value is one warning given by
// the referee to black / white at that node (the value is the reason, may be
// empty).
#ifndef GORANK_SERVICES_RULES_GO_RECORD_H_
#define GORANK_SERVICES_RULES_GO_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "services/rules/go/game_info.h"
#include "services/rules/go/types.h"
#include "services/rules/sgf/sgf.h"

namespace gorank::rules::go {

using Setup = std::vector<std::pair<Point, Color>>;

struct RecordMove {
  Color color = Color::kBlack;
  bool pass = false;
  Point point;
  uint32_t offset = 0;  // byte offset of the value, for messages
};

struct RecordStep {
  Setup setup;  // AB/AW/AE in a node after the root
  std::optional<RecordMove> move;
  std::vector<std::string> black_warnings;  // WARNB values
  std::vector<std::string> white_warnings;  // WARNW values
};

struct GameRecord {
  int size = 19;
  int handicap = 0;
  std::optional<Komi> komi;  // absent when KM is missing or empty
  std::string komi_text;     // KM as written
  DeclaredResult result;
  std::string black_player, white_player, black_rank, white_rank;
  std::string event, round, date, place, rules, application;
  std::optional<Color> player_to_move;  // PL of the root
  Setup initial_setup;                  // AB/AW/AE of the root
  std::vector<RecordStep> steps;  // root (when it has a move) and later nodes
  std::vector<Point> territory_black;  // TB of the last node
  std::vector<Point> territory_white;  // TW of the last node
  std::vector<std::string> notes;      // reinterpretations (komi scale, ...)
};

// Reads the nodes `line` (from GameTree::Line) of `game`.
// INVALID_ARGUMENT, naming the byte offset: GM other than 1; SZ not a number,
// non-square (`SZ[19:13]`), or outside 2..25; HA not a whole number 0..361;
// KM unreadable (see ReadKomi); a node with two moves (B and W); a point that
// is malformed or off the board (a move off the board is a malformed record);
// PL other than B/W (1/2 accepted, as some FF[3] writers use).
// Thread-safe.
absl::StatusOr<GameRecord> ReadGameRecord(const sgf::GameTree& game,
                                          const std::vector<int>& line);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_RECORD_H_
