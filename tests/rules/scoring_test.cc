#include "services/rules/go/scoring.h"

#include "gtest/gtest.h"

namespace gorank::rules::go {
namespace {

TEST(FormatPoints, Table) {
  const std::pair<int, const char*> cases[] = {{0, "0"},        {3, "B+1.5"},
                                               {-1, "W+0.5"},   {2, "B+1"},
                                               {-25, "W+12.5"}, {15, "B+7.5"}};
  for (const auto& [half, text] : cases)
    EXPECT_EQ(FormatPoints(half), text) << half;
}

TEST(FormatChineseStones, Table) {
  // margin in half points = margin in quarter stones.
  const std::pair<int, const char*> cases[] = {
      {0, "和棋"},          {3, "黑胜3/4子"},     {-1, "白胜1/4子"},
      {-5, "白胜1又1/4子"}, {15, "黑胜3又3/4子"}, {8, "黑胜2子"},
      {-2, "白胜1/2子"},    {-25, "白胜6又1/4子"}};
  for (const auto& [half, text] : cases)
    EXPECT_EQ(FormatChineseStones(half), text) << half;
}

TEST(CountPosition, NineteenByNineteenParArithmetic) {
  // Black owns columns a..j (190 points with one shared column k: 19 shared).
  Board b(19);
  std::vector<std::pair<Point, Color>> setup;
  for (int row = 0; row < 19; ++row) {
    setup.emplace_back(Point{9, row}, Color::kBlack);
    setup.emplace_back(Point{11, row}, Color::kWhite);
  }
  b.Setup(setup);
  Count c = CountPosition(b, {}, ScoringSettings());
  EXPECT_EQ(c.black_stones, 19);
  EXPECT_EQ(c.black_area, 190);
  EXPECT_EQ(c.white_area, 152);
  EXPECT_EQ(c.shared_points, 19);
  // Black 190 + 9.5 = 199.5 stones; 199.5 - 184.25 = 15.25 stones = 30.5
  // points.
  EXPECT_EQ(c.result, "B+30.5");
  EXPECT_EQ(c.chinese, "黑胜15又1/4子");
}

TEST(CountPosition, OneStoneMoreThanParIsThreeQuarters) {
  // 185 stones of area on 19x19 -> B+1.5 (黑胜3/4子); 184 -> W+0.5.
  for (const auto& [black_points, result] :
       {std::pair<int, const char*>{185, "B+1.5"}, {184, "W+0.5"}}) {
    Board b(19);
    std::vector<std::pair<Point, Color>> setup;
    int placed = 0;
    for (int i = 0; i < 361; ++i) {
      Point p{i % 19, i / 19};
      setup.emplace_back(
          p, placed++ < black_points ? Color::kBlack : Color::kWhite);
    }
    b.Setup(setup);
    EXPECT_EQ(CountPosition(b, {}, ScoringSettings()).result, result)
        << black_points;
  }
}

}  // namespace
}  // namespace gorank::rules::go
