#include "services/rules/go/scoring.h"

#include <array>
#include <cstdlib>

namespace gorank::rules::go {
namespace {

using Grid = std::array<Color, kMaxBoardSize * kMaxBoardSize>;

// Flood-fills the empty regions of `grid`; adds each region's size to the
// territory of the one colour bordering it, or to `shared` when both do.
void CountRegions(const Grid& grid, int size, Count& count) {
  std::array<bool, kMaxBoardSize * kMaxBoardSize> seen{};
  std::array<int, kMaxBoardSize * kMaxBoardSize> stack;
  for (int start = 0; start < size * size; ++start) {
    if (grid[start] != Color::kEmpty || seen[start]) continue;
    int top = 0;
    int region = 0;
    bool black = false, white = false;
    stack[top++] = start;
    seen[start] = true;
    while (top > 0) {
      int i = stack[--top];
      ++region;
      int row = i / size, col = i % size;
      const int neighbours[4][2] = {
          {row - 1, col}, {row + 1, col}, {row, col - 1}, {row, col + 1}};
      for (const auto& [r, c] : neighbours) {
        if (r < 0 || c < 0 || r >= size || c >= size) continue;
        int n = r * size + c;
        if (grid[n] == Color::kBlack) black = true;
        if (grid[n] == Color::kWhite) white = true;
        if (grid[n] == Color::kEmpty && !seen[n]) {
          seen[n] = true;
          stack[top++] = n;
        }
      }
    }
    if (black && !white) count.black_territory += region;
    if (white && !black) count.white_territory += region;
    if (black == white)
      count.shared_points += region;  // both, or an empty board
  }
}

}  // namespace

Count CountPosition(const Board& board, const std::vector<Point>& dead,
                    const ScoringSettings& settings) {
  const int size = board.size();
  Grid grid{};
  for (int row = 0; row < size; ++row) {
    for (int col = 0; col < size; ++col)
      grid[row * size + col] = board.At(Point{col, row});
  }
  Count count;
  count.method = settings.method;
  for (Point p : dead) {
    Color& cell = grid[p.row * size + p.col];
    if (cell == Color::kBlack) ++count.black_dead;
    if (cell == Color::kWhite) ++count.white_dead;
    cell = Color::kEmpty;
  }
  for (int i = 0; i < size * size; ++i) {
    if (grid[i] == Color::kBlack) ++count.black_stones;
    if (grid[i] == Color::kWhite) ++count.white_stones;
  }
  CountRegions(grid, size, count);
  count.black_area = count.black_stones + count.black_territory;
  count.white_area = count.white_stones + count.white_territory;
  count.komi_half_points = settings.komi_half_points;
  count.black_warning_half_points = 4 * settings.black_warnings;
  count.white_warning_half_points = 4 * settings.white_warnings;
  int black, white;
  if (settings.method == ScoringMethod::kArea) {
    count.handicap_half_points = settings.handicap_half_points;
    black = 2 * count.black_area + count.shared_points;
    white = 2 * count.white_area + count.shared_points;
  } else {
    count.black_prisoners = settings.black_captures + count.white_dead;
    count.white_prisoners = settings.white_captures + count.black_dead;
    black = 2 * (count.black_territory + count.black_prisoners);
    white = 2 * (count.white_territory + count.white_prisoners);
  }
  count.margin_half_points =
      black - white - count.komi_half_points - count.handicap_half_points -
      count.black_warning_half_points + count.white_warning_half_points;
  count.result = FormatPoints(count.margin_half_points);
  count.chinese = FormatChineseStones(count.margin_half_points);
  return count;
}

std::string FormatPoints(int margin_half_points) {
  if (margin_half_points == 0) return "0";
  int m = std::abs(margin_half_points);
  std::string out = margin_half_points > 0 ? "B+" : "W+";
  out += std::to_string(m / 2);
  if (m % 2 != 0) out += ".5";
  return out;
}

std::string FormatChineseStones(int margin_half_points) {
  if (margin_half_points == 0) return "和棋";
  // m/2 points = m/4 stones: the half-point margin is the quarter-stone count.
  int quarters = std::abs(margin_half_points);
  static const char* const kFractions[] = {"", "1/4", "1/2", "3/4"};
  std::string out = margin_half_points > 0 ? "黑胜" : "白胜";
  int whole = quarters / 4;
  int frac = quarters % 4;
  if (whole > 0) out += std::to_string(whole);
  if (whole > 0 && frac > 0) out += "又";
  out += kFractions[frac];
  out += "子";
  return out;
}

}  // namespace gorank::rules::go
