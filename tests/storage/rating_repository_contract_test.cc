// The contract of RatingRepository (services/ratings/rating_repository.h),
// run against every implementation: the SQL repository on SQLite and on
// PostgreSQL. (No in-memory fake: no domain test of the ratings module
// reads a repository; RatingLedger and PromotionDesk are tested through
// the gRPC services.)
//
// The rating history: a full recompute replaces the whole table, history
// and state; an event closed appends its rows once; a player's history
// reads back oldest first, bit for bit. Imported starts: stored whole or
// not at all, replacing a player's earlier start. Proposals: one pending per
// player and rule, decided once. One audit entry per successful write, none
// for a refused one.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "services/ratings/rating_repository.h"
#include "storage/database.h"
#include "storage/sql_rating_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/storage/repository_backends.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {
namespace {

using absl::StatusCode;
using ratings::EventKey;
using ratings::PlayerId;
using ratings::PlayerRating;
using ratings::ProposalFilter;
using ratings::ProposalState;
using ratings::RatingChange;
using ratings::RatingDelta;
using ratings::RatingRepository;
using ratings::RatingSnapshot;
using ratings::StoredProposal;

ChangeRecord Change(const std::string& action) {
  return ChangeRecord{1717200000, "system", action, "ratings", "", "{}"};
}

PlayerRating Rating(int64_t id, double gor, std::optional<double> pro = {}) {
  PlayerRating r;
  r.player = PlayerId{id};
  r.gor = gor;
  r.rated_games = 4;
  r.rated_events = 2;
  r.pro_elo = pro;
  r.pro_games = pro ? 3 : 0;
  return r;
}

RatingChange Step(const EventKey& event, double before, double after,
                  int games) {
  RatingChange c;
  c.event = event;
  c.gor_before = before;
  c.gor_after = after;
  c.games = games;
  return c;
}

const EventKey kE1{Date{2024, 7, 1}, 1, "11"};
const EventKey kE2{Date{2024, 7, 1}, 2, "12"};  // same day, later
const EventKey kE3{Date{2024, 8, 3}, 1, "13"};

class RatingRepositoryContract : public ::testing::TestWithParam<SqlEngine> {
 protected:
  void SetUp() override {
    const std::string why = EngineUnavailable(GetParam().engine);
    if (!why.empty()) GTEST_SKIP() << why;
    auto db = storage::Database::Open(
        EngineAddress(GetParam().engine, dir_, "ratings.db"));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    repo_ = std::make_unique<storage::SqlRatingRepository>(db_.get());
    registry_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
  }

  int64_t AuditRows() { return testing::CountAuditRows(db_.get()).value(); }
  std::vector<RatingChange> History(int64_t player) {
    auto h = repo_->History(PlayerId{player});
    EXPECT_TRUE(h.ok()) << h.status();
    return h.ok() ? *h : std::vector<RatingChange>{};
  }
  std::vector<int64_t> Listed(bool pro, int64_t offset = 0, int limit = 50) {
    auto list = repo_->ListRatings(pro, offset, limit);
    EXPECT_TRUE(list.ok()) << list.status();
    std::vector<int64_t> out;
    if (list.ok()) {
      for (const PlayerRating& r : *list) out.push_back(r.player.value);
    }
    return out;
  }
  int64_t AddPlayer(const std::string& agency) {
    registry::Player p;
    p.name = "棋手";
    p.agency_prefix = agency;
    p.created_unix = p.updated_unix = 1717200000;
    auto id =
        registry_->InsertPlayer(p, std::nullopt, Change("player.register"));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? id->value : 0;
  }
  static StoredProposal Proposal(int64_t player, const std::string& rule) {
    StoredProposal p;
    p.proposal.player = PlayerId{player};
    p.proposal.rule_id = rule;
    p.proposal.rule_description = "rule " + rule;
    p.proposal.from = registry::Rank::FromString("2k");
    p.proposal.to = registry::Rank::FromString("1k");
    p.proposal.evidence.rating = 1950.5;
    p.proposal.evidence.rated_games = 12;
    p.proposal.evidence.event_ids = {"11", "13"};
    p.proposal.explanation = "meets " + rule;
    p.as_of = Date{2024, 9, 1};
    p.created_unix = 1717200000;
    return p;
  }

