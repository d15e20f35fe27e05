#include "services/rules/gomoku/gomoku_rank.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::rules::gomoku {
namespace {

TEST(GomokuRankTest, ParsesEveryNotation) {
  struct Case {
    const char* text;
    bool dan;
    int level;
  };
  for (const Case& c : {
           Case{"10k", false, 10},
           Case{"5k", false, 5},
           Case{"5K", false, 5},
           Case{" 1 kyu ", false, 1},
           Case{"5级", false, 5},
           Case{"五级", false, 5},
           Case{"十级", false, 10},
           Case{"1d", true, 1},
           Case{"3D", true, 3},
           Case{"3 dan", true, 3},
           Case{"3段", true, 3},
           Case{"三段", true, 3},
           Case{"初段", true, 1},
           Case{"九段", true, 9},
           Case{"五子棋6段", true, 6},
       }) {
    const absl::StatusOr<GomokuRank> r = GomokuRank::Parse(c.text);
    ASSERT_TRUE(r.ok()) << c.text << ": " << r.status();
    EXPECT_EQ(r->IsDan(), c.dan) << c.text;
    EXPECT_EQ(r->level(), c.level) << c.text;
  }
}

TEST(GomokuRankTest, RejectsRanksOffTheLadder) {
  for (const char* bad : {"11k", "0k", "10d", "0d", "30k", "k", "", "5", "初级",
                          "十段", "3p", "业余3段x", "abc"}) {
    const absl::StatusOr<GomokuRank> r = GomokuRank::Parse(bad);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(
      std::string(GomokuRank::Parse("11k").status().message()),
      "'11k' is not a Gomoku rank: expected 10k..1k or 1d..9d (also 5级, 三段, "
      "初段)");
  EXPECT_EQ(GomokuRank::Kyu(11).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(GomokuRank::Dan(10).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GomokuRankTest, OrdersTheWholeLadder) {
  std::vector<GomokuRank> ladder;
  for (int k = 10; k >= 1; --k) ladder.push_back(*GomokuRank::Kyu(k));
  for (int d = 1; d <= 9; ++d) ladder.push_back(*GomokuRank::Dan(d));
  ASSERT_EQ(ladder.size(), 19u);
  EXPECT_TRUE(std::is_sorted(ladder.begin(), ladder.end()));
  for (size_t i = 0; i < ladder.size(); ++i) {
    EXPECT_EQ(ladder[i].Ordinal(), static_cast<int>(i) - 9);
    EXPECT_EQ(GomokuRank::FromOrdinal(ladder[i].Ordinal()), ladder[i]);
    EXPECT_EQ(*GomokuRank::Parse(ladder[i].ToString()), ladder[i]);
    EXPECT_EQ(*GomokuRank::Parse(ladder[i].ToChinese()), ladder[i]);
  }
  EXPECT_LT(*GomokuRank::Parse("1k"), *GomokuRank::Parse("1d"));
  EXPECT_LT(*GomokuRank::Parse("10k"), *GomokuRank::Parse("9k"));
}

TEST(GomokuRankTest, FormatsAndCaps) {
  EXPECT_EQ(GomokuRank::Parse("初段")->ToString(), "1d");
  EXPECT_EQ(GomokuRank::Parse("1d")->ToChinese(), "初段");
  EXPECT_EQ(GomokuRank::Parse("6d")->ToChinese(), "六段");
  EXPECT_EQ(GomokuRank::Parse("10k")->ToChinese(), "十级");
  EXPECT_TRUE(GomokuRank::Parse("6d")->WithinInitialCap());
  EXPECT_FALSE(GomokuRank::Parse("7d")->WithinInitialCap());
  EXPECT_TRUE(GomokuRank::Parse("10k")->WithinInitialCap());
}

}  // namespace
}  // namespace gorank::rules::gomoku
