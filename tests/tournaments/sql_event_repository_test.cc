// The EventRepository contract run against the SQL repository on SQLite (a
// fresh temp database per test) and on PostgreSQL (a fresh schema of the test
// server; the Postgres cases run in the pg. twin and skip elsewhere), plus
// what only the SQL repository has: the player index checks players against
// the registry, and a save that fails leaves no row behind.
#include "storage/sql_event_repository.h"

#include <memory>

#include "storage/sql_registry_repository.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"
#include "tests/tournaments/event_repository_contract.h"
#include "tests/tournaments/event_tables.h"

namespace gorank::tournaments::testing {
namespace {

struct SqliteBackend {
  gorank::testing::TempDir dir;
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<storage::SqlEventRepository> events;
  std::unique_ptr<storage::SqlRegistryRepository> registry;
  int64_t audit_baseline = 0;
};

// On the engine of the run (TestDatabaseUrl), or on an SQLite file.
std::shared_ptr<SqliteBackend> OpenBackend(bool sqlite_file = false) {
  auto b = std::make_shared<SqliteBackend>();
  auto db = storage::Database::Open(
      sqlite_file ? b->dir.File("events.db")
                  : gorank::testing::TestDatabaseUrl(b->dir, "events.db"));
  if (!db.ok()) {
    ADD_FAILURE() << db.status();
    std::abort();
  }
  b->db = std::move(*db);
  b->events = std::make_unique<storage::SqlEventRepository>(b->db.get());
  b->registry = std::make_unique<storage::SqlRegistryRepository>(b->db.get());
  b->audit_baseline = *gorank::testing::CountAuditRows(b->db.get());
  return b;
}

int64_t AddPlayer(SqliteBackend& b) {
  registry::Player p;
  p.name = "张三";
  p.agency_prefix = "110";
  p.created_unix = p.updated_unix = 1717200000;
  auto id = b.registry->InsertPlayer(
      p, std::nullopt,
      ChangeRecord{1717200000, "test", "player.register", "", "", "{}"});
  if (!id.ok()) {
    ADD_FAILURE() << id.status();
    return 0;
  }
  return id->value;
}

EventBackend MakeBackend(bool sqlite_file) {
  std::shared_ptr<SqliteBackend> b = OpenBackend(sqlite_file);
  EventBackend out;
  out.repo = std::shared_ptr<EventRepository>(b, b->events.get());
  // Registering a player writes an audit entry of its own: not counted.
  out.audit_count = [b] {
    return *gorank::testing::CountAuditRows(b->db.get()) - b->audit_baseline;
  };
  out.add_player = [b] {
    const int64_t id = AddPlayer(*b);
    b->audit_baseline += 1;
    return id;
  };
  return out;
}

EventBackend MakeSqliteBackend() { return MakeBackend(/*sqlite_file=*/true); }

EventBackend MakePostgresBackend() {
  if (!gorank::testing::TestOnPostgres()) {
    EventBackend none;
    none.skip =
        std::string("the PostgreSQL case runs in the pg. twin (ctest ") +
        "-R '^pg\\.'), which sets " + gorank::testing::kTestPgUrlFileEnv;
    return none;
  }
  return MakeBackend(/*sqlite_file=*/false);
}

INSTANTIATE_TEST_SUITE_P(Sqlite, EventRepositoryContract,
                         ::testing::Values(&MakeSqliteBackend));
INSTANTIATE_TEST_SUITE_P(Postgres, EventRepositoryContract,
                         ::testing::Values(&MakePostgresBackend));

TEST(SqlEventRepository, UnknownPlayerIsRefusedAndNothingStored) {
  auto b = OpenBackend();
  Event e = MakeEvent(FormatKind::kRoundRobin);
  e.organiser_prefix = "110";
  auto created = b->events->CreateEvent(
      e, ChangeRecord{1, "t", "event.create", "", "", "{}"});
  ASSERT_TRUE(created.ok()) << created.status();
  ResultsBuilder r;
  r.Players(2).Win(1, 1, 2);
  EventResults results = r.Build();
  results.entrants[1].player_id = registry::PlayerId{4242};
  auto before = gorank::testing::TakeSnapshot(b->db.get());
  ASSERT_TRUE(before.ok());
  auto rows = CountEventRows(b->db.get());
  ASSERT_TRUE(rows.ok()) << rows.status();
  absl::Status s = b->events->SaveResults(
      created->id, results, ChangeRecord{1, "t", "results.save", "", "", "{}"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("entrant 2 names player 4242"), std::string::npos)
      << s;
  EXPECT_EQ(*CountEventRows(b->db.get()), *rows);
  EXPECT_TRUE(b->events->GetResults(created->id)->entrants.empty());
  EXPECT_EQ(*gorank::testing::TakeSnapshot(b->db.get()), *before);
}

TEST(SqlEventRepository, AuditEntryCarriesTheEventSubject) {
  auto b = OpenBackend();
  Event e = MakeEvent(FormatKind::kSwiss, 5);
  e.organiser_prefix = "130";
  auto created = b->events->CreateEvent(
      e, ChangeRecord{7, "agency:130/token:2", "event.create", "", "",
                      "{\"name\":\"Test event\"}"});
  ASSERT_TRUE(created.ok()) << created.status();
  auto log = gorank::testing::ReadAuditLog(b->db.get());
  ASSERT_TRUE(log.ok()) << log.status();
  const ChangeRecord& last = log->back();
  EXPECT_EQ(last.action, "event.create");
  EXPECT_EQ(last.actor, "agency:130/token:2");
  EXPECT_EQ(last.subject, "event:" + std::to_string(created->id.value));
}

}  // namespace
}  // namespace gorank::tournaments::testing
