// Small value types of the Go rules engine: colours and board points.
// Points use SGF orientation: column from the left, row from the top, both
// 0-based ("aa" is the top-left corner).
#ifndef GORANK_SERVICES_RULES_GO_TYPES_H_
#define GORANK_SERVICES_RULES_GO_TYPES_H_

#include <cstdint>
#include <string>

namespace gorank::rules::go {

inline constexpr int kMinBoardSize = 2;
inline constexpr int kMaxBoardSize = 25;

enum class Color : uint8_t { kEmpty = 0, kBlack = 1, kWhite = 2 };

// REQUIRES: c is kBlack or kWhite.
inline Color Opponent(Color c) {
  return c == Color::kBlack ? Color::kWhite : Color::kBlack;
}
// "B", "W" or "-".
const char* ColorLetter(Color c);
// "黑", "白" or "".
const char* ColorChinese(Color c);

struct Point {
  int col = 0;
  int row = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

// "dd" for col 3, row 3. REQUIRES: 0 <= col,row < 26.
std::string ToSgf(Point p);
// Human coordinates as on a printed board: column letter skipping I, row
// counted from the bottom ("D16" for dd on 19x19).
std::string ToLabel(Point p, int board_size);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_TYPES_H_