  testing::TempDir dir_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<RatingRepository> repo_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_;
};

// A recompute's history reads back per player in event order, and the next
// recompute replaces all of it: a player it no longer rates has no rating
// and no history left.
TEST_P(RatingRepositoryContract, RecomputeWritesHistoryThatTheNextReplaces) {
  EXPECT_EQ(repo_->State()->table_sha256, "");
  EXPECT_EQ(repo_->State()->events, 0);
  RatingSnapshot first;
  first.events = {kE1, kE2, kE3};
  first.players = {Rating(1, 2000.0 + 1.0 / 3), Rating(2, 1500.25, 2400.0),
                   Rating(3, 100.0)};
  first.history = {{PlayerId{1}, Step(kE1, 1900.0, 1950.0, 2)},
                   {PlayerId{1}, Step(kE2, 1950.0, 1975.5, 1)},
                   {PlayerId{1}, Step(kE3, 1975.5, 2000.0 + 1.0 / 3, 3)},
                   {PlayerId{2}, Step(kE2, 1500.0, 1500.25, 1)},
                   {PlayerId{3}, Step(kE1, 90.0, 100.0, 1)}};
  first.history[3].second.pro_before = 2390.0;
  first.history[3].second.pro_after = 2400.0;
  first.history[3].second.pro_games = 1;
  first.table_sha256 = "sha-first";
  const int64_t audit = AuditRows();
  ASSERT_TRUE(repo_->ReplaceAll(first, Change("ratings.recompute")).ok());
  EXPECT_EQ(AuditRows(), audit + 1);

  const std::vector<RatingChange> one = History(1);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one[0], first.history[0].second);
  EXPECT_EQ(one[1], first.history[1].second);
  EXPECT_EQ(one[2], first.history[2].second);  // bit for bit
  ASSERT_EQ(History(2).size(), 1u);
  EXPECT_EQ(History(2)[0], first.history[3].second);
  EXPECT_EQ(*repo_->GetRating(PlayerId{1}), first.players[0]);
  EXPECT_EQ(*repo_->GetRating(PlayerId{2}), first.players[1]);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-first");
  EXPECT_EQ(repo_->State()->events, 3);
  EXPECT_EQ(repo_->State()->players, 3);
  EXPECT_EQ(*repo_->RatedPlayers(),
            (std::vector<PlayerId>{PlayerId{1}, PlayerId{2}, PlayerId{3}}));
  EXPECT_EQ(Listed(false), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(Listed(true), (std::vector<int64_t>{2}));
  EXPECT_EQ(Listed(false, 1, 1), (std::vector<int64_t>{2}));

  // The recompute after a correction: player 3 is gone, player 2 now has
  // two events, player 4 is new.
  RatingSnapshot second;
  second.events = {kE1, kE3};
  second.players = {Rating(1, 1990.0), Rating(2, 1600.0), Rating(4, 1990.0)};
  second.history = {{PlayerId{1}, Step(kE1, 1900.0, 1990.0, 2)},
                    {PlayerId{2}, Step(kE1, 1500.0, 1550.0, 1)},
                    {PlayerId{2}, Step(kE3, 1550.0, 1600.0, 2)},
                    {PlayerId{4}, Step(kE3, 1980.0, 1990.0, 1)}};
  second.table_sha256 = "sha-second";
  ASSERT_TRUE(repo_->ReplaceAll(second, Change("ratings.recompute")).ok());
  EXPECT_EQ(AuditRows(), audit + 2);
  ASSERT_EQ(History(1).size(), 1u);
  EXPECT_EQ(History(1)[0], second.history[0].second);
  ASSERT_EQ(History(2).size(), 2u);
  EXPECT_EQ(History(2)[0].event, kE1);
  EXPECT_EQ(History(2)[1].event, kE3);
  EXPECT_TRUE(History(3).empty());
  EXPECT_EQ(repo_->GetRating(PlayerId{3}).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetRating(PlayerId{2})->pro_elo, std::nullopt);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-second");
  EXPECT_EQ(repo_->State()->events, 2);
  EXPECT_EQ(repo_->State()->players, 3);
  // Equal GoR: ascending id.
  EXPECT_EQ(Listed(false), (std::vector<int64_t>{1, 4, 2}));
  EXPECT_TRUE(Listed(true).empty());
  // Keyset-paged (ListRatingsAfter): after (rating, player), same order,
  // equal ratings split between pages by id.
  std::vector<int64_t> paged;
  std::optional<ratings::RatingListPosition> after;
  for (int i = 0; i < 5; ++i) {
    auto page = repo_->ListRatingsAfter(false, after, 1);
    ASSERT_TRUE(page.ok()) << page.status();
    if (page->empty()) break;
    paged.push_back((*page)[0].player.value);
    after = ratings::RatingListPosition{(*page)[0].gor, (*page)[0].player};
  }
  EXPECT_EQ(paged, (std::vector<int64_t>{1, 4, 2}));
  EXPECT_TRUE(repo_->ListRatingsAfter(true, std::nullopt, 5)->empty());
}

// An event closed after the recompute appends its rows after the history
// already there; the same event again is ALREADY_EXISTS and writes nothing.
TEST_P(RatingRepositoryContract, ClosedEventsAppendOnce) {
  RatingSnapshot base;
  base.events = {kE1};
  base.players = {Rating(1, 1950.0)};
  base.history = {{PlayerId{1}, Step(kE1, 1900.0, 1950.0, 2)}};
  base.table_sha256 = "sha-1";
  ASSERT_TRUE(repo_->ReplaceAll(base, Change("ratings.recompute")).ok());

  RatingDelta delta;
  delta.event = kE3;
  delta.players = {Rating(1, 1960.0), Rating(5, 1200.0)};
  delta.changes = {{PlayerId{1}, Step(kE3, 1950.0, 1960.0, 3)},
                   {PlayerId{5}, Step(kE3, 1150.0, 1200.0, 3)}};
  delta.table_sha256 = "sha-2";
  delta.players_total = 2;
  const int64_t audit = AuditRows();
  ASSERT_TRUE(repo_->AppendEvent(delta, Change("ratings.event")).ok());
  EXPECT_EQ(AuditRows(), audit + 1);
  const std::vector<RatingChange> one = History(1);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0], base.history[0].second);
  EXPECT_EQ(one[1], delta.changes[0].second);
  EXPECT_EQ(History(5), (std::vector<RatingChange>{delta.changes[1].second}));
  EXPECT_EQ(repo_->GetRating(PlayerId{1})->gor, 1960.0);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-2");
  EXPECT_EQ(repo_->State()->events, 2);
  EXPECT_EQ(repo_->State()->players, 2);

  RatingDelta again = delta;
  again.players[0].gor = 1.0;
  again.table_sha256 = "sha-3";
  EXPECT_EQ(repo_->AppendEvent(again, Change("ratings.event")).code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(AuditRows(), audit + 1);
  EXPECT_EQ(repo_->GetRating(PlayerId{1})->gor, 1960.0);
  EXPECT_EQ(History(1).size(), 2u);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-2");
}

