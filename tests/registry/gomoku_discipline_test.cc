// A player holds a Go rank and a Gomoku rank independently: rank changes of
// one discipline never touch the other, the history records the discipline
// of each entry, and operators' authority and the 6d cap apply per ladder.
#include <string>

#include "gtest/gtest.h"
#include "tests/registry/registry_fixture.h"

namespace gorank::registry {
namespace {

class GomokuDisciplineTest : public RegistryFixture {
 protected:
  static Rank G(const std::string& text) {
    return *Rank::Parse(text, Discipline::kGomoku);
  }
};

TEST_F(GomokuDisciplineTest, PlayerHoldsBothRanksAndHistoryPerDiscipline) {
  PlayerDraft d = Draft("张三", "110");
  d.initial_rank = Rank::FromString("2d");
  const Player p = MustRegister(d);

  auto g = registry_.ChangeRank(
      op110_, p.id, G("2d"), RankChangeReason::kTournamentAward,
      "Beijing Gomoku Open 2024, 2nd", std::nullopt, Event());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->first.rank, Rank::FromString("2d"));  // Go rank untouched
  EXPECT_EQ(g->first.gomoku_rank, G("2d"));
  EXPECT_EQ(g->second.discipline, Discipline::kGomoku);
  EXPECT_EQ(g->second.from_rank, std::nullopt);

  // A Go change leaves the Gomoku rank alone.
  ASSERT_TRUE(registry_
                  .ChangeRank(op110_, p.id, Rank::FromString("3d"),
                              RankChangeReason::kCorrection, "recount",
                              std::nullopt)
                  .ok());
  const Player stored = *registry_.Get(national_, p.id);
  EXPECT_EQ(stored.rank, Rank::FromString("3d"));
  EXPECT_EQ(stored.gomoku_rank, G("2d"));

  // Each entry starts from the rank of its own discipline.
  ASSERT_TRUE(registry_
                  .ChangeRank(national_, p.id, G("5d"),
                              RankChangeReason::kTournamentAward,
                              "national Gomoku final", std::nullopt, Event())
                  .ok());
  const auto history = *registry_.History(public_, p.id);
  ASSERT_EQ(history.size(), 4u);
  EXPECT_EQ(history[0].discipline, Discipline::kGo);  // registration 2d
  EXPECT_EQ(history[1].discipline, Discipline::kGomoku);
  EXPECT_EQ(history[2].discipline, Discipline::kGo);
  EXPECT_EQ(history[2].from_rank, Rank::FromString("2d"));
  EXPECT_EQ(history[3].discipline, Discipline::kGomoku);
  EXPECT_EQ(history[3].from_rank, G("2d"));
  EXPECT_EQ(history[3].to_rank, G("5d"));
  EXPECT_NE(LastAudit().after.find("\"discipline\":\"gomoku\""),
            std::string::npos)
      << LastAudit().after;
}

TEST_F(GomokuDisciplineTest, OperatorAuthorityMirrorsGoUpTo3d) {
  const Player p = MustRegister(Draft("李四", "110"));
  EXPECT_TRUE(registry_
                  .ChangeRank(op110_, p.id, G("3d"),
                              RankChangeReason::kTournamentAward,
                              "provincial final", std::nullopt, Event())
                  .ok());
  EXPECT_REFUSED_UNCHANGED(
      registry_.ChangeRank(op110_, p.id, G("4d"),
                           RankChangeReason::kTournamentAward,
                           "provincial final", std::nullopt, Event()),
      absl::StatusCode::kPermissionDenied);
  ASSERT_TRUE(registry_
                  .ChangeRank(national_, p.id, G("4d"),
                              RankChangeReason::kTournamentAward,
                              "national final", std::nullopt, Event())
                  .ok());
  // Holding Gomoku 4d puts the Gomoku rank out of the agency's reach, not
  // the Go rank.
  EXPECT_REFUSED_UNCHANGED(
      registry_.ChangeRank(op110_, p.id, G("3d"), RankChangeReason::kCorrection,
                           "typo", std::nullopt),
      absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(registry_
                  .ChangeRank(op110_, p.id, Rank::FromString("1d"),
                              RankChangeReason::kTournamentAward, "Go event",
                              std::nullopt, Event())
                  .ok());
}

TEST_F(GomokuDisciplineTest, SixDanIsTheHighestAwardedForNow) {
  const Player p = MustRegister(Draft("王五", "110"));
  EXPECT_TRUE(registry_
                  .ChangeRank(national_, p.id, G("6d"),
                              RankChangeReason::kTournamentAward,
                              "national final", std::nullopt, Event())
                  .ok());
  for (const char* high : {"7d", "9d"}) {
    const std::string before = State();
    const auto r = registry_.ChangeRank(national_, p.id, G(high),
                                        RankChangeReason::kTournamentAward, "x",
                                        std::nullopt, Event());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << high;
    EXPECT_NE(std::string(r.status().message()).find("6d"), std::string::npos);
    EXPECT_EQ(State(), before);
  }
}

TEST_F(GomokuDisciplineTest, RegistrationAndSearchTakeGoRanksOnly) {
  PlayerDraft d = Draft("赵六", "110");
  d.initial_rank = G("1d");
  EXPECT_REFUSED_UNCHANGED(registry_.Register(national_, d),
                           absl::StatusCode::kInvalidArgument);
  SearchRequest s;
  s.min_rank = G("1d");
  EXPECT_EQ(registry_.Search(public_, s).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::registry
