#include "services/rules/gomoku/board.h"

#include <string>

#include "gtest/gtest.h"

namespace gorank::rules::gomoku {
namespace {

TEST(PointTest, ParsesAndFormats) {
  struct Case {
    const char* text;
    int col;
    int row;
  };
  for (const Case& c : {Case{"H8", 7, 7}, Case{"h8", 7, 7}, Case{"A1", 0, 0},
                        Case{"O15", 14, 14}, Case{"I9", 8, 8},
                        Case{"L6", 11, 5}, Case{"F4", 5, 3}}) {
    const absl::StatusOr<Point> p = Point::Parse(c.text);
    ASSERT_TRUE(p.ok()) << c.text << ": " << p.status();
    EXPECT_EQ(*p, (Point{c.col, c.row})) << c.text;
  }
  EXPECT_EQ((Point{7, 7}).ToString(), "H8");
  EXPECT_EQ((Point{14, 14}).ToString(), "O15");
  EXPECT_EQ(kCenter.ToString(), "H8");
}

TEST(PointTest, RejectsWhatIsNotAPoint) {
  for (const char* bad : {"", "H", "8H", "P8", "H0", "H16", "H08", "H8x", "Z1",
                          "A100", "6L", "H-1"}) {
    const absl::StatusOr<Point> p = Point::Parse(bad);
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(
      std::string(Point::Parse("P8").status().message()),
      "'P8' is not a Gomoku point: expected a column letter A-O then a row "
      "number 1-15, such as H8");
}

TEST(BoardTest, DiagramRoundTrips) {
  Board board;
  board.Set(Point{0, 0}, Stone::kBlack);    // A1, lower left
  board.Set(Point{14, 14}, Stone::kWhite);  // O15, upper right
  board.Set(kCenter, Stone::kBlack);
  const std::string diagram = board.ToDiagram();
  EXPECT_EQ(diagram.substr(0, 16), "..............O\n");
  EXPECT_EQ(diagram.substr(7 * 16, 16), ".......X.......\n");
  EXPECT_EQ(diagram.substr(14 * 16, 16), "X..............\n");
  const absl::StatusOr<Board> back = Board::FromDiagram(diagram);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, board);
  EXPECT_EQ(back->StoneCount(), 3);
}

TEST(BoardTest, DiagramErrorsNameTheLine) {
  EXPECT_EQ(std::string(Board::FromDiagram("...\n").status().message()),
            "diagram line 1 has 3 points; expected 15");
  EXPECT_EQ(
      std::string(Board::FromDiagram("......Z........\n").status().message()),
      "diagram line 1: unexpected 'Z'; expected '.', '+', 'X' or 'O'");
  EXPECT_EQ(
      std::string(Board::FromDiagram("...............\n").status().message()),
      "diagram has 1 rows; expected 15 (row 15 first)");
}

}  // namespace
}  // namespace gorank::rules::gomoku
