#include "services/ratings/ratings_config.h"

#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gorank::ratings {
namespace {

using registry::Rank;
using ::testing::HasSubstr;

TEST(DefaultRatingsConfig, ParsesWithTheDocumentedDefaults) {
  const RatingsConfig& c = DefaultRatingsConfig();
  EXPECT_EQ(c.rating, RatingSettings{});
  std::vector<std::string> ids;
  for (const PromotionRule& r : c.promotion.rules) ids.push_back(r.id);
  EXPECT_THAT(ids,
              ::testing::ElementsAre(
                  "am.rating", "am.rank_tournament", "am.national_6d",
                  "am.champion_7d", "am.international_7d", "pro.wins",
                  "pro.world_title", "pro.world_runner_up_x2",
                  "pro.world_team_streak", "pro.bilateral_title",
                  "pro.women_world_title", "pro.women_world_runner_up_x2"));
  for (const PromotionRule& r : c.promotion.rules) {
    EXPECT_FALSE(r.description.empty()) << r.id;
    EXPECT_GT(r.line, 0) << r.id;
  }
  EXPECT_FALSE(c.promotion.Find("am.international_7d")->enabled);

  const auto& wins =
      std::get<ProWinsRule>(c.promotion.Find("pro.wins")->params);
  EXPECT_EQ(wins.wins_by_level, (std::map<int, int>{{1, 30},
                                                    {2, 40},
                                                    {3, 50},
                                                    {4, 70},
                                                    {5, 90},
                                                    {6, 120},
                                                    {7, 150},
                                                    {8, 200}}));
  const auto& rating =
      std::get<AmateurRatingRule>(c.promotion.Find("am.rating")->params);
  EXPECT_EQ(rating.max_target, Rank::FromString("5d"));
  EXPECT_EQ(rating.min_rated_games, 15);
  EXPECT_EQ(rating.min_events, 3);
  EXPECT_EQ(rating.min_days_since_promotion, 180);
  const auto& runner_up = std::get<PlacementRule>(
      c.promotion.Find("pro.world_runner_up_x2")->params);
  EXPECT_EQ(runner_up.award, Rank::FromString("9p"));
  EXPECT_EQ(runner_up.placement_max, 2);
  EXPECT_EQ(runner_up.min_count, 2);
  EXPECT_STREQ(c.promotion.Find("am.national_6d")->KindName(), "placement");
}

TEST(DefaultRatingsConfig, CompiledTextIsTheShippedFile) {
  std::ifstream in(GORANK_RATINGS_CONFIG_FILE);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(DefaultRatingsConfigText(), text.str());
  absl::StatusOr<RatingsConfig> loaded =
      LoadRatingsConfigFile(GORANK_RATINGS_CONFIG_FILE);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->promotion.rules.size(),
            DefaultRatingsConfig().promotion.rules.size());
}

