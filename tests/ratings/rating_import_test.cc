// The rating import's pure rules (rating_import.h) and RatingBook::SetStart:
// which lookups a player field is tried as, the whole-file refusals, a
// start for a rated player, replacement of an unused start.
#include "services/ratings/rating_import.h"

#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ratings/game_builder.h"

namespace gorank::ratings {
namespace {

using testing::GameBuilder;
using ::testing::HasSubstr;
using Kind = PlayerLookup::Kind;

TEST(PlayerLookups, FormsOfThePlayerField) {
  EXPECT_TRUE(PlayerLookups("  ").empty());
  std::vector<PlayerLookup> l = PlayerLookups("id:0042");
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kind, Kind::kId);
  EXPECT_EQ(l[0].value, "42");
  l = PlayerLookups("110:EGD-7");
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kind, Kind::kExternalId);
  EXPECT_EQ(l[0].agency_prefix, "110");
  EXPECT_EQ(l[0].value, "EGD-7");
  l = PlayerLookups("12345678");  // an id, or an external id anywhere
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].kind, Kind::kId);
  EXPECT_EQ(l[1].kind, Kind::kExternalId);
  EXPECT_EQ(l[1].agency_prefix, "");
  l = PlayerLookups("EGD:1:2");  // not a three-digit agency prefix
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].kind, Kind::kExternalId);
  EXPECT_EQ(l[0].value, "EGD:1:2");
}

StartImport File(std::vector<StartRow> rows) {
  StartImport f;
  f.file_name = "/tmp/x/list.csv";
  f.file_sha256 = std::string(64, 'A');
  f.rows = std::move(rows);
  return f;
}

std::vector<std::vector<PlayerMatch>> Found(const std::vector<int64_t>& ids) {
  std::vector<std::vector<PlayerMatch>> out;
  for (int64_t id : ids) {
    out.push_back({PlayerMatch{PlayerId{id}, "110", Kind::kId, ""}});
  }
  return out;
}

TEST(PlanStartImport, WholeFileProblems) {
  RatingBook book(RatingSettings{});
  const Date today{2026, 1, 1};
  EXPECT_EQ(PlanStartImport(File({}), {}, book, {}, today, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  StartImport bad_sha = File({{2, "1", "2000", "", ""}});
  bad_sha.file_sha256 = "xyz";
  EXPECT_EQ(
      PlanStartImport(bad_sha, Found({1}), book, {}, today, 0).status().code(),
      absl::StatusCode::kInvalidArgument);
  StartImport big = File(std::vector<StartRow>(kMaxImportRows + 1));
  EXPECT_EQ(PlanStartImport(big, {}, book, {}, today, 0).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(PlanStartImport, OriginRatedPlayersAndReplacement) {
  RatingBook book(RatingSettings{});
  ASSERT_TRUE(book.ApplyGames({GameBuilder("e", Date{2025, 1, 1}, 1)
                                   .Black(1, "1d")
                                   .White(2, "1k")
                                   .BlackWins()})
                  .ok());
  ASSERT_TRUE(book.SetStart(PlayerId{3}, 1500, std::nullopt).ok());
  std::map<PlayerId, RatingStart> stored;
  stored[PlayerId{3}] = RatingStart{PlayerId{3},
                                    1500,
                                    std::nullopt,
                                    Date{2025, 6, 1},
                                    "import old.csv line 9 as of 2025-06-01",
                                    1};
  absl::StatusOr<StartImportPlan> plan =
      PlanStartImport(File({{2, "1", "2300", "", ""},
                            {3, "3", "1600", "2500", "2025-12-31"},
                            {4, "4", "-900", "", ""}}),
                      Found({1, 3, 4}), book, stored, Date{2026, 1, 1}, 77);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->report.refusals.size(), 1u);
  EXPECT_EQ(plan->report.refusals[0].line, 2);
  EXPECT_THAT(plan->report.refusals[0].reason,
              HasSubstr("player 1 already has a rating from 1 event"));
  ASSERT_EQ(plan->starts.size(), 2u);
  EXPECT_EQ(plan->starts[0].player, PlayerId{3});
  EXPECT_EQ(plan->starts[0].pro_elo, 2500);
  EXPECT_EQ(plan->starts[0].origin,
            "import list.csv sha256:" + std::string(64, 'a') +
                " line 3 as of 2025-12-31");
  EXPECT_EQ(plan->starts[1].as_of, (Date{2026, 1, 1}));  // today
  EXPECT_EQ(plan->starts[1].recorded_unix, 77);
  ASSERT_EQ(plan->report.outcomes.size(), 2u);
  EXPECT_THAT(
      plan->report.outcomes[0].note,
      HasSubstr(
          "replaces the start gor 1500 as of 2025-06-01 (import old.csv"));
  EXPECT_EQ(plan->report.added, 2);
  EXPECT_EQ(plan->report.refused, 1);
}

TEST(RatingBook, SetStartOnlyBeforeTheFirstRatedEvent) {
  RatingBook book(RatingSettings{});
  ASSERT_TRUE(book.SetStart(PlayerId{1}, 2000, 2400.0).ok());
  ASSERT_TRUE(book.SetStart(PlayerId{1}, 2100, std::nullopt).ok());  // replaced
  EXPECT_EQ(book.Find(PlayerId{1})->gor, 2100);
  EXPECT_FALSE(book.Find(PlayerId{1})->pro_elo.has_value());
  EXPECT_EQ(book.SetStart(PlayerId{2}, -901, std::nullopt).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(book.ApplyGames({GameBuilder("e", Date{2025, 1, 1}, 1)
                                   .Black(1, "1d")
                                   .White(2, "1k")
                                   .BlackWins()})
                  .ok());
  EXPECT_EQ(book.History(PlayerId{1}).at(0).gor_before, 2100);
  EXPECT_EQ(book.SetStart(PlayerId{1}, 2000, std::nullopt).code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace gorank::ratings
