// Black's forbidden moves (禁手) in formal Gomoku (SPEC section 7): a black
// move is forbidden when it makes a double three (三三: two or more live
// threes), a double four (四四: two or more fours, live or not, on one line or
// across lines) or an overline (长连: six or more in a row) - unless the same
// move makes exactly five, which wins. White has no forbidden moves.
//
// Definitions used (all for black, all containing the move itself):
//   five         exactly five black stones in a row.
//   four         stones that one more black stone turns into a five; the
//                points that do so are the four's "five points". A straight
//                (live) four has two; fours with different stone sets count
//                separately, so `X.XXX.X` made by the middle stone is 4-4.
//   live three   stones that one more black stone turns into a straight four,
//                where that stone is itself not a forbidden point (checked in
//                the position after the move). This is recursive; recursion
//                stops at kMaxForbiddenDepth nested checks, beyond which a
//                point is taken as not forbidden (no real game comes close).
// A line that holds a four through the move is not also counted as a three.
//
// All functions are pure and thread-safe (they copy the board they are given).
#ifndef GORANK_SERVICES_RULES_GOMOKU_FORBIDDEN_H_
#define GORANK_SERVICES_RULES_GOMOKU_FORBIDDEN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "services/rules/gomoku/board.h"

namespace gorank::rules::gomoku {

inline constexpr int kMaxForbiddenDepth = 8;

// The four lines through a point.
enum class Direction : uint8_t {
  kHorizontal = 0,    // along a row, A towards O
  kVertical = 1,      // along a column, 1 towards 15
  kDiagonal = 2,      // A1 towards O15
  kAntiDiagonal = 3,  // A15 towards O1
};
inline constexpr Direction kAllDirections[] = {
    Direction::kHorizontal, Direction::kVertical, Direction::kDiagonal,
    Direction::kAntiDiagonal};
// "horizontal", "vertical", "diagonal (A1-O15)", "anti-diagonal (A15-O1)".
const char* DirectionName(Direction direction);

enum class ShapeKind : uint8_t { kFive, kOverline, kFour, kLiveThree };
// "five", "overline", "four", "live three".
const char* ShapeKindName(ShapeKind kind);

// One shape a black move makes on one line.
struct LineShape {
  ShapeKind kind = ShapeKind::kFour;
  Direction direction = Direction::kHorizontal;
  // The black stones of the shape, the move included, in line order.
  std::vector<Point> stones;
  // kFour: the point(s) that make it five (two for a straight four).
  // kLiveThree: the point(s) that make it a straight four and are not
  // themselves forbidden. Empty for kFive and kOverline.
  std::vector<Point> points;

  // e.g. "live three, horizontal: stones G8 H8 I8; straight four at F8 J8".
  std::string ToString() const;
  friend bool operator==(const LineShape&, const LineShape&) = default;
};

enum class Foul : uint8_t { kDoubleThree, kDoubleFour, kOverline };
// "double three (三三)", "double four (四四)", "overline (长连)".
const char* FoulName(Foul foul);

// What one black move makes.
struct MoveAnalysis {
  Point point;
  // The move makes exactly five: black wins, any foul below is overridden.
  bool makes_five = false;
  // Forbidden patterns the move makes, in the order overline, double four,
  // double three; each present at most once.
  std::vector<Foul> fouls;
  // Every five, overline, four and live three through the move.
  std::vector<LineShape> shapes;

  bool forbidden() const { return !makes_five && !fouls.empty(); }
  // One line for reports, e.g. "H8 is forbidden: double three (三三); live
  // three, horizontal: ...; live three, vertical: ...".
  std::string ToString() const;
};

// Analyses a black stone played at `p` on `board`. Costs a few microseconds
// (more when nested threes need the recursive check).
// REQUIRES: p.OnBoard() and board.IsEmpty(p).
MoveAnalysis AnalyzeBlackMove(const Board& board, Point p);

// Same verdict as AnalyzeBlackMove(board, p).forbidden(), without building
// the shapes. REQUIRES: p.OnBoard() and board.IsEmpty(p).
bool IsForbiddenPoint(const Board& board, Point p);

// Every empty point where a black move would be forbidden, in index order
// (A1, B1, ..., O15), each with its full analysis.
std::vector<MoveAnalysis> FindForbiddenPoints(const Board& board);

}  // namespace gorank::rules::gomoku

#endif  // GORANK_SERVICES_RULES_GOMOKU_FORBIDDEN_H_
