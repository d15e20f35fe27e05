// SqlRatingRepository on a fresh temp database per test: stored ratings
// read back bit for bit and in list order, a stored event is never appended
// twice, one pending proposal per player and rule, a decision only on a
// pending proposal, operators' filter by agency, one audit entry per write
// and none for a refused one.
#include "storage/sql_rating_repository.h"

#include <cmath>
#include <memory>

#include "gtest/gtest.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::ratings {
namespace {

class SqlRatingRepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = storage::Database::Open(
        gorank::testing::TestDatabaseUrl(dir_, "ratings.db"));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    repo_ = std::make_unique<storage::SqlRatingRepository>(db_.get());
    registry_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
  }

  int64_t AddPlayer(const std::string& agency) {
    registry::Player p;
    p.name = "张三";
    p.agency_prefix = agency;
    p.created_unix = p.updated_unix = 1717200000;
    auto id = registry_->InsertPlayer(
        p, std::nullopt,
        ChangeRecord{1717200000, "test", "player.register", "", "", "{}"});
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? id->value : 0;
  }

  int64_t AuditRows() { return *gorank::testing::CountAuditRows(db_.get()); }

  static ChangeRecord Audit() {
    return ChangeRecord{1717200000, "test", "ratings.test",
                        "ratings",  "",     "{}"};
  }

  static PlayerRating Rating(int64_t id, double gor,
                             std::optional<double> pro = std::nullopt) {
    PlayerRating r;
    r.player = PlayerId{id};
    r.gor = gor;
    r.rated_games = 3;
    r.rated_events = 1;
    r.pro_elo = pro;
    r.pro_games = pro ? 2 : 0;
    return r;
  }

  StoredProposal Proposal(int64_t player, const std::string& rule) {
    StoredProposal p;
    p.proposal.player = PlayerId{player};
    p.proposal.rule_id = rule;
    p.proposal.rule_description = "test rule";
    p.proposal.from = registry::Rank::FromString("1k");
    p.proposal.to = registry::Rank::FromString("1d");
    p.proposal.evidence.rating = 2051.25;
    p.proposal.evidence.rated_games = 15;
    p.proposal.evidence.event_ids = {"3", "9"};
    p.proposal.explanation = "meets the rule for 1d";
    p.as_of = Date{2024, 9, 1};
    p.created_unix = 1717200000;
    return p;
  }

  gorank::testing::TempDir dir_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlRatingRepository> repo_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_;
};

TEST_F(SqlRatingRepositoryTest, SnapshotReadsBackExactlyAndInListOrder) {
  const EventKey e1{Date{2024, 7, 1}, 1, "1"};
  RatingSnapshot s;
  s.events = {e1};
  const double odd = 0.1 + 0.2;  // not a short decimal
  s.players = {Rating(1, 2100.0 + odd), Rating(2, -900.0),
               Rating(3, std::nextafter(2100.0 + odd, 3000.0), 2241.5)};
  RatingChange c;
  c.event = e1;
  c.gor_before = 2100.0;
  c.gor_after = 2100.0 + odd;
  c.games = 3;
  s.history = {{PlayerId{1}, c}};
  s.table_sha256 = "ab";
  const int64_t before = AuditRows();
  ASSERT_TRUE(repo_->ReplaceAll(s, Audit()).ok());
  EXPECT_EQ(AuditRows(), before + 1);

  auto one = repo_->GetRating(PlayerId{1});
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(*one, s.players[0]);  // bit for bit
  auto list = repo_->ListRatings(false, 0, 10);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].player.value, 3);  // one ulp above player 1
  EXPECT_EQ((*list)[1].player.value, 1);
  EXPECT_EQ((*list)[2].player.value, 2);  // negative last
  auto page = repo_->ListRatings(false, 2, 10);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->size(), 1u);
  auto pro = repo_->ListRatings(true, 0, 10);
  ASSERT_TRUE(pro.ok());
  ASSERT_EQ(pro->size(), 1u);
  EXPECT_EQ(*(*pro)[0].pro_elo, 2241.5);
  auto history = repo_->History(PlayerId{1});
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0], c);
  EXPECT_EQ(repo_->GetRating(PlayerId{9}).status().code(),
            absl::StatusCode::kNotFound);
  auto state = repo_->State();
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->table_sha256, "ab");
  EXPECT_EQ(state->events, 1);
  EXPECT_EQ(state->players, 3);
}

