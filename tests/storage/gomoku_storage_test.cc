// Gomoku as a discipline of the registry, at the storage level: the contract
// (SQLite, PostgreSQL and the in-memory fake) keeps a player's Go and Gomoku
// ranks apart, checks a rank change against the rank of its own discipline, and
// lists the history of both disciplines with their markers; the migration
// that adds the Gomoku rank keeps every Go rank and history entry.
#include <sqlite3.h>

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/sqlite_database.h"
#include "tests/storage/repository_backends.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {
namespace {

using registry::Discipline;
using registry::Player;
using registry::PlayerId;
using registry::Rank;
using registry::RankChangeReason;
using registry::RankHistoryEntry;

ChangeRecord Change(const std::string& action) {
  return ChangeRecord{1717214400, "test", action, "", "", "{}"};
}

Rank G(const std::string& text) {
  return *Rank::Parse(text, Discipline::kGomoku);
}

RankHistoryEntry Entry(PlayerId id, std::optional<Rank> from,
                       std::optional<Rank> to, Discipline d, int64_t when) {
  return RankHistoryEntry{0,
                          id,
                          from,
                          to,
                          Date{2024, 6, 1},
                          RankChangeReason::kCorrection,
                          "basis",
                          "actor",
                          when,
                          d};
}

class GomokuContractTest : public ::testing::TestWithParam<NamedFactory> {
 protected:
  void SetUp() override {
    if (GetParam().needs_postgres) {
      const std::string why = EngineUnavailable(storage::Engine::kPostgres);
      if (!why.empty()) GTEST_SKIP() << why;
    }
    backend_ = GetParam().make();
    repo_ = backend_->registry();
    ASSERT_TRUE(repo_
                    ->InsertAgency(
                        registry::Agency{"901", "协会", "Agency",
                                         registry::AgencyLevel::kFirstLevel,
                                         registry::AgencyStatus::kActive, ""},
                        Change("agency.create"))
                    .ok());
    Player p;
    p.name = "p";
    p.agency_prefix = "901";
    p.gomoku_rank = G("5d");  // ignored: ranks are set through history only
    auto id = repo_->InsertPlayer(
        p,
        Entry({}, std::nullopt, Rank::FromString("1k"), Discipline::kGo, 1000),
        Change("player.register"));
    ASSERT_TRUE(id.ok()) << id.status();
    id_ = *id;
  }

