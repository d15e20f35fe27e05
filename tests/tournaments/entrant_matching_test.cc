// Linking result-file rows to the registry and partial edits of results:
// pure domain tests over a fake directory (issue #16 sections 1 and 2).
#include "services/tournaments/entrant_matching.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/results_edit.h"

namespace gorank::tournaments {
namespace {

using ::testing::HasSubstr;

registry::Rank R(const char* text) { return *registry::Rank::Parse(text); }

class FakeDirectory final : public PlayerDirectory {
 public:
  void Add(int64_t id, std::string name, std::string latin, std::string agency,
           const char* rank) {
    players_.push_back({registry::PlayerId{id},
                        std::move(name),
                        std::move(latin),
                        std::move(agency),
                        {"Beijing Go Association"},
                        R(rank)});
  }
  absl::StatusOr<RegisteredPlayer> Get(registry::PlayerId id) const override {
    for (const RegisteredPlayer& p : players_) {
      if (p.id == id) return p;
    }
    return absl::NotFoundError("no player " + std::to_string(id.value));
  }
  absl::StatusOr<std::vector<RegisteredPlayer>> FindByName(
      const std::string& name) const override {
    std::vector<RegisteredPlayer> out;
    for (const RegisteredPlayer& p : players_) {
      if (p.name.rfind(name, 0) == 0 || p.latin_name.rfind(name, 0) == 0)
        out.push_back(p);
    }
    return out;
  }

 private:
  std::vector<RegisteredPlayer> players_;
};

Entrant Row(int id, std::string family, std::string given, const char* rank,
            std::string club = "110") {
  Entrant e;
  e.id = EntrantId{id};
  e.family_name = std::move(family);
  e.given_name = std::move(given);
  e.rank = R(rank);
  e.club = std::move(club);
  return e;
}

class MatchingTest : public ::testing::Test {
 protected:
  MatchingTest() {
    dir_.Add(1, "王磊", "Wang Lei", "110", "3d");
    dir_.Add(2, "李伟", "Li Wei", "110", "2d");
    dir_.Add(3, "李伟", "Li Wei", "310", "2d");  // a namesake elsewhere
    dir_.Add(4, "张三", "Zhang San", "110", "1d");
    dir_.Add(5, "陈晨", "Chen Chen", "110", "1d");
    dir_.Add(6, "陈晨", "Chen Chen", "110", "1d");  // same name, agency, rank
    file_.results.entrants = {
        Row(1, "WANG", "Lei", "3d"),           // Latin, case
        Row(2, "Li", "Wei", "2d"),             // agency decides
        Row(3, "张", "三", "2d"),              // Chinese; rank differs
        Row(4, "Chen", "Chen", "1d"),          // two fit
        Row(5, "Nobody", "Here", "5k"),        // unknown
        Row(6, "Lei", "Wang", "3d", "xxxx")};  // given first
    file_.row_lines = {11, 12, 13, 14, 15, 16};
  }
  FakeDirectory dir_;
  ResultFile file_;
};

TEST_F(MatchingTest, ExactMatchesLinkTheRestIsListed) {
  file_.results.entrants.pop_back();
  auto m = MatchRows(file_, dir_, {});
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->size(), 5u);
  EXPECT_EQ((*m)[0].state, RowMatchState::kMatched);
  EXPECT_EQ((*m)[0].player_id, registry::PlayerId{1});
  EXPECT_EQ((*m)[0].line, 11);
  EXPECT_EQ((*m)[1].state,
            RowMatchState::kMatched);  // 310's Li Wei differs in agency
  EXPECT_EQ((*m)[1].player_id, registry::PlayerId{2});
  EXPECT_EQ((*m)[1].candidates.size(), 2u);
  EXPECT_EQ((*m)[2].state,
            RowMatchState::kAmbiguous);  // name fits, rank does not
  EXPECT_THAT((*m)[2].candidates[0].differs, HasSubstr("registered rank 1d"));
  EXPECT_EQ((*m)[3].state, RowMatchState::kAmbiguous);
  EXPECT_EQ((*m)[3].candidates.size(), 2u);
  EXPECT_EQ((*m)[4].state, RowMatchState::kUnknown);