TEST_P(RatingRepositoryContract,
       OnePendingProposalPerPlayerAndRuleDecidedOnce) {
  const int64_t p110 = AddPlayer("110");
  const int64_t p120 = AddPlayer("120");
  auto first = repo_->AddProposal(Proposal(p110, "am.rating"), Change("p"));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->state, ProposalState::kPending);
  const int64_t audit = AuditRows();
  auto same = repo_->AddProposal(Proposal(p110, "am.rating"), Change("p"));
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->id, first->id);
  EXPECT_EQ(AuditRows(), audit);
  auto other_rule = repo_->AddProposal(Proposal(p110, "am.wins"), Change("p"));
  auto other_player =
      repo_->AddProposal(Proposal(p120, "am.rating"), Change("p"));
  ASSERT_TRUE(other_rule.ok() && other_player.ok());
  EXPECT_EQ(AuditRows(), audit + 2);

  auto stored = repo_->GetProposal(first->id);
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->proposal.player.value, p110);
  EXPECT_EQ(stored->proposal.rule_description, "rule am.rating");
  EXPECT_EQ(stored->proposal.from, registry::Rank::FromString("2k"));
  EXPECT_EQ(stored->proposal.to, registry::Rank::FromString("1k"));
  EXPECT_EQ(stored->proposal.evidence.rating, 1950.5);
  EXPECT_EQ(stored->proposal.evidence.rated_games, 12);
  EXPECT_EQ(stored->proposal.evidence.event_ids,
            (std::vector<std::string>{"11", "13"}));
  EXPECT_EQ(stored->proposal.explanation, "meets am.rating");
  EXPECT_EQ(stored->as_of, (Date{2024, 9, 1}));
  EXPECT_EQ(stored->created_unix, 1717200000);
  EXPECT_EQ(stored->decided_unix, std::nullopt);

  StoredProposal decided = *stored;
  decided.state = ProposalState::kApproved;
  decided.decided_by = "national/token:1";
  decided.decision_reason = "well earned";
  decided.decided_unix = 1717300000;
  decided.certificate_number = "110240001";
  ASSERT_TRUE(repo_->DecideProposal(decided, Change("p.decide")).ok());
  const int64_t after = AuditRows();
  EXPECT_EQ(repo_->DecideProposal(decided, Change("p.decide")).code(),
            StatusCode::kFailedPrecondition);
  StoredProposal ghost = decided;
  ghost.id = first->id + 100;
  EXPECT_EQ(repo_->DecideProposal(ghost, Change("p.decide")).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetProposal(first->id + 100).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(AuditRows(), after);
  auto read = repo_->GetProposal(first->id);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->state, ProposalState::kApproved);
  EXPECT_EQ(read->decided_by, "national/token:1");
  EXPECT_EQ(read->decision_reason, "well earned");
  EXPECT_EQ(read->decided_unix, 1717300000);
  EXPECT_EQ(read->certificate_number, "110240001");

  ProposalFilter pending;
  pending.state = ProposalState::kPending;
  ASSERT_EQ(repo_->ListProposals(pending)->size(), 2u);
  ProposalFilter agency;
  agency.agency_prefix = "120";
  ASSERT_EQ(repo_->ListProposals(agency)->size(), 1u);
  EXPECT_EQ(repo_->ListProposals(agency)->front().proposal.player.value, p120);
  ProposalFilter player;
  player.player = PlayerId{p110};
  ASSERT_EQ(repo_->ListProposals(player)->size(), 2u);
  ProposalFilter paged;
  paged.after_id = first->id;
  paged.limit = 1;
  auto page = repo_->ListProposals(paged);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ(page->front().id, other_rule->id);
}

