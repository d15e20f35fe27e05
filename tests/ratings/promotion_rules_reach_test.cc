// Issue #16 section 4, "promotions that can fire": every promotion rule of the
// shipped ratings file is reachable with the shipped competition catalogue.
//   - Catalogue: every category a shipped rule names ("code" or
//     "code/group") is a competition (and group) of the catalogue, and a
//     rank tournament accepts a group naming the rank it awards.
//   - Through the server: for each shipped rule an event of its category is
//     created, played by registered players and closed, and EvaluatePromotions
//     proposes that rule for the expected player. Only the numbers that make
//     the rating and win-count rules slow to reach (15 rated games, 30 wins)
//     are relaxed, and the one rule shipped disabled is enabled; categories
//     and awards are the shipped ones.
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/ratings/ratings_config.h"
#include "services/server/rankd_server.h"
#include "services/tournaments/competition_catalogue.h"
#include "tests/testing/in_process_server.h"

namespace gorank::ratings {
namespace {

using gorank::testing::InProcessServer;

std::vector<std::string> CategoriesOf(const PromotionRule& rule) {
  if (const auto* p = std::get_if<PlacementRule>(&rule.params)) {
    return p->categories;
  }
  if (const auto* p = std::get_if<RankTournamentRule>(&rule.params)) {
    return p->categories;
  }
  return {};
}

TEST(ShippedPromotionRules, EveryCategoryIsACatalogueCompetitionOrGroup) {
  const auto& catalogue = tournaments::CompetitionCatalogue::Default();
  int named = 0;
  for (const PromotionRule& rule : DefaultRatingsConfig().promotion.rules) {
    for (const std::string& category : CategoriesOf(rule)) {
      ++named;
      const size_t slash = category.find('/');
      const std::string code = category.substr(0, slash);
      const tournaments::Competition* c = catalogue.Find(code);
      ASSERT_NE(c, nullptr)
          << rule.id << ": '" << code << "' is not in competitions.tsv";
      if (slash != std::string::npos) {
        const std::string group = category.substr(slash + 1);
        EXPECT_THAT(c->groups, ::testing::Contains(group))
            << rule.id << ": " << category;
      }
    }
  }
  EXPECT_GE(named, 10);
  tournaments::Event rank_event;
  rank_event.name = "Rank tournament";
  rank_event.competition = "rank_tournament";
  for (const char* group : {"5d", "3d", "1d", "1k", "10k"}) {
    rank_event.group = group;
    EXPECT_TRUE(catalogue.CheckEvent(rank_event).ok()) << group;
  }
}

// The shipped file with the slow numbers relaxed and every rule enabled.
std::string ReachableConfig() {
  std::string text = DefaultRatingsConfigText();
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("min_rated_games = 15", "min_rated_games = 2");
  replace("min_events = 3 ", "min_events = 1 ");
  replace("min_days_since_promotion = 180", "min_days_since_promotion = 0");
  replace("wins = { 1p = 30,", "wins = { 1p = 2,");
  replace("enabled = false", "enabled = true");
  return text;
}

struct Side {
  int entrant;  // 1-based entrant number in the event
};

class PromotionRulesReachTest : public ::testing::Test {
 protected:
  PromotionRulesReachTest()
      : server_([](server::ServerConfig& c, const std::string& dir) {
          c.ratings_config_file = dir + "/ratings.toml";
          c.require_review_for_release = false;
          std::ofstream(c.ratings_config_file) << ReachableConfig();
        }) {}

  void SetUp() override {
    registry_ = v1::PlayerRegistry::NewStub(server_.channel());
    events_ = v1::TournamentService::NewStub(server_.channel());
    ratings_ = v1::RatingService::NewStub(server_.channel());
  }

