#include "services/registry/gomoku_rank.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/registry/rank.h"

namespace gorank::registry {
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

// The Gomoku ladder as a registry Rank: its own ladders, its own
// discipline, ordinals that never meet a Go ordinal, and a round trip
// through ordinals (what storage keeps) and notation.
TEST(GomokuLadderRankTest, ParsesFormatsAndRoundTripsTheWholeLadder) {
  std::vector<Rank> ladder;
  for (int k = 10; k >= 1; --k) {
    ladder.push_back(
        *Rank::Parse(std::to_string(k) + "k", Discipline::kGomoku));
  }
  for (int d = 1; d <= 9; ++d) {
    ladder.push_back(
        *Rank::Parse(std::to_string(d) + "d", Discipline::kGomoku));
  }
  ASSERT_EQ(ladder.size(), 19u);
  EXPECT_TRUE(std::is_sorted(ladder.begin(), ladder.end()));
  for (const Rank& r : ladder) {
    SCOPED_TRACE(r.ToString());
    EXPECT_TRUE(r.IsGomoku());
    EXPECT_EQ(r.discipline(), Discipline::kGomoku);
    EXPECT_FALSE(r.IsKyu() || r.IsAmateurDan() || r.IsPro() || r.IsAmateur());
    EXPECT_EQ(*Rank::FromOrdinal(r.Ordinal()), r);
    EXPECT_EQ(*Rank::Parse(r.ToString(), Discipline::kGomoku), r);
    EXPECT_EQ(*Rank::Parse(r.ToChinese(), Discipline::kGomoku), r);
    // Above every Go rank: 9p is the highest Go ordinal.
    EXPECT_GT(r.Ordinal(), Rank::FromString("9p").Ordinal());
  }
  EXPECT_EQ(ladder.front().Ordinal(), 191);  // 10k
  EXPECT_EQ(ladder.back().Ordinal(), 209);   // 9d
}

TEST(GomokuLadderRankTest, NotationsPerDiscipline) {
  const Rank g3d = *Rank::Parse("三段", Discipline::kGomoku);
  EXPECT_EQ(g3d.ladder(), Ladder::kGomokuDan);
  EXPECT_EQ(g3d.level(), 3);
  EXPECT_EQ(g3d.ToString(), "3d");
  EXPECT_EQ(g3d.ToChinese(), "五子棋三段");
  EXPECT_EQ(Rank::Parse("初段", Discipline::kGomoku)->ToChinese(),
            "五子棋初段");
  EXPECT_EQ(Rank::Parse("5级", Discipline::kGomoku)->ToChinese(), "五子棋五级");
  EXPECT_EQ(*Rank::Parse("五子棋3段", Discipline::kGomoku), g3d);
  // The same notation is a different rank in each discipline.
  const Rank go3d = *Rank::Parse("3d", Discipline::kGo);
  EXPECT_EQ(go3d, Rank::FromString("3d"));
  EXPECT_NE(go3d, g3d);
  EXPECT_EQ(go3d.discipline(), Discipline::kGo);
  // Off the Gomoku ladder, though on the Go one, and the other way round.
  for (const char* bad :
       {"11k", "30k", "10d", "9p", "业余3段", "职业九段", ""}) {
    EXPECT_EQ(Rank::Parse(bad, Discipline::kGomoku).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
  EXPECT_FALSE(Rank::Parse("五子棋3段", Discipline::kGo).ok());
  EXPECT_FALSE(Rank::Parse("9d", Discipline::kGo).ok());
  EXPECT_TRUE(Rank::Parse("9d", Discipline::kGomoku).ok());
  EXPECT_EQ(Rank::Create(Ladder::kGomokuKyu, 11).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Rank::Create(Ladder::kGomokuDan, 10).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GomokuLadderRankTest, DisciplineNames) {
  EXPECT_EQ(*ParseDiscipline("go"), Discipline::kGo);
  EXPECT_EQ(*ParseDiscipline("gomoku"), Discipline::kGomoku);
  EXPECT_EQ(*ParseDiscipline("五子棋"), Discipline::kGomoku);
  EXPECT_STREQ(DisciplineName(Discipline::kGomoku), "gomoku");
  EXPECT_STREQ(DisciplineName(Discipline::kGo), "go");
  EXPECT_EQ(ParseDiscipline("chess").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::registry
