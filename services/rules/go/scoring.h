// Counting a finished position: area counting (数子法, Chinese rules) and
// territory counting (Japanese/Korean rules), with komi, handicap
// compensation and warning penalties, and the result written both as SGF
// points ("B+1.5") and in the Chinese stone form ("黑胜3/4子").
//
// All arithmetic is exact in half points: 1 stone = 2 points = 4 half
// points, komi 7.5 points = 15 half points = 3 3/4 stones.
#ifndef GORANK_SERVICES_RULES_GO_SCORING_H_
#define GORANK_SERVICES_RULES_GO_SCORING_H_

#include <string>
#include <vector>

#include "services/rules/go/board.h"
#include "services/rules/go/types.h"

namespace gorank::rules::go {

enum class ScoringMethod { kArea, kTerritory };

struct ScoringSettings {
  ScoringMethod method = ScoringMethod::kArea;
  int komi_half_points = 15;     // given to white; may be negative
  int handicap_half_points = 0;  // given to white (area: 2 x n points)
  int black_warnings = 0;        // each costs one stone (2 points)
  int white_warnings = 0;
  int black_captures = 0;  // prisoners taken during play (territory)
  int white_captures = 0;
};

struct Count {
  ScoringMethod method = ScoringMethod::kArea;
  int black_stones = 0;  // live stones left on the board
  int white_stones = 0;
  int black_territory = 0;  // empty points bordered by black only
  int white_territory = 0;
  int shared_points =
      0;               // empty points bordered by both (dame, seki liberties)
  int black_area = 0;  // stones + territory (shared points not included)
  int white_area = 0;
  int black_dead = 0;  // black stones removed as dead before counting
  int white_dead = 0;
  int black_prisoners =
      0;  // territory counting: stones black took (captures + dead white)
  int white_prisoners = 0;
  int komi_half_points = 0;
  int handicap_half_points = 0;
  int black_warning_half_points = 0;  // penalties taken from black
  int white_warning_half_points = 0;
  // Black's total minus white's total after every adjustment; > 0 black wins.
  int margin_half_points = 0;
  std::string result;   // SGF form: "B+1.5", "W+1", "0"
  std::string chinese;  // "黑胜3/4子", "白胜1又1/4子", "和棋"
};

// Counts `board` with the stones at `dead` removed first (every listed point
// that holds a stone is removed; empty points are ignored). Empty regions are
// flood-filled: bordered by one colour they are that colour's territory,
// bordered by both they are shared (area: half to each; territory: nobody's).
// Seki eyes count as territory in both methods.
// REQUIRES: every point in `dead` is on the board. Thread-safe.
Count CountPosition(const Board& board, const std::vector<Point>& dead,
                    const ScoringSettings& settings);

// "B+1.5", "W+1", "0" for a margin in half points.
std::string FormatPoints(int margin_half_points);
// "黑胜3/4子", "白胜1又1/4子", "黑胜2子", "和棋" (a point margin m is m/2
// stones, written in quarters).
std::string FormatChineseStones(int margin_half_points);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_SCORING_H_