  EventResults results = file_.results;
  absl::Status refused = ApplyMatches(*m, false, results);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(
      std::string(refused.message()),
      HasSubstr("3 row(s) not linked to a registered player, nothing stored"));
  EXPECT_THAT(
      std::string(refused.message()),
      HasSubstr(
          "rows: 3 张三 (players 4); 4 Chen Chen (players 5, 6); 5 Nobody Here "
          "(unknown)"));
  EXPECT_THAT(DescribeRowMatch((*m)[3]),
              HasSubstr("player 5 陈晨 / Chen Chen 110 1d"));
  EXPECT_FALSE(results.entrants[0].player_id.has_value());  // nothing changed
  ASSERT_TRUE(ApplyMatches(*m, true, results).ok());
  EXPECT_EQ(results.entrants[0].player_id, registry::PlayerId{1});
  EXPECT_FALSE(results.entrants[2].player_id.has_value());
  EXPECT_EQ((*m)[4].state, RowMatchState::kGuest);
}

TEST_F(MatchingTest, ResolutionsLinkAndDeclareGuests) {
  file_.results.entrants.pop_back();
  auto m = MatchRows(file_, dir_, {{3, 4, false}, {4, 6, false}, {5, 0, true}});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)[2].state, RowMatchState::kLinked);
  EXPECT_EQ((*m)[3].player_id, registry::PlayerId{6});
  EXPECT_EQ((*m)[4].state, RowMatchState::kGuest);
  EventResults results = file_.results;
  ASSERT_TRUE(ApplyMatches(*m, false, results).ok());
  EXPECT_EQ(results.entrants[2].player_id, registry::PlayerId{4});
  EXPECT_FALSE(results.entrants[4].player_id.has_value());
}

TEST_F(MatchingTest, BadResolutionsAndOnePlayerOnTwoRowsAreRefused) {
  auto m =
      MatchRows(file_, dir_, {{9, 1, false}, {3, 0, false}, {4, 99, false}});
  ASSERT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(m.status().message()), HasSubstr("rows are 1..6"));
  EXPECT_THAT(std::string(m.status().message()),
              HasSubstr("either a player id"));
  EXPECT_THAT(std::string(m.status().message()),
              HasSubstr("player 99 is not registered"));
  // Row 6 ("Lei Wang", given name first) is Wang Lei too: two rows, one player.
  m = MatchRows(file_, dir_, {});
  ASSERT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(m.status().message()),
              HasSubstr("row 6 (line 16): player 1 is already row 1"));
}

TEST_F(MatchingTest, CsvPlayerIdsAreCheckedNotTrusted) {
  file_.results.entrants.resize(2);
  file_.results.entrants[0].player_id = registry::PlayerId{4};
  file_.results.entrants[1].player_id = registry::PlayerId{77};
  auto m = MatchRows(file_, dir_, {});
  ASSERT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(m.status().message()),
              HasSubstr("row 2 (line 12): player 77"));
  file_.results.entrants[1].player_id = registry::PlayerId{2};
  m = MatchRows(file_, dir_, {});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ((*m)[0].state, RowMatchState::kFileId);
  EXPECT_EQ((*m)[0].player_id, registry::PlayerId{4});
  // Row 1 says WANG Lei but id 4 is 张三: linked, the difference shown.
  EXPECT_THAT((*m)[0].candidates[0].differs,
              HasSubstr("registered as 张三 / Zhang San"));
  EXPECT_EQ((*m)[1].candidates[0].differs, "");
}

Game G(int round, int black, int white, Outcome o) {
  Game g;
  g.round = round;
  g.black = EntrantId{black};
  g.white = EntrantId{white};
  g.outcome = o;
  return g;
}