TEST_F(SqlRatingRepositoryTest, AnEventIsAppendedOnce) {
  RatingDelta d;
  d.event = EventKey{Date{2024, 7, 1}, 1, "1"};
  d.players = {Rating(1, 2110.0)};
  RatingChange c;
  c.event = d.event;
  c.gor_before = 2100.0;
  c.gor_after = 2110.0;
  c.games = 1;
  d.changes = {{PlayerId{1}, c}};
  d.table_sha256 = "cd";
  d.players_total = 1;
  ASSERT_TRUE(repo_->AppendEvent(d, Audit()).ok());
  const int64_t after_first = AuditRows();
  d.players[0].gor = 1.0;
  EXPECT_EQ(repo_->AppendEvent(d, Audit()).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(AuditRows(), after_first);
  EXPECT_EQ(repo_->GetRating(PlayerId{1})->gor, 2110.0);
  EXPECT_EQ(repo_->History(PlayerId{1})->size(), 1u);
}

TEST_F(SqlRatingRepositoryTest, OnePendingProposalAndDecisionsOnlyOnPending) {
  const int64_t p110 = AddPlayer("110");
  const int64_t p130 = AddPlayer("130");
  auto first = repo_->AddProposal(Proposal(p110, "am.rating"), Audit());
  ASSERT_TRUE(first.ok()) << first.status();
  const int64_t rows = AuditRows();
  auto again = repo_->AddProposal(Proposal(p110, "am.rating"), Audit());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->id, first->id);
  EXPECT_EQ(AuditRows(), rows);  // nothing written
  ASSERT_TRUE(repo_->AddProposal(Proposal(p130, "am.rating"), Audit()).ok());

  auto stored = repo_->GetProposal(first->id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->proposal.evidence.rating, 2051.25);
  EXPECT_EQ(stored->proposal.evidence.event_ids,
            (std::vector<std::string>{"3", "9"}));
  EXPECT_EQ(stored->proposal.to, registry::Rank::FromString("1d"));

  StoredProposal decided = *stored;
  decided.state = ProposalState::kRejected;
  decided.decided_by = "national/token:1";
  decided.decision_reason = "too early";
  decided.decided_unix = 1717300000;
  ASSERT_TRUE(repo_->DecideProposal(decided, Audit()).ok());
  EXPECT_EQ(repo_->DecideProposal(decided, Audit()).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_->GetProposal(first->id)->decision_reason, "too early");
  // Decided: a new evaluation may propose again.
  auto later = repo_->AddProposal(Proposal(p110, "am.rating"), Audit());
  ASSERT_TRUE(later.ok());
  EXPECT_NE(later->id, first->id);

  ProposalFilter f;
  f.agency_prefix = "130";
  auto own = repo_->ListProposals(f);
  ASSERT_TRUE(own.ok());
  ASSERT_EQ(own->size(), 1u);
  EXPECT_EQ((*own)[0].proposal.player.value, p130);
  ProposalFilter rejected;
  rejected.state = ProposalState::kRejected;
  EXPECT_EQ(repo_->ListProposals(rejected)->size(), 1u);
  ProposalFilter paged;
  paged.limit = 1;
  paged.after_id = first->id;
  auto next = repo_->ListProposals(paged);
  ASSERT_TRUE(next.ok());
  ASSERT_EQ(next->size(), 1u);
  EXPECT_GT((*next)[0].id, first->id);
  EXPECT_EQ(repo_->GetProposal(999).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::ratings