  int64_t Register(const std::string& name, const std::string& rank) {
    v1::RegisterPlayerRequest reg;
    reg.set_name(name);
    reg.set_agency_prefix("110");
    reg.set_gender(v1::GENDER_FEMALE);
    reg.mutable_birth_date()->set_year(1990);
    reg.mutable_birth_date()->set_month(3);
    reg.mutable_birth_date()->set_day(4);
    reg.mutable_initial_rank()->set_notation(rank);
    reg.set_initial_rank_basis("registration");
    v1::RegisterPlayerResponse player;
    grpc::Status s = registry_->RegisterPlayer(
        InProcessServer::Context(server_.admin).get(), reg, &player);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    players_.push_back(player.player().id());
    return player.player().id();
  }

  // An event of `competition` (group) in `kind`, entrants `ids` (declared
  // at their registered rank `ranks`), games (order or round, black, white)
  // each won by black; teams for a relay; closed.
  void Play(const std::string& competition, const std::string& group,
            v1::FormatKind kind, v1::EventLevel level,
            const std::vector<int64_t>& ids,
            const std::vector<std::string>& ranks,
            const std::vector<std::vector<int>>& games,
            const std::vector<std::vector<int>>& teams = {}) {
    v1::Event e;
    e.set_name(competition + " " + group + " " +
               std::to_string(++events_played_));
    e.mutable_start()->set_year(2024);
    e.mutable_start()->set_month(7);
    e.mutable_start()->set_day(events_played_);
    *e.mutable_end() = e.start();
    e.set_organiser_prefix("000");
    e.set_level(level);
    e.set_competition(competition);
    e.set_group(group);
    e.set_sub_event(teams.empty() ? v1::SUB_EVENT_WOMEN_INDIVIDUAL
                                  : v1::SUB_EVENT_WOMEN_TEAM);
    e.set_highest_group(true);
    e.set_shared_places_allowed(true);
    e.mutable_format()->set_kind(kind);
    if (kind == v1::FORMAT_KIND_MATCH) e.mutable_format()->set_best_of(3);
    e.mutable_time()->set_time_class(v1::TIME_CLASS_A);
    v1::CreateEventRequest create;
    *create.mutable_event() = e;
    v1::CreateEventResponse created;
    grpc::Status s = events_->CreateEvent(
        InProcessServer::Context(server_.admin).get(), create, &created);
    ASSERT_TRUE(s.ok()) << e.name() << ": " << s.error_message();
    v1::SaveResultsRequest save;
    save.set_event_id(created.event().id());
    for (size_t i = 0; i < ids.size(); ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(static_cast<int>(i) + 1);
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i + 1));
      en->mutable_rank()->set_notation(ranks[i]);
      en->set_player_id(ids[i]);
    }
    for (size_t t = 0; t < teams.size(); ++t) {
      v1::Team* team = save.mutable_results()->add_teams();
      team->set_id(static_cast<int>(t) + 1);
      team->set_name("Team " + std::to_string(t + 1));
      for (int m : teams[t]) {
        team->add_board_order(m);
        save.mutable_results()->mutable_entrants(m - 1)->set_team_id(
            static_cast<int>(t) + 1);
      }
    }
    for (const std::vector<int>& g : games) {
      v1::Game* game = save.mutable_results()->add_games();
      game->set_round(g[0]);
      game->set_black_entrant_id(g[1]);
      game->set_white_entrant_id(g[2]);
      game->set_colours_known(true);
      game->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
    }
    v1::SaveResultsResponse saved;
    s = events_->SaveResults(InProcessServer::Context(server_.admin).get(),
                             save, &saved);
    ASSERT_TRUE(s.ok()) << e.name() << ": " << s.error_message();
    v1::CloseEventRequest close;
    close.set_event_id(created.event().id());
    v1::CloseEventResponse closed;
    s = events_->CloseEvent(InProcessServer::Context(server_.admin).get(),
                            close, &closed);
    ASSERT_TRUE(s.ok()) << e.name() << ": " << s.error_message();
  }

