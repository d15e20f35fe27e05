#include "services/eligibility/grade_standard.h"

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/competition_catalogue.h"

namespace gorank::eligibility {
namespace {

using ::testing::HasSubstr;

TEST(GradeStandard, ShippedDataParsesCompletely) {
  const GradeStandard& s = GradeStandard::Default();
  ASSERT_EQ(s.grades().size(), 5u);
  EXPECT_EQ(s.Info(Grade::kInternationalMaster).name_zh, "国际级运动健将");
  EXPECT_EQ(s.Info(Grade::kGrade3).code, "grade_3");
  EXPECT_EQ(s.rules().size(), 45u);
  EXPECT_EQ(s.recognitions().size(), 8u);
  EXPECT_EQ(s.dan_routes().size(), 4u);
  EXPECT_EQ(s.min_played(), 8);
  EXPECT_EQ(s.notice_from().ToString(), "4d");
  EXPECT_TRUE(s.IsEligibleSubEvent(tournaments::SubEvent::kMixedPairs));
  EXPECT_FALSE(s.IsEligibleSubEvent(tournaments::SubEvent::kMixedTeam));
}

// Every competition the standard names exists in the shipped catalogue,
// with the groups it names.
TEST(GradeStandard, NamesOnlyCatalogueCompetitionsAndGroups) {
  const auto& catalogue = tournaments::CompetitionCatalogue::Default();
  for (const GradeRule& r : GradeStandard::Default().rules()) {
    const tournaments::Competition* c = catalogue.Find(r.competition);
    ASSERT_NE(c, nullptr) << r.competition;
    if (!r.group.empty()) {
      EXPECT_NE(std::find(c->groups.begin(), c->groups.end(), r.group),
                c->groups.end())
          << r.competition << " " << r.group;
    }
  }
  for (const Recognition& r : GradeStandard::Default().recognitions()) {
    EXPECT_NE(catalogue.Find(r.competition), nullptr) << r.competition;
    EXPECT_NE(catalogue.Find(r.counts_as), nullptr) << r.counts_as;
  }
}

TEST(GradeStandard, ParseReportsEveryBadRecordWithItsLine) {
  auto s = GradeStandard::Parse(
      "grade\tgold\tGold\t金\n"
      "rule\tsilver\tx\tcity_championship\t-\tindividual\t1\t6\n"
      "rule\tgold\tx\tcity_championship\t-\tsolo\t1\t6\n"
      "rule\tgold\tx\tcity_championship\t-\tindividual\t7\t6\n"
      "dan\tx\t4q\tgold\n"
      "colour\tblue\n");
  ASSERT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(s.status().message());
  EXPECT_THAT(m, HasSubstr("line 2: unknown grade 'silver'"));
  EXPECT_THAT(m, HasSubstr("line 3: unknown sub-event 'solo'"));
  EXPECT_THAT(m, HasSubstr("line 4: place range must be 1 <= from <= to"));
  EXPECT_THAT(m, HasSubstr("line 5: bad rank '4q'"));
  EXPECT_THAT(m, HasSubstr("line 6: unknown record kind 'colour'"));
  EXPECT_THAT(m, HasSubstr("no 'min_played' record (note 2)"));
}

TEST(GradeStandard, LoadMissingFileIsNotFound) {
  EXPECT_EQ(GradeStandard::Load("/nonexistent/standard.tsv").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::eligibility
