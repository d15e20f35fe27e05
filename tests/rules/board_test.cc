#include "services/rules/go/board.h"

#include <vector>

#include "gtest/gtest.h"
#include "services/rules/go/position_history.h"

namespace gorank::rules::go {
namespace {

using R = Board::PlayResult;

Point P(const char* sgf) { return Point{sgf[0] - 'a', sgf[1] - 'a'}; }

TEST(Board, CapturesAndCountsPrisoners) {
  Board b(5);
  ASSERT_EQ(b.Play(Color::kWhite, P("bb")), R::kOk);
  for (const char* p : {"ab", "ba", "cb"})
    ASSERT_EQ(b.Play(Color::kBlack, P(p)), R::kOk);
  EXPECT_EQ(b.LibertiesAt(P("bb")), 1);
  ASSERT_EQ(b.Play(Color::kBlack, P("bc")), R::kOk);
  EXPECT_EQ(b.At(P("bb")), Color::kEmpty);
  EXPECT_EQ(b.captures(Color::kBlack), 1);
  EXPECT_EQ(b.captures(Color::kWhite), 0);
}

TEST(Board, MergedChainsShareLiberties) {
  Board b(5);
  for (const char* p : {"bb", "cb", "db", "dc"})
    ASSERT_EQ(b.Play(Color::kBlack, P(p)), R::kOk);
  EXPECT_EQ(b.ChainAt(P("bb")).size(), 4u);
  EXPECT_EQ(b.LibertiesAt(P("dc")), 9);
}

TEST(Board, OccupiedSuicideAndKoLeaveTheBoardUnchanged) {
  Board b(5);
  b.Setup({{P("ba"), Color::kWhite}, {P("ab"), Color::kWhite}});
  uint64_t before = b.hash();
  EXPECT_EQ(b.Play(Color::kBlack, P("aa")), R::kSuicide);
  EXPECT_EQ(b.Play(Color::kBlack, P("ba")), R::kOccupied);
  EXPECT_EQ(b.hash(), before);
  EXPECT_EQ(b.At(P("aa")), Color::kEmpty);
}

TEST(Board, KoPointOnlyForTheOpponentAndOnlyOnce) {
  // Ko shape: white bb in atari, black takes at cb.
  Board b(9);
  b.Setup({{P("ba"), Color::kBlack},
           {P("ab"), Color::kBlack},
           {P("bc"), Color::kBlack},
           {P("ca"), Color::kWhite},
           {P("db"), Color::kWhite},
           {P("cc"), Color::kWhite},
           {P("bb"), Color::kWhite}});
  ASSERT_EQ(b.Play(Color::kBlack, P("cb")), R::kOk);
  ASSERT_TRUE(b.ko_point().has_value());
  EXPECT_EQ(ToSgf(*b.ko_point()), "bb");
  EXPECT_EQ(b.Check(Color::kWhite, P("bb")), R::kKoRecapture);
  b.Pass();
  EXPECT_FALSE(b.ko_point().has_value());
  EXPECT_EQ(b.Check(Color::kWhite, P("bb")), R::kOk);
}

TEST(Board, SnapbackIsNotKo) {
  Board b(9);
  b.Setup({{P("ca"), Color::kBlack},
           {P("cb"), Color::kBlack},
           {P("bc"), Color::kBlack},
           {P("ac"), Color::kBlack},
           {P("ba"), Color::kWhite},
           {P("bb"), Color::kWhite}});
  ASSERT_EQ(b.Play(Color::kBlack, P("aa")), R::kOk);  // throw-in
  ASSERT_EQ(b.Play(Color::kWhite, P("ab")), R::kOk);  // captures one
  EXPECT_FALSE(
      b.ko_point().has_value());  // white's stones have 1 liberty but are 3
  ASSERT_EQ(b.Play(Color::kBlack, P("aa")), R::kOk);  // snapback takes three
  EXPECT_EQ(b.captures(Color::kBlack), 3);
}

TEST(Board, HashIsIncrementalDeterministicAndMatchesPrediction) {
  Board a(9), b(9);
  const char* moves[] = {"ee", "ec", "ce", "cc", "eg", "gg", "ge", "dd", "fd"};
  Color c = Color::kBlack;
  for (const char* m : moves) {
    uint64_t predicted = a.HashAfter(c, P(m));
    std::vector<uint8_t> cells(a.cell_count());
    a.CellsAfter(c, P(m), cells.data());
    ASSERT_EQ(a.Play(c, P(m)), R::kOk);
    EXPECT_EQ(a.hash(), predicted);
    EXPECT_EQ(std::vector<uint8_t>(a.cells(), a.cells() + a.cell_count()),
              cells);
    c = Opponent(c);
  }
  // Rebuilding from the same stones gives the same hash (setup path).
  std::vector<std::pair<Point, Color>> stones;
  for (int row = 0; row < 9; ++row)
    for (int col = 0; col < 9; ++col)
      if (a.At(Point{col, row}) != Color::kEmpty)
        stones.emplace_back(Point{col, row}, a.At(Point{col, row}));
  b.Setup(stones);
  EXPECT_EQ(b.hash(), a.hash());
  EXPECT_NE(a.hash(), 0u);
}

TEST(PositionHistory, ConfirmsOnTheFullBoard) {
  Board b(5);
  PositionHistory h;
  h.Reset(b.cell_count());
  h.Add(42, b.cells(), 0);
  EXPECT_TRUE(h.ContainsKey(42));
  EXPECT_EQ(h.Find(42, b.cells()), 0);
  Board other(5);
  other.Play(Color::kBlack, Point{2, 2});
  // Same key, different board: a collision is not a repetition.
  EXPECT_EQ(h.Find(42, other.cells()), -1);
  EXPECT_EQ(h.Find(7, b.cells()), -1);
  for (int i = 1; i < 3000; ++i)
    h.Add(static_cast<uint64_t>(i) * 7919, other.cells(), i);
  EXPECT_EQ(h.Find(42, b.cells()), 0);
  EXPECT_EQ(h.Find(7919 * 5, other.cells()), 5);
}

}  // namespace
}  // namespace gorank::rules::go
