// Test helper: reads a labelled Gomoku diagram. Rows are written row 15
// first and may carry their row number on the left; a header line of column
// letters is skipped. `*` marks the point a test is about (it is empty on
// the board). Aborts the test on a malformed diagram.
#ifndef GORANK_TESTS_RULES_GOMOKU_DIAGRAM_H_
#define GORANK_TESTS_RULES_GOMOKU_DIAGRAM_H_

#include <cctype>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "services/rules/gomoku/board.h"

namespace gorank::rules::gomoku::testing {

struct Diagram {
  Board board;
  Point marked;  // the `*`, or A1 when there is none
  bool has_mark = false;
};

inline Diagram ReadDiagram(const std::string& text) {
  Diagram result;
  std::string plain;
  std::istringstream in(text);
  std::string line;
  int row = kBoardSize;
  while (std::getline(in, line)) {
    size_t i = 0;
    while (
        i < line.size() &&
        (line[i] == ' ' || std::isdigit(static_cast<unsigned char>(line[i])))) {
      ++i;
    }
    std::string rest = line.substr(i);
    if (rest.empty() || (std::isupper(static_cast<unsigned char>(rest[0])) &&
                         rest[0] != 'X' && rest[0] != 'O')) {
      continue;  // blank or the column-letter header
    }
    --row;
    for (size_t col = 0, seen = 0; col < rest.size(); ++col) {
      if (rest[col] == ' ') continue;
      if (rest[col] == '*') {
        result.marked = Point{static_cast<int>(seen), row};
        result.has_mark = true;
        rest[col] = '.';
      }
      ++seen;
    }
    plain += rest + "\n";
  }
  absl::StatusOr<Board> board = Board::FromDiagram(plain);
  EXPECT_TRUE(board.ok()) << board.status() << "\n" << text;
  if (board.ok()) result.board = *board;
  return result;
}

}  // namespace gorank::rules::gomoku::testing

#endif  // GORANK_TESTS_RULES_GOMOKU_DIAGRAM_H_
