// The Gomoku board: a 15x15 grid of empty, black and white points, with the
// coordinates of the Chinese rule text (columns A-O left to right, including
// the letter I; rows 1-15 from black's side, so A1 is black's lower left and
// H8 the centre). Also reads and writes ASCII diagrams (rows of `.XO`, row 15
// first), which tests and callers use to state positions.
#ifndef GORANK_SERVICES_RULES_GOMOKU_BOARD_H_
#define GORANK_SERVICES_RULES_GOMOKU_BOARD_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gorank::rules::gomoku {

inline constexpr int kBoardSize = 15;
inline constexpr int kNumPoints = kBoardSize * kBoardSize;

enum class Stone : uint8_t { kEmpty = 0, kBlack = 1, kWhite = 2 };

// "black" / "white" / "empty".
const char* StoneName(Stone stone);
// The other colour. REQUIRES: `stone` is kBlack or kWhite.
Stone Opponent(Stone stone);

// A point of the board; `col` 0..14 is A..O, `row` 0..14 is rows 1..15.
// Value type; a default Point is A1.
struct Point {
  int col = 0;
  int row = 0;

  bool OnBoard() const {
    return col >= 0 && col < kBoardSize && row >= 0 && row < kBoardSize;
  }
  // Dense index 0..224. REQUIRES: OnBoard().
  int Index() const { return row * kBoardSize + col; }
  static Point FromIndex(int index) {
    return Point{index % kBoardSize, index / kBoardSize};
  }

  // "H8". REQUIRES: OnBoard().
  std::string ToString() const;
  // Reads "H8", "h8", "O15": a column letter A-O (either case) then a row
  // 1-15, nothing else. INVALID_ARGUMENT naming the text and what was
  // expected otherwise.
  static absl::StatusOr<Point> Parse(const std::string& text);

  friend bool operator==(const Point& a, const Point& b) = default;
  friend auto operator<=>(const Point& a, const Point& b) = default;
};

// The centre point H8, where black's first stone goes in formal games.
inline constexpr Point kCenter{7, 7};

// Value type (225 bytes); thread-compatible.
class Board {
 public:
  Board() { cells_.fill(Stone::kEmpty); }

  // REQUIRES: p.OnBoard() for all three.
  Stone At(Point p) const { return cells_[p.Index()]; }
  bool IsEmpty(Point p) const { return At(p) == Stone::kEmpty; }
  void Set(Point p, Stone stone) { cells_[p.Index()] = stone; }

  // Number of stones of both colours on the board.
  int StoneCount() const;

  // Reads a diagram: exactly 15 non-blank lines, the first is row 15; each
  // line holds 15 points written `.` or `+` (empty), `X` (black) or `O`
  // (white); spaces inside a line and blank lines are ignored. Anything else:
  // INVALID_ARGUMENT with the line and column at fault.
  static absl::StatusOr<Board> FromDiagram(const std::string& diagram);

  // 15 lines of 15 characters `.XO`, row 15 first, each ending in '\n'.
  std::string ToDiagram() const;

  friend bool operator==(const Board& a, const Board& b) = default;

 private:
  std::array<Stone, kNumPoints> cells_;
};

}  // namespace gorank::rules::gomoku

#endif  // GORANK_SERVICES_RULES_GOMOKU_BOARD_H_
