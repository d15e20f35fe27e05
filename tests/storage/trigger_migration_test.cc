// Migration 11 (the PostgreSQL triggers again) on both engines: a PostgreSQL
// database migrated to version 10 before the audit log's NOTIFY trigger
// existed (made here by dropping it) has the trigger after migration 11, and
// an audit log insert then wakes a listener; on SQLite the step changes no
// schema object.
#include <libpq-fe.h>
#include <poll.h>
#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/pg_database.h"
#include "storage/sqlite_database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

constexpr int kRetriggerVersion = 11;

std::unique_ptr<Connection> RawConnection(const std::string& url_or_path) {
  if (testing::TestOnPostgres()) {
    auto c = PgConnection::Connect(url_or_path, /*writer=*/true);
    return c.ok() ? std::move(*c) : nullptr;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(url_or_path.c_str(), &db) != SQLITE_OK) return nullptr;
  sqlite3_extended_result_codes(db, 1);
  return std::make_unique<SqliteConnection>(db);
}

absl::StatusOr<std::string> Text(Connection& c, const char* sql) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return absl::NotFoundError("no row");
  return st->Text(0);
}

// Waits (at most 10 s: a deadline, not a timing) for a notice whose payload
// is `schema` on `listener`.
bool HearsNotice(PGconn* listener, const std::string& schema) {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    if (PQconsumeInput(listener) == 0) return false;
    while (PGnotify* n = PQnotifies(listener)) {
      const bool ours = schema == n->extra;
      PQfreemem(n);
      if (ours) return true;
    }
    pollfd fd = {PQsocket(listener), POLLIN, 0};
    ::poll(&fd, 1, 100);
  }
  return false;
}

// The triggers named audit_log_notify on this schema's audit_log.
constexpr char kNotifyTriggers[] =
    "SELECT count(*)::text FROM pg_trigger t JOIN pg_class c ON c.oid = "
    "t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE "
    "n.nspname = current_schema() AND c.relname = 'audit_log' AND "
    "t.tgname = 'audit_log_notify'";

TEST(TriggerMigrationTest, IsVersionElevenAndLoadsNoData) {
  ASSERT_GE(LatestSchemaVersion(), kRetriggerVersion);
  const Migration& m = Migrations()[kRetriggerVersion - 1];
  EXPECT_EQ(m.version, kRetriggerVersion);
  EXPECT_NE(std::string(m.description).find("triggers"), std::string::npos);
  EXPECT_FALSE(m.loads_data);  // a copy target (schema only) gets it too
}

TEST(TriggerMigrationTest, GivesADatabaseMigratedBeforeTheNotifyTriggerIt) {
  testing::TempDir dir;
  const std::string url = testing::TestDatabaseUrl(dir, "t.db");
  std::unique_ptr<Connection> conn = RawConnection(url);
  ASSERT_NE(conn, nullptr);
  ASSERT_TRUE(Migrate(*conn, kRetriggerVersion - 1).ok());
  if (!testing::TestOnPostgres()) {
    const std::string before =
        *Text(*conn,
              "SELECT group_concat(type || ':' || name) FROM "
              "(SELECT * FROM sqlite_master ORDER BY name)");
    const absl::Status s = Migrate(*conn, kRetriggerVersion);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(*Text(*conn,
                    "SELECT group_concat(type || ':' || name) FROM "
                    "(SELECT * FROM sqlite_master ORDER BY name)"),
              before);
    EXPECT_EQ(*Text(*conn, "PRAGMA user_version"),
              std::to_string(kRetriggerVersion));
    return;
  }
  // As a version-10 database written by a rankd older than the trigger.
  ASSERT_TRUE(conn->Exec("DROP TRIGGER audit_log_notify ON audit_log").ok());
  ASSERT_EQ(*Text(*conn, kNotifyTriggers), "0");
  const absl::Status s = Migrate(*conn, kRetriggerVersion);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(*Text(*conn, kNotifyTriggers), "1");
  // It fires: a listener hears the commit of an audit log insert, with
  // this schema as the payload.
  PGconn* listener = PQconnectdb(url.c_str());
  ASSERT_EQ(PQstatus(listener), CONNECTION_OK) << PQerrorMessage(listener);
  PQclear(PQexec(listener, "LISTEN rankd_changes"));
  const std::string schema = *Text(*conn, "SELECT current_schema()");
  ASSERT_TRUE(conn->Exec("BEGIN").ok());
  ASSERT_TRUE(conn->Exec("INSERT INTO audit_log(seq, entry, leaf_hash) "
                         "VALUES (1000, 'x'::bytea, 'y'::bytea)")
                  .ok());
  ASSERT_TRUE(conn->Exec("COMMIT").ok());
  EXPECT_TRUE(HearsNotice(listener, schema));
  PQfinish(listener);
}

}  // namespace
}  // namespace gorank::storage