TEST_F(MatchingTest, AnEditChangesOnlyWhatItNames) {
  EventResults before;
  before.entrants = {Row(1, "A", "a", "1d"), Row(2, "B", "b", "1d"),
                     Row(3, "C", "c", "1d"), Row(4, "D", "d", "1d")};
  before.games = {G(1, 1, 2, Outcome::kBlackWins),
                  G(1, 3, 4, Outcome::kBlackWins),
                  G(2, 1, 3, Outcome::kWhiteWins), G(2, 2, 4, Outcome::kDraw)};
  ResultsEdit edit;
  edit.add_entrants.push_back({registry::PlayerId{2}, {}, std::nullopt});
  edit.set_games.push_back(
      G(1, 4, 3, Outcome::kBlackWins));  // colours swapped: replaces 3-4
  edit.withdrawals.push_back({EntrantId{4}, std::nullopt, 2, false});
  edit.tie_decisions.push_back({TieDecisionMethod::kLots, {2, 1}});
  auto out = ApplyEdit(before, edit, &dir_);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->results.games.size(), 4u);
  EXPECT_EQ(out->results.games[0].outcome, Outcome::kBlackWins);  // untouched
  EXPECT_EQ(out->results.games[1].black, EntrantId{4});
  EXPECT_EQ(out->results.games[2].outcome, Outcome::kWhiteWins);
  ASSERT_EQ(out->results.entrants.size(), 5u);
  EXPECT_EQ(out->results.entrants[4].player_id, registry::PlayerId{2});
  EXPECT_EQ(out->results.entrants[4].family_name, "李伟");
  EXPECT_EQ(out->results.entrants[4].rank, R("2d"));
  EXPECT_EQ(out->results.entrants[3].withdrawn_after_round, 2);
  EXPECT_EQ(out->changes.size(), 4u);
  EXPECT_THAT(out->changes[1], HasSubstr("round 1: 4-3:b (was 3-4:b)"));

  ResultsEdit bad;
  bad.remove_games.push_back({3, EntrantId{1}, EntrantId{2}});
  bad.withdrawals.push_back({EntrantId{9}, std::nullopt, 1, false});
  out = ApplyEdit(before, bad, &dir_);
  ASSERT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("round 3 has no game 1-2"));
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("unknown entrant 9"));
  ResultsEdit unknown;
  unknown.add_entrants.push_back({registry::PlayerId{404}, {}, std::nullopt});
  EXPECT_EQ(ApplyEdit(before, unknown, &dir_).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ApplyEdit(before, ResultsEdit{}, &dir_).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(MatchingTest, TeamsEnterTheirPlayersInBoardOrder) {
  EventResults before;
  ResultsEdit edit;
  edit.set_teams.push_back(
      {0, "Beijing A", {registry::PlayerId{1}, registry::PlayerId{2}}});
  edit.set_teams.push_back(
      {0, "Shanghai", {registry::PlayerId{3}, registry::PlayerId{4}}});
  auto out = ApplyEdit(before, edit, &dir_);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->results.teams.size(), 2u);
  EXPECT_EQ(out->results.teams[1].id, TeamId{2});
  EXPECT_EQ(out->results.teams[1].board_order,
            (std::vector<EntrantId>{EntrantId{3}, EntrantId{4}}));
  EXPECT_EQ(out->results.entrants[2].team, TeamId{2});
  // Reordering the boards of team 1 keeps the entrants.
  ResultsEdit reorder;
  reorder.set_teams.push_back(
      {1, "Beijing A", {registry::PlayerId{2}, registry::PlayerId{1}}});
  auto again = ApplyEdit(out->results, reorder, &dir_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->results.entrants.size(), 4u);
  EXPECT_EQ(again->results.teams[0].board_order[0], EntrantId{2});
  // A player of another team is refused.
  ResultsEdit poach;
  poach.set_teams.push_back(
      {1, "Beijing A", {registry::PlayerId{1}, registry::PlayerId{3}}});
  EXPECT_THAT(
      std::string(ApplyEdit(out->results, poach, &dir_).status().message()),
      HasSubstr("player 3 plays for team 2"));
}

}  // namespace
}  // namespace gorank::tournaments
