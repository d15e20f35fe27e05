#include "services/ratings/promotion.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ratings/game_builder.h"

namespace gorank::ratings {
namespace {

using registry::Rank;
using testing::D;
using testing::GameBuilder;
using ::testing::HasSubstr;

const PromotionConfig& Rules() { return DefaultRatingsConfig().promotion; }

RatingChange Change(const std::string& event, Date date, double after,
                    int games) {
  RatingChange c;
  c.event = EventKey{date, 0, event};
  c.gor_after = after;
  c.games = games;
  return c;
}

// A 1k promoted on 2023-01-01 with 15 rated games in 3 events since then,
// ending at `rating`; evaluated on 2023-06-30 (180 days later).
PlayerRecord RatedKyu(double rating) {
  PlayerRecord r;
  r.player = PlayerId{11};
  r.rank = Rank::FromString("1k");
  r.last_promotion = D(2023, 1, 1);
  r.rating_history = {Change("old", D(2022, 12, 1), 2300, 40),
                      Change("e1", D(2023, 2, 1), 1990, 5),
                      Change("e2", D(2023, 3, 1), 2020, 5),
                      Change("e3", D(2023, 4, 1), rating, 5)};
  return r;
}
const Date kAsOf = D(2023, 6, 30);

const RuleVerdict& Verdict(const std::vector<RuleVerdict>& all,
                           const std::string& id) {
  for (const RuleVerdict& v : all) {
    if (v.rule_id == id) return v;
  }
  static const RuleVerdict kNone;
  ADD_FAILURE() << "no verdict for " << id;
  return kNone;
}

RuleVerdict Explain(const PlayerRecord& record, const std::string& rule,
                    Date as_of = kAsOf) {
  absl::StatusOr<std::vector<RuleVerdict>> all =
      ExplainPlayer(Rules(), record, as_of);
  EXPECT_TRUE(all.ok()) << all.status();
  return all.ok() ? Verdict(*all, rule) : RuleVerdict{};
}

TEST(AmateurRatingRule, Boundaries) {
  struct Case {
    const char* name;
    double rating;
    int drop_games;   // taken from the last event
    bool drop_event;  // merge e2 into e1
    Date as_of;
    bool met;
    const char* why;
  };
  const Case cases[] = {
      {"exactly at threshold", 2050.0, 0, false, kAsOf, true,
       "meets the rule for 1d"},
      {"just below", 2049.99, 0, false, kAsOf, false,
       "rating 2049.99 is below 2050"},
      {"one game short", 2100, 1, false, kAsOf, false,
       "14 rated games since the last promotion, 15 needed"},
      {"one event short", 2100, 0, true, kAsOf, false,
       "2 rated events since the last promotion, 3 needed"},
      {"one day short", 2100, 0, false, D(2023, 6, 29), false,
       "179 days since the last promotion, 180 needed"},
  };
  for (const Case& c : cases) {
    PlayerRecord r = RatedKyu(c.rating);
    r.rating_history[3].games -= c.drop_games;
    if (c.drop_event) {
      r.rating_history[1].games += r.rating_history[2].games;
      r.rating_history.erase(r.rating_history.begin() + 2);
    }
    const RuleVerdict v = Explain(r, "am.rating", c.as_of);
    EXPECT_TRUE(v.applicable) << c.name;
    EXPECT_EQ(v.met, c.met) << c.name;
    EXPECT_THAT(v.explanation, HasSubstr(c.why)) << c.name;
    if (c.met) {
      EXPECT_EQ(*v.proposed, Rank::FromString("1d"));
      EXPECT_DOUBLE_EQ(*v.evidence.rating, 2050.0);
      EXPECT_DOUBLE_EQ(*v.evidence.threshold, 2050.0);
      EXPECT_EQ(v.evidence.rated_games, 15);
      EXPECT_EQ(v.evidence.rated_events, 3);
      EXPECT_EQ(*v.evidence.days_since_promotion, 180);
      EXPECT_THAT(v.evidence.event_ids,
                  ::testing::ElementsAre("e1", "e2", "e3"));
    }
  }
}

TEST(AmateurRatingRule, OneGradeAtATimeAndOnlyUpToMaxTarget) {
  PlayerRecord r = RatedKyu(2600);  // a 6d rating, but one grade per promotion
  EXPECT_EQ(*Explain(r, "am.rating").proposed, Rank::FromString("1d"));
  r.rank = Rank::FromString("4d");
  EXPECT_EQ(*Explain(r, "am.rating").proposed, Rank::FromString("5d"));
  r.rank = Rank::FromString("5d");
  const RuleVerdict v = Explain(r, "am.rating");
  EXPECT_FALSE(v.applicable);
  EXPECT_FALSE(v.met);
  r.rank = Rank::FromString("3p");
  EXPECT_FALSE(Explain(r, "am.rating").applicable);
}

TEST(AmateurRatingRule, NeverDemotes) {
  // A 3d whose rating has fallen to the 1d band: nothing is proposed (no
  // rule ever lowers a rank), and the verdict says why.
  PlayerRecord r = RatedKyu(2060.0);
  r.rank = Rank::FromString("3d");
  const RuleVerdict v = Explain(r, "am.rating");
  EXPECT_FALSE(v.met);
  EXPECT_FALSE(v.proposed.has_value());
  absl::StatusOr<std::vector<Proposal>> all =
      EvaluatePromotions(Rules(), {r}, kAsOf);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_TRUE(all->empty());
}

TEST(AmateurRatingRule, FactsAfterTheEvaluationDateAreIgnored) {
  PlayerRecord r = RatedKyu(2010);
  r.rating_history.push_back(Change("later", D(2023, 7, 5), 2200, 5));
  EXPECT_FALSE(Explain(r, "am.rating").met);
  EXPECT_TRUE(Explain(r, "am.rating", D(2023, 7, 5)).met);
}

TEST(AmateurRatingRule, NeverPromotedHasNoWaitingTime) {
  PlayerRecord r = RatedKyu(2060);
  r.last_promotion.reset();  // now the "old" event's 40 games count too
  const RuleVerdict v = Explain(r, "am.rating", D(2023, 4, 2));
  EXPECT_TRUE(v.met) << v.explanation;
  EXPECT_EQ(v.evidence.rated_games, 55);
  EXPECT_FALSE(v.evidence.days_since_promotion.has_value());
}

PlayerRecord RankTournamentPlayer(int games, int wins, int draws,
                                  const char* target = "1d") {
  PlayerRecord r;
  r.player = PlayerId{21};
  r.rank = Rank::FromString("2k");
  r.last_promotion = D(2022, 1, 1);
  EventResult e;
  e.event_id = "city-2023";
  e.date = D(2023, 5, 1);
  e.category = "rank_tournament";
  e.games = games;
  e.wins = wins;
  e.draws = draws;
  e.group_target_rank = Rank::FromString(target);
  r.results = {e};
  return r;
}

TEST(RankTournamentRule, GamesAndWinRate) {
  struct Case {
    const char* name;
    int games, wins, draws;
    const char* target;
    bool met;
    const char* why;
  };
  const Case cases[] = {
      {"exactly 70% in 10", 10, 7, 0, "1d", true,
       "7 wins, 0 draws in 10 games"},
      {"7 of 7", 7, 7, 0, "1d", true, "meets the rule for 1d"},
      {"one game short", 6, 6, 0, "1d", false, "6 games, 7 needed"},
      {"69%: 9 of 13", 13, 9, 0, "1d", false, "win rate 69.2%, 70.0% needed"},
      {"draws count half", 10, 6, 2, "1d", true, "6 wins, 2 draws"},
      {"group above limit", 9, 9, 0, "6d", false, "above this rule's limit 5d"},
      {"group not above rank", 9, 9, 0, "2k", false,
       "no rank-tournament result above the current rank"},
  };
  for (const Case& c : cases) {
    const RuleVerdict v =
        Explain(RankTournamentPlayer(c.games, c.wins, c.draws, c.target),
                "am.rank_tournament");
    EXPECT_TRUE(v.applicable) << c.name;
    EXPECT_EQ(v.met, c.met) << c.name << ": " << v.explanation;
    EXPECT_THAT(v.explanation, HasSubstr(c.why)) << c.name;
  }
}

TEST(RankTournamentRule, PicksTheHighestQualifyingGroupAndIgnoresOldResults) {
  PlayerRecord r = RankTournamentPlayer(8, 7, 0, "1d");
  EventResult better = r.results[0];
  better.event_id = "province-2023";
  better.group_target_rank = Rank::FromString("2d");
  EventResult old = better;
  old.event_id = "old";
  old.date = D(2021, 6, 1);  // before the last promotion
  old.group_target_rank = Rank::FromString("3d");
  r.results.push_back(better);
  r.results.push_back(old);
  const RuleVerdict v = Explain(r, "am.rank_tournament");
  EXPECT_EQ(*v.proposed, Rank::FromString("2d"));
  EXPECT_THAT(v.evidence.event_ids, ::testing::ElementsAre("province-2023"));
}

PlayerRecord Placed(const char* rank, const char* category,
                    std::vector<int> places) {
  PlayerRecord r;
  r.player = PlayerId{31};
  r.rank = Rank::FromString(rank);
  int n = 0;
  for (int place : places) {
    EventResult e;
    e.event_id = std::string(category) + std::to_string(++n);
    e.date = D(2020 + n, 10, 1);
    e.category = category;
    e.placement = place;
    r.results.push_back(e);
  }
  return r;
}

TEST(PlacementRules, AwardsAndBoundaries) {
  struct Case {
    const char* name;
    const char* rule;
    const char* rank;
    const char* category;
    std::vector<int> places;
    bool applicable;
    bool met;
  };
  const Case cases[] = {
      {"national 6th",
       "am.national_6d",
       "3d",
       "national_amateur_open",
       {6},
       true,
       true},
      {"national 7th",
       "am.national_6d",
       "3d",
       "national_amateur_open",
       {7},
       true,
       false},
      {"national, kyu player",
       "am.national_6d",
       "1k",
       "national_amateur_open",
       {1},
       true,
       true},
      {"national, already 6d",
       "am.national_6d",
       "6d",
       "national_amateur_open",
       {1},
       false,
       false},
      {"national, 7d never demoted",
       "am.national_6d",
       "7d",
       "national_amateur_open",
       {1},
       false,
       false},
      {"other category",
       "am.national_6d",
       "3d",
       "provincial_amateur",
       {1},
       true,
       false},
      {"champion", "am.champion_7d", "6d", "evening_news_cup", {1}, true, true},
      {"champion runner-up",
       "am.champion_7d",
       "6d",
       "evening_news_cup",
       {2},
       true,
       false},
      {"world title", "pro.world_title", "5p", "samsung_cup", {1}, true, true},
      {"world title, amateur",
       "pro.world_title",
       "7d",
       "samsung_cup",
       {1},
       false,
       false},
      {"world title, already 9p",
       "pro.world_title",
       "9p",
       "samsung_cup",
       {1},
       false,
       false},
      {"two runner-ups",
       "pro.world_runner_up_x2",
       "4p",
       "samsung_cup",
       {2, 2},
       true,
       true},
      {"runner-up and semi",
       "pro.world_runner_up_x2",
       "4p",
       "samsung_cup",
       {2, 3},
       true,
       false},
      {"bilateral",
       "pro.bilateral_title",
       "3p",
       "china_korea_title_match",
       {1},
       true,
       true},
      {"bilateral, 8p",
       "pro.bilateral_title",
       "8p",
       "china_korea_title_match",
       {1},
       false,
       false},
      {"women's title",
       "pro.women_world_title",
       "2p",
       "qionglongshan_cup",
       {1},
       true,
       true},
      {"unplaced", "pro.world_title", "5p", "samsung_cup", {0}, true, false},
  };
  for (const Case& c : cases) {
    const RuleVerdict v = Explain(Placed(c.rank, c.category, c.places), c.rule);
    EXPECT_EQ(v.applicable, c.applicable) << c.name << ": " << v.explanation;
    EXPECT_EQ(v.met, c.met) << c.name << ": " << v.explanation;
    if (c.met) {
      EXPECT_EQ(*v.proposed,
                std::get<PlacementRule>(Rules().Find(c.rule)->params).award)
          << c.name;
    }
  }
}

TEST(PlacementRules, DisabledRuleGivesNoVerdict) {
  absl::StatusOr<std::vector<RuleVerdict>> all = ExplainPlayer(
      Rules(), Placed("5d", "world_amateur_championship", {1}), kAsOf);
  ASSERT_TRUE(all.ok());
  for (const RuleVerdict& v : *all) EXPECT_NE(v.rule_id, "am.international_7d");
}

PlayerRecord Pro(const char* rank, int wins, int losses) {
  PlayerRecord r;
  r.player = PlayerId{41};
  r.rank = Rank::FromString(rank);
  r.last_promotion = D(2020, 1, 1);
  int64_t id = 0;
  for (int i = 0; i < wins + losses; ++i) {
    GameBuilder g("league", D(2021, 1, 1).AddDays(i), ++id);
    g.Black(41, rank).White(99, "5p");
    if (i < wins)
      g.BlackWins();
    else
      g.WhiteWins();
    r.games.push_back(g);
  }
  return r;
}

TEST(ProWinsRule, TableBoundaries) {
  struct Case {
    const char* rank;
    int wins;
    bool met;
    const char* to;
  };
  const Case cases[] = {{"1p", 30, true, "2p"},  {"1p", 29, false, ""},
                        {"4p", 70, true, "5p"},  {"4p", 69, false, ""},
                        {"8p", 200, true, "9p"}, {"8p", 199, false, ""}};
  for (const Case& c : cases) {
    const RuleVerdict v = Explain(Pro(c.rank, c.wins, 5), "pro.wins");
    EXPECT_TRUE(v.applicable);
    EXPECT_EQ(v.met, c.met) << c.rank << " " << c.wins << ": " << v.explanation;
    EXPECT_EQ(v.evidence.wins, c.wins);
    EXPECT_EQ(v.evidence.games, c.wins + 5);
    if (c.met) {
      EXPECT_EQ(v.proposed->ToString(), c.to);
    }
  }
  EXPECT_FALSE(Explain(Pro("9p", 500, 0), "pro.wins").applicable);
  EXPECT_FALSE(Explain(Pro("1p", 0, 0), "am.rating").applicable);
}

TEST(ProWinsRule, ForfeitsByesAndWinsBeforeThePromotionDoNotCount) {
  PlayerRecord r = Pro("1p", 29, 0);
  r.games.push_back(GameBuilder("x", D(2021, 6, 1), 1)
                        .Black(41, "1p")
                        .White(98, "2p")
                        .Forfeit()
                        .BlackWins());
  r.games.push_back(GameBuilder("x", D(2021, 6, 1), 2).Black(41, "1p").Bye());
  r.games.push_back(GameBuilder("y", D(2019, 6, 1), 1)
                        .White(41, "1p")
                        .Black(98, "2p")
                        .WhiteWins());
  EXPECT_FALSE(Explain(r, "pro.wins").met);
  r.games.push_back(GameBuilder("z", D(2021, 7, 1), 1)
                        .White(41, "1p")
                        .Black(98, "2p")
                        .WhiteWins());
  EXPECT_TRUE(Explain(r, "pro.wins").met);
}

TEST(EvaluatePromotions, ListsMetRulesSortedWithEvidence) {
  std::vector<PlayerRecord> records = {
      Placed("4p", "samsung_cup", {1, 2}), RatedKyu(2100),
      Placed("3d", "national_amateur_open", {3})};
  records[2].player = PlayerId{5};
  absl::StatusOr<std::vector<Proposal>> p =
      EvaluatePromotions(Rules(), records, kAsOf);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->size(), 4u);
  EXPECT_EQ((*p)[0].player, PlayerId{5});
  EXPECT_EQ((*p)[0].rule_id, "am.national_6d");
  EXPECT_EQ((*p)[0].to, Rank::FromString("6d"));
  EXPECT_EQ((*p)[1].player, PlayerId{11});
  EXPECT_EQ((*p)[1].rule_id, "am.rating");
  EXPECT_EQ((*p)[1].from, Rank::FromString("1k"));
  EXPECT_EQ((*p)[1].to, Rank::FromString("1d"));
  EXPECT_THAT((*p)[1].rule_description,
              HasSubstr("Amateur promotion by rating"));
  EXPECT_EQ((*p)[2].rule_id,
            "pro.world_runner_up_x2");  // same rank: by rule id
  EXPECT_EQ((*p)[3].rule_id, "pro.world_title");
  EXPECT_EQ((*p)[3].evidence.count, 1);
  EXPECT_EQ((*p)[2].evidence.count, 2);
}

TEST(EvaluatePromotions, BadRecordsAreInvalidArgument) {
  PlayerRecord late = RatedKyu(2100);
  late.last_promotion = D(2024, 1, 1);
  PlayerRecord stranger = Pro("1p", 1, 0);
  stranger.games.push_back(GameBuilder("q", D(2021, 1, 1), 1)
                               .Black(7, "1p")
                               .White(8, "1p")
                               .BlackWins());
  PlayerRecord counts = RankTournamentPlayer(3, 3, 1);
  struct Case {
    const char* name;
    std::vector<PlayerRecord> records;
    Date as_of;
    const char* why;
  };
  const Case cases[] = {
      {"promotion after as_of", {late}, kAsOf, "last_promotion 2024-01-01"},
      {"foreign game", {stranger}, kAsOf, "does not involve the player"},
      {"wins + draws > games",
       {counts},
       kAsOf,
       "more wins and draws than games"},
      {"duplicate", {RatedKyu(1), RatedKyu(2)}, kAsOf, "appears twice"},
      {"bad as_of", {RatedKyu(1)}, D(2023, 2, 29), "not a calendar date"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::vector<Proposal>> p =
        EvaluatePromotions(Rules(), c.records, c.as_of);
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(p.status().message(), HasSubstr(c.why)) << c.name;
  }
}

}  // namespace
}  // namespace gorank::ratings