// Imported starts (rankctl rating import): stored with their players'
// rating rows, the state and one audit entry per record given; a later
// start replaces the player's earlier one; a start for an unregistered
// player is NOT_FOUND and nothing of the call is written. FindPlayers finds
// registered players by id and resident ID, in the order asked.
TEST_P(RatingRepositoryContract, ImportedStartsAreStoredWholeOrNotAtAll) {
  const int64_t a = AddPlayer("110");
  registry::Player with_id;
  with_id.name = "李四";
  with_id.agency_prefix = "120";
  with_id.resident_id = "110101200002290018";
  with_id.created_unix = with_id.updated_unix = 1717200000;
  auto b =
      registry_->InsertPlayer(with_id, std::nullopt, Change("player.register"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(repo_->ListStarts()->empty());
  EXPECT_FALSE(repo_->GetStart(PlayerId{a})->has_value());

  auto start = [](int64_t player, double gor, std::optional<double> pro) {
    ratings::RatingStart s;
    s.player = PlayerId{player};
    s.gor = gor;
    s.pro_elo = pro;
    s.as_of = Date{2024, 12, 31};
    s.origin = "import starts.csv sha256:ab line " + std::to_string(player);
    s.recorded_unix = 1717200000;
    return s;
  };
  ratings::StartsDelta delta;
  delta.starts = {start(a, 1850.0 + 1.0 / 7, std::nullopt),
                  start(b->value, 2100.0, 2300.5)};
  delta.players = {Rating(a, 1850.0 + 1.0 / 7),
                   Rating(b->value, 2100.0, 2300.5)};
  delta.table_sha256 = "sha-starts";
  delta.players_total = 2;
  const int64_t audit = AuditRows();
  ASSERT_TRUE(repo_
                  ->StoreStarts(delta, {Change("ratings.import"),
                                        Change("ratings.import")})
                  .ok());
  EXPECT_EQ(AuditRows(), audit + 2);
  auto starts = repo_->ListStarts();
  ASSERT_TRUE(starts.ok()) << starts.status();
  EXPECT_EQ(*starts, delta.starts);  // by player, bit for bit
  EXPECT_EQ(**repo_->GetStart(PlayerId{b->value}), delta.starts[1]);
  EXPECT_EQ(*repo_->GetRating(PlayerId{a}), delta.players[0]);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-starts");
  EXPECT_EQ(repo_->State()->players, 2);

  ratings::StartsDelta replace;
  replace.starts = {start(a, 1700.0, 1900.0)};
  replace.players = {Rating(a, 1700.0, 1900.0)};
  replace.table_sha256 = "sha-replaced";
  replace.players_total = 2;
  ASSERT_TRUE(repo_->StoreStarts(replace, {Change("ratings.import")}).ok());
  EXPECT_EQ(**repo_->GetStart(PlayerId{a}), replace.starts[0]);
  EXPECT_EQ(repo_->ListStarts()->size(), 2u);

  ratings::StartsDelta refused;
  refused.starts = {start(a, 1.0, std::nullopt), start(b->value + 50, 1.0, {})};
  refused.players = {Rating(a, 1.0)};
  refused.table_sha256 = "sha-refused";
  const int64_t before = AuditRows();
  EXPECT_EQ(repo_->StoreStarts(refused, {Change("ratings.import")}).code(),
            StatusCode::kNotFound);
  EXPECT_EQ(AuditRows(), before);
  EXPECT_EQ(**repo_->GetStart(PlayerId{a}), replace.starts[0]);
  EXPECT_EQ(repo_->GetRating(PlayerId{a})->gor, 1700.0);
  EXPECT_EQ(repo_->State()->table_sha256, "sha-replaced");

  using Kind = ratings::PlayerLookup::Kind;
  auto found = repo_->FindPlayers(
      {ratings::PlayerLookup{Kind::kResidentId, "110101200002290018", ""},
       ratings::PlayerLookup{Kind::kId, std::to_string(a), ""},
       ratings::PlayerLookup{Kind::kId, "9999", ""},
       ratings::PlayerLookup{Kind::kId, "x1", ""}});
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 4u);
  ASSERT_EQ((*found)[0].size(), 1u);
  EXPECT_EQ((*found)[0][0].player.value, b->value);
  EXPECT_EQ((*found)[0][0].agency_prefix, "120");
  EXPECT_EQ((*found)[0][0].kind, Kind::kResidentId);
  ASSERT_EQ((*found)[1].size(), 1u);
  EXPECT_EQ((*found)[1][0].player.value, a);
  EXPECT_EQ((*found)[1][0].agency_prefix, "110");
  EXPECT_TRUE((*found)[2].empty());
  EXPECT_TRUE((*found)[3].empty());
}

INSTANTIATE_TEST_SUITE_P(Repositories, RatingRepositoryContract,
                         ::testing::ValuesIn(SqlEngines()),
                         [](const ::testing::TestParamInfo<SqlEngine>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gorank::storage_test
