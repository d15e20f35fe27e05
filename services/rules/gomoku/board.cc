#include "services/rules/gomoku/board.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace gorank::rules::gomoku {

const char* StoneName(Stone stone) {
  switch (stone) {
    case Stone::kEmpty:
      return "empty";
    case Stone::kBlack:
      return "black";
    case Stone::kWhite:
      return "white";
  }
  std::abort();
}

Stone Opponent(Stone stone) {
  if (stone == Stone::kBlack) return Stone::kWhite;
  if (stone == Stone::kWhite) return Stone::kBlack;
  std::abort();
}

std::string Point::ToString() const {
  if (!OnBoard()) std::abort();
  return std::string(1, static_cast<char>('A' + col)) + std::to_string(row + 1);
}

absl::StatusOr<Point> Point::Parse(const std::string& text) {
  auto bad = [&text]() {
    return absl::InvalidArgumentError(
        "'" + text +
        "' is not a Gomoku point: expected a column letter A-O then a row "
        "number 1-15, such as H8");
  };
  if (text.size() < 2 || text.size() > 3) return bad();
  const char letter = text[0];
  int col = -1;
  if (letter >= 'A' && letter <= 'O') col = letter - 'A';
  if (letter >= 'a' && letter <= 'o') col = letter - 'a';
  if (col < 0) return bad();
  int row = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return bad();
    row = row * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || row < 1 || row > kBoardSize) return bad();
  return Point{col, row - 1};
}

int Board::StoneCount() const {
  int n = 0;
  for (Stone s : cells_) n += (s != Stone::kEmpty);
  return n;
}

absl::StatusOr<Board> Board::FromDiagram(const std::string& diagram) {
  std::vector<std::string> rows;
  std::string current;
  int line_number = 1;
  for (size_t i = 0; i <= diagram.size(); ++i) {
    const char c = i < diagram.size() ? diagram[i] : '\n';
    if (c == '\n') {
      if (!current.empty()) {
        if (current.size() != kBoardSize) {
          return absl::InvalidArgumentError(
              "diagram line " + std::to_string(line_number) + " has " +
              std::to_string(current.size()) + " points; expected 15");
        }
        rows.push_back(current);
      }
      current.clear();
      ++line_number;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      continue;
    } else if (c == '.' || c == '+' || c == 'X' || c == 'O') {
      current.push_back(c);
    } else {
      return absl::InvalidArgumentError(
          "diagram line " + std::to_string(line_number) + ": unexpected '" +
          std::string(1, c) + "'; expected '.', '+', 'X' or 'O'");
    }
  }
  if (rows.size() != kBoardSize) {
    return absl::InvalidArgumentError("diagram has " +
                                      std::to_string(rows.size()) +
                                      " rows; expected 15 (row 15 first)");
  }
  Board board;
  for (int r = 0; r < kBoardSize; ++r) {
    for (int c = 0; c < kBoardSize; ++c) {
      const char ch = rows[r][c];
      const Point p{c, kBoardSize - 1 - r};
      if (ch == 'X') board.Set(p, Stone::kBlack);
      if (ch == 'O') board.Set(p, Stone::kWhite);
    }
  }
  return board;
}

std::string Board::ToDiagram() const {
  std::string out;
  for (int row = kBoardSize - 1; row >= 0; --row) {
    for (int col = 0; col < kBoardSize; ++col) {
      const Stone s = At(Point{col, row});
      out.push_back(s == Stone::kBlack ? 'X' : s == Stone::kWhite ? 'O' : '.');
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace gorank::rules::gomoku