TEST(RatingsConfig, MissingFileIsNotFound) {
  EXPECT_EQ(LoadRatingsConfigFile("/nonexistent/ratings.toml").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(RatingsConfig, SettingsAreRead) {
  absl::StatusOr<RatingsConfig> c = ParseRatingsConfig(R"(
version = 1
[rating]
floor = 100
class_weights = { B = 0.8 }
weight_applies_to_bonus = false
[pro_rating]
k = 24
seed_overrides = { "17" = 2600 }
)");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_DOUBLE_EQ(c->rating.egf.floor, 100);
  EXPECT_DOUBLE_EQ(c->rating.egf.class_weights[1], 0.8);
  EXPECT_DOUBLE_EQ(c->rating.egf.class_weights[2], 0.5);
  EXPECT_FALSE(c->rating.egf.weight_applies_to_bonus);
  EXPECT_DOUBLE_EQ(c->rating.pro.k, 24);
  EXPECT_DOUBLE_EQ(c->rating.pro.seed_overrides.at(PlayerId{17}), 2600);
  EXPECT_TRUE(c->promotion.rules.empty());
}

constexpr const char* kRuleHead =
    "version = 1\n[[rule]]\nid = \"r1\"\ndescription = \"d\"\n";

struct BadConfig {
  const char* name;
  std::string text;
  int line;             // expected position "cfg:<line>:"; 0: not checked
  const char* message;  // expected in the error
};

TEST(RatingsConfig, BadConfigsAreInvalidArgumentNamingKeyAndLine) {
  const std::string head = kRuleHead;
  const BadConfig cases[] = {
      {"syntax", "version = 1\n[rating\n", 2, ""},
      {"no version", "[rating]\n", 0, "key 'version': is required"},
      {"version 2", "version = 2\n", 1,
       "top level: key 'version': this build reads version 1 only"},
      {"unknown top key", "version = 1\nratings = 3\n", 2,
       "top level: key 'ratings': unknown key"},
      {"unknown system", "version = 1\n[rating]\nsystem = \"glicko2\"\n", 3,
       "[rating]: key 'system': only \"egf2021\""},
      {"weight > 1", "version = 1\n[rating]\nclass_weights = { A = 1.5 }\n", 3,
       "[rating]: class_weights: key 'A': must be a finite number between 0 "
       "and 1"},
      {"weight class E", "version = 1\n[rating]\nclass_weights = { E = 0.1 }\n",
       3, "key 'E': unknown key"},
      {"k string", "version = 1\n[pro_rating]\nk = \"16\"\n", 3,
       "[pro_rating]: key 'k': must be a number"},
      {"override id",
       "version = 1\n[pro_rating]\nseed_overrides = { abc = 2600 }\n", 3,
       "key 'abc': must be a player id"},
      {"rule not array", "version = 1\n[rule]\nid = \"x\"\n", 2,
       "key 'rule': must be written as [[rule]]"},
      {"no id", "version = 1\n[[rule]]\nkind = \"placement\"\n", 2,
       "rule #1: key 'id': is required"},
      {"no kind", head, 2, "rule 'r1': key 'kind': is required"},
      {"bad kind", head + "kind = \"lottery\"\n", 5,
       "rule 'r1': key 'kind': unknown rule kind \"lottery\""},
      {"typo key",
       head + "kind = \"placement\"\ncategories = [\"x\"]\nplacement_max = "
              "1\naward = \"6d\"\nmin_cout = 2\n",
       9, "rule 'r1': key 'min_cout': unknown key"},
      {"missing award",
       head + "kind = \"placement\"\ncategories = [\"x\"]\nplacement_max = 1\n",
       2, "rule 'r1': key 'award': is required"},
      {"bad rank",
       head + "kind = \"placement\"\ncategories = [\"x\"]\nplacement_max = "
              "1\naward = \"11d\"\n",
       8, "rule 'r1': key 'award': '11d' is not a rank"},
      {"8d award",
       head + "kind = \"placement\"\ncategories = [\"x\"]\nplacement_max = "
              "1\naward = \"8d\"\n",
       8, "8d is honorary"},
      {"placement 0",
       head + "kind = \"placement\"\ncategories = [\"x\"]\nplacement_max = "
              "0\naward = \"6d\"\n",
       7, "key 'placement_max': must be between 1 and"},
      {"empty categories",
       head + "kind = \"placement\"\ncategories = []\nplacement_max = 1\naward "
              "= \"6d\"\n",
       6, "key 'categories': must be a non-empty array"},
      {"pro target",
       head + "kind = \"amateur_rating\"\nmax_target = \"3p\"\nmin_rated_games "
              "= 1\nmin_events = 1\nmin_days_since_promotion = 0\n",
       6, "key 'max_target': must be an amateur rank"},
      {"negative games",
       head + "kind = \"amateur_rating\"\nmax_target = \"3d\"\nmin_rated_games "
              "= -1\nmin_events = 1\nmin_days_since_promotion = 0\n",
       7, "rule 'r1': key 'min_rated_games': must be between 0"},
      {"win rate",
       head + "kind = \"rank_tournament\"\ncategories = [\"rt\"]\nmin_games = "
              "7\nmin_win_rate = 70\nmax_award = \"5d\"\n",
       8, "key 'min_win_rate': must be a finite number between 0 and 1"},
      {"wins 9p", head + "kind = \"pro_wins\"\nwins = { 9p = 10 }\n", 6,
       "rule 'r1': wins: key '9p': must be a professional rank from 1p to 8p"},
      {"wins 0", head + "kind = \"pro_wins\"\nwins = { 1p = 0 }\n", 6,
       "rule 'r1': wins: key '1p': must be between 1"},
      {"duplicate id",
       head + "kind = \"pro_wins\"\nwins = { 1p = 3 }\n[[rule]]\nid = "
              "\"r1\"\ndescription = \"d\"\nkind = \"pro_wins\"\nwins = { 1p = "
              "3 }\n",
       8, "rule 'r1': key 'id': rule id is used twice (first at line 2)"},
      {"enabled string",
       head + "enabled = \"no\"\nkind = \"pro_wins\"\nwins = { 1p = 3 }\n", 5,
       "key 'enabled': must be true or false"},
  };
  for (const BadConfig& c : cases) {
    absl::StatusOr<RatingsConfig> parsed = ParseRatingsConfig(c.text, "cfg");
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument)
        << c.name;
    const std::string message(parsed.status().message());
    EXPECT_THAT(message, HasSubstr(c.message)) << c.name;
    if (c.line > 0) {
      EXPECT_THAT(message,
                  ::testing::StartsWith("cfg:" + std::to_string(c.line) + ":"))
          << c.name;
    }
  }
}

}  // namespace
}  // namespace gorank::ratings