  InProcessServer server_;
  std::unique_ptr<v1::PlayerRegistry::Stub> registry_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
  std::vector<int64_t> players_;
  int events_played_ = 0;
};

TEST_F(PromotionRulesReachTest, EveryShippedRuleProposesFromAnEvent) {
  using v1::FORMAT_KIND_MATCH;
  using v1::FORMAT_KIND_RELAY;
  using v1::FORMAT_KIND_ROUND_ROBIN;
  const auto kWorld = v1::EVENT_LEVEL_WORLD;
  const auto kNational = v1::EVENT_LEVEL_NATIONAL;
  std::map<std::string, int64_t> expected;  // rule -> player

  // am.rating: a 1k beating two declared 1d players in a club event.
  const int64_t rated = Register("Rated", "1k");
  const int64_t f1 = Register("Filler One", "1d");
  const int64_t f2 = Register("Filler Two", "1d");
  Play("club_event", "", FORMAT_KIND_ROUND_ROBIN, v1::EVENT_LEVEL_CLUB,
       {rated, f1, f2}, {"1d", "1d", "1d"}, {{1, 1, 2}, {2, 1, 3}});
  expected["am.rating"] = rated;

  // am.rank_tournament: 7 of 7 won in the 3d group.
  std::vector<int64_t> rank_ids = {Register("Ranker", "2d")};
  std::vector<std::vector<int>> rank_games;
  for (int i = 2; i <= 8; ++i) {
    rank_ids.push_back(Register("Rank Opponent " + std::to_string(i), "2d"));
    rank_games.push_back({i - 1, 1, i});
  }
  Play("rank_tournament", "3d", FORMAT_KIND_ROUND_ROBIN,
       v1::EVENT_LEVEL_PROVINCIAL, rank_ids, std::vector<std::string>(8, "2d"),
       rank_games);
  expected["am.rank_tournament"] = rank_ids[0];

  // am.national_6d: winner of the National Amateur Open.
  const int64_t open_winner = Register("Open Winner", "3d");
  const int64_t o2 = Register("Open Two", "3d");
  Play("national_amateur_open", "", FORMAT_KIND_ROUND_ROBIN, kNational,
       {open_winner, o2}, {"3d", "3d"}, {{1, 1, 2}});
  expected["am.national_6d"] = open_winner;

  // am.champion_7d: the National Championship's amateur group champion.
  const int64_t champion = Register("Champion", "6d");
  const int64_t c2 = Register("Champion Two", "6d");
  Play("national_championship", "amateur", FORMAT_KIND_ROUND_ROBIN, kNational,
       {champion, c2}, {"6d", "6d"}, {{1, 1, 2}});
  expected["am.champion_7d"] = champion;

  // am.international_7d (shipped disabled): top 3 of the World Amateur.
  const int64_t wac = Register("World Amateur", "5d");
  const int64_t w2 = Register("World Amateur Two", "5d");
  Play("world_amateur_championship", "", FORMAT_KIND_ROUND_ROBIN, kWorld,
       {wac, w2}, {"5d", "5d"}, {{1, 1, 2}});
  expected["am.international_7d"] = wac;

  // pro.wins: a 1p with 2 wins (relaxed from 30).
  const int64_t winner_1p = Register("Young Pro", "1p");
  const int64_t q1 = Register("Veteran One", "9p");
  const int64_t q2 = Register("Veteran Two", "9p");
  Play("club_event", "", FORMAT_KIND_ROUND_ROBIN, v1::EVENT_LEVEL_CLUB,
       {winner_1p, q1, q2}, {"1p", "9p", "9p"}, {{1, 1, 2}, {2, 1, 3}});
  expected["pro.wins"] = winner_1p;

  // pro.world_title and pro.world_runner_up_x2: two Samsung Cups.
  const int64_t title = Register("Title Holder", "5p");
  const int64_t second = Register("Twice Second", "4p");
  const int64_t third = Register("Samsung Third", "9p");
  Play("samsung_cup", "", FORMAT_KIND_ROUND_ROBIN, kWorld,
       {title, second, third}, {"5p", "4p", "9p"},
       {{1, 1, 2}, {2, 1, 3}, {3, 2, 3}});
  Play("lg_cup", "", FORMAT_KIND_ROUND_ROBIN, kWorld, {q1, second, third},
       {"9p", "4p", "9p"}, {{1, 1, 2}, {2, 1, 3}, {3, 2, 3}});
  expected["pro.world_title"] = title;
  expected["pro.world_runner_up_x2"] = second;

  // pro.world_team_streak: the Nongshim Cup relay, finished with 3 wins.
  const int64_t streak = Register("Relay Anchor", "3p");
  std::vector<int64_t> relay = {Register("Relay A1", "9p"),
                                Register("Relay A2", "9p"),
                                Register("Relay A3", "9p"),
                                Register("Relay B1", "9p"),
                                streak,
                                Register("Relay B3", "9p")};
  Play("nongshim_cup", "", FORMAT_KIND_RELAY, kWorld, relay,
       {"9p", "9p", "9p", "9p", "3p", "9p"},
       {{1, 1, 4}, {2, 5, 1}, {3, 5, 2}, {4, 5, 3}}, {{1, 2, 3}, {4, 5, 6}});
  expected["pro.world_team_streak"] = streak;

  // pro.bilateral_title: the China-Korea title-holder match, best of 3.
  const int64_t bilateral = Register("Match Winner", "3p");
  const int64_t loser = Register("Match Loser", "9p");
  Play("china_korea_title_match", "", FORMAT_KIND_MATCH, kWorld,
       {bilateral, loser}, {"3p", "9p"}, {{1, 1, 2}, {2, 1, 2}});
  expected["pro.bilateral_title"] = bilateral;

  // pro.women_world_title and pro.women_world_runner_up_x2.
  const int64_t women_title = Register("Women Champion", "2p");
  const int64_t women_second = Register("Women Twice Second", "2p");
  const int64_t women_third = Register("Women Third", "9p");
  Play("qionglongshan_cup", "", FORMAT_KIND_ROUND_ROBIN, kWorld,
       {women_title, women_second, women_third}, {"2p", "2p", "9p"},
       {{1, 1, 2}, {2, 1, 3}, {3, 2, 3}});
  Play("wu_qingyuan_cup", "", FORMAT_KIND_ROUND_ROBIN, kWorld,
       {women_third, women_second, q2}, {"9p", "2p", "9p"},
       {{1, 1, 2}, {2, 1, 3}, {3, 2, 3}});
  expected["pro.women_world_title"] = women_title;
  expected["pro.women_world_runner_up_x2"] = women_second;

  // Every shipped rule has a case above.
  std::set<std::string> shipped;
  for (const PromotionRule& r : DefaultRatingsConfig().promotion.rules) {
    shipped.insert(r.id);
  }
  std::set<std::string> covered;
  for (const auto& [rule, player] : expected) covered.insert(rule);
  EXPECT_EQ(covered, shipped);

  server_.clock().SetDate(Date{2024, 9, 1});
  v1::EvaluatePromotionsRequest req;
  for (int64_t id : players_) req.add_player_ids(id);
  v1::EvaluatePromotionsResponse resp;
  grpc::Status s = ratings_->EvaluatePromotions(
      InProcessServer::Context(server_.admin).get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  std::map<std::string, std::set<int64_t>> proposed;
  for (const v1::PromotionProposal& p : resp.proposals()) {
    proposed[p.rule_id()].insert(p.player_id());
  }
  for (const auto& [rule, player] : expected) {
    EXPECT_TRUE(proposed[rule].count(player))
        << rule << " was not proposed for player " << player;
  }
}

}  // namespace
}  // namespace gorank::ratings