  std::unique_ptr<Backend> backend_;
  registry::RegistryRepository* repo_ = nullptr;
  PlayerId id_;
};

TEST_P(GomokuContractTest, RanksOfTwoDisciplinesAreKeptApart) {
  EXPECT_EQ(repo_->GetPlayer(id_)->gomoku_rank, std::nullopt);
  auto g = repo_->ApplyRankChange(
      Entry(id_, std::nullopt, G("2d"), Discipline::kGomoku, 2000),
      Change("player.rank_change"));
  ASSERT_TRUE(g.ok()) << g.status();
  Player p = *repo_->GetPlayer(id_);
  EXPECT_EQ(p.rank, Rank::FromString("1k"));
  EXPECT_EQ(p.gomoku_rank, G("2d"));
  EXPECT_EQ(p.updated_unix, 2000);

  // A Go change is checked against the Go rank only, and the other way round.
  ASSERT_TRUE(repo_
                  ->ApplyRankChange(
                      Entry(id_, Rank::FromString("1k"), Rank::FromString("1d"),
                            Discipline::kGo, 3000),
                      Change("player.rank_change"))
                  .ok());
  const size_t audit = backend_->Audit().size();
  EXPECT_EQ(repo_
                ->ApplyRankChange(Entry(id_, Rank::FromString("1d"), G("3d"),
                                        Discipline::kGomoku, 4000),
                                  Change("x"))
                .status()
                .code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(repo_
                ->ApplyRankChange(Entry(id_, G("2d"), Rank::FromString("2d"),
                                        Discipline::kGo, 4000),
                                  Change("x"))
                .status()
                .code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(backend_->Audit().size(), audit);

  // Withdrawing the Gomoku rank leaves the Go rank.
  ASSERT_TRUE(repo_
                  ->ApplyRankChange(Entry(id_, G("2d"), std::nullopt,
                                          Discipline::kGomoku, 5000),
                                    Change("player.rank_change"))
                  .ok());
  p = *repo_->GetPlayer(id_);
  EXPECT_EQ(p.rank, Rank::FromString("1d"));
  EXPECT_EQ(p.gomoku_rank, std::nullopt);

  const auto history = *repo_->ListRankHistory(id_);
  ASSERT_EQ(history.size(), 4u);
  const Discipline expected[] = {Discipline::kGo, Discipline::kGomoku,
                                 Discipline::kGo, Discipline::kGomoku};
  for (size_t i = 0; i < history.size(); ++i) {
    EXPECT_EQ(history[i].discipline, expected[i]) << i;
  }
  EXPECT_EQ(history[1].to_rank, G("2d"));
  EXPECT_EQ(history[3].from_rank, G("2d"));
  EXPECT_EQ(history[3].to_rank, std::nullopt);
}

TEST_P(GomokuContractTest, SearchBoundsAreGoRanks) {
  ASSERT_TRUE(repo_
                  ->ApplyRankChange(Entry(id_, std::nullopt, G("6d"),
                                          Discipline::kGomoku, 2000),
                                    Change("player.rank_change"))
                  .ok());
  registry::PlayerQuery q;
  q.min_ordinal = Rank::FromString("1d").Ordinal();
  EXPECT_TRUE(
      repo_->SearchPlayers(q)->empty());  // Go 1k; Gomoku 6d does not count
  q.min_ordinal = Rank::FromString("1k").Ordinal();
  ASSERT_EQ(repo_->SearchPlayers(q)->size(), 1u);
  EXPECT_EQ(repo_->SearchPlayers(q)->front().gomoku_rank, G("6d"));
}

INSTANTIATE_TEST_SUITE_P(
    Repositories, GomokuContractTest,
    ::testing::Values(NamedFactory{"Sqlite", &MakeSqliteBackend},
                      NamedFactory{"Postgres", &MakePostgresBackend, true},
                      NamedFactory{"InMemory", &MakeInMemoryBackend}),
    [](const ::testing::TestParamInfo<NamedFactory>& info) {
      return info.param.name;
    });

// The migration that adds the Gomoku rank, from the version before it, on a
// database holding a ranked player: the Go rank and history stay, the
// Gomoku rank starts empty.
TEST(GomokuMigrationTest, AddsAnEmptyGomokuRankAndKeepsGoData) {
  int version = 0;
  for (const storage::Migration& m : storage::Migrations()) {
    if (std::string(m.description).rfind("gomoku", 0) == 0) version = m.version;
  }
  ASSERT_GT(version, 1) << "no gomoku migration";
  testing::TempDir dir;
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(dir.File("m.db").c_str(), &raw), SQLITE_OK);
  storage::SqliteConnection conn(raw);
  ASSERT_TRUE(storage::Migrate(conn, version - 1).ok());
  ASSERT_TRUE(
      conn.Exec(
              "INSERT INTO players(id, name, gender, agency_prefix, "
              "rank_ordinal, "
              "created_unix, updated_unix) VALUES(1, 'p', 0, '110', 3, 1, 1);"
              "INSERT INTO rank_history(player_id, to_ordinal, effective_date, "
              "reason, basis, actor, recorded_unix) "
              "VALUES(1, 3, '2024-06-01', 1, 'b', 'a', 1)")
          .ok());
  ASSERT_TRUE(storage::Migrate(conn, version).ok());
  auto st = conn.Prepare(
      "SELECT rank_ordinal, gomoku_rank_ordinal IS NULL, (SELECT discipline "
      "FROM "
      "rank_history) FROM players WHERE id = 1");
  ASSERT_TRUE(st.ok()) << st.status();
  ASSERT_TRUE(*(*st)->Step());
  EXPECT_EQ((*st)->Int(0), 3);
  EXPECT_EQ((*st)->Int(1), 1);
  EXPECT_EQ((*st)->Text(2), "go");
}

}  // namespace
}  // namespace gorank::storage_test
