#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/competition_catalogue.h"

namespace gorank::tournaments {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CompetitionCatalogue, ShippedDataHasTheStandardsCompetitions) {
  const CompetitionCatalogue& c = CompetitionCatalogue::Default();
  for (const char* code :
       {"world_mind_sports_games", "world_pro_championship", "samsung_cup",
        "asian_indoor_games", "national_mind_sports_games",
        "national_championship", "national_amateur_open",
        "provincial_championship", "provincial_junior_championship",
        "city_championship", "bailing_cup", "evening_news_cup"}) {
    EXPECT_NE(c.Find(code), nullptr) << code;
  }
  const Competition* ncc = c.Find("national_championship");
  ASSERT_NE(ncc, nullptr);
  EXPECT_THAT(ncc->groups, ElementsAre("pro_a", "b", "amateur", "u16", "u12"));
  EXPECT_EQ(ncc->level, EventLevel::kNational);
  EXPECT_EQ(ncc->name_zh, "全国围棋锦标赛");
}

TEST(CompetitionCatalogue, ParseReportsEveryBadLine) {
  auto c = CompetitionCatalogue::Parse(
      "# comment\n"
      "a\tworld\t-\tA\tA\n"
      "b\tgalactic\t-\tB\tB\n"
      "a\tclub\t-\tA2\tA2\n"
      "c\tclub\n");
  ASSERT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(c.status().message());
  EXPECT_THAT(m, HasSubstr("line 3: unknown event level 'galactic'"));
  EXPECT_THAT(m, HasSubstr("line 4: duplicate competition code 'a'"));
  EXPECT_THAT(m, HasSubstr("line 5: expected 5 tab-separated columns"));
}

TEST(CompetitionCatalogue, LoadMissingFileIsNotFound) {
  EXPECT_EQ(CompetitionCatalogue::Load("/nonexistent/competitions.tsv")
                .status()
                .code(),
            absl::StatusCode::kNotFound);
}

TEST(CompetitionCatalogue, CheckEventNamesKnownGroups) {
  Event e;
  e.name = "x";
  e.competition = "national_championship";
  e.group = "amateur";
  EXPECT_TRUE(CompetitionCatalogue::Default().CheckEvent(e).ok());
  e.group = "seniors";
  const absl::Status s = CompetitionCatalogue::Default().CheckEvent(e);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("its groups are: pro_a, b, amateur, u16, u12"));
  e.competition = "moon_cup";
  EXPECT_EQ(CompetitionCatalogue::Default().CheckEvent(e).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::tournaments
