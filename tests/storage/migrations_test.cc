// Schema migrations and the database wrapper: every migration from an empty
// file and from the previous version, the shipped region table, reopening,
// refusing a newer schema, the append-only audit log, and the pragmas and
// file permissions the data needs.
#include "storage/migrations.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/sql_registry_repository.h"
#include "storage/sqlite_database.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage {
namespace {

using absl::StatusCode;

// A bare connection to `path`, without Database's automatic migration.
std::unique_ptr<Connection> RawConnection(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return nullptr;
  sqlite3_extended_result_codes(db, 1);
  return std::make_unique<SqliteConnection>(db);
}

absl::StatusOr<int64_t> QueryInt(Connection& c, const char* sql) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return absl::NotFoundError("no row");
  return st->Int(0);
}

absl::StatusOr<std::string> QueryText(Connection& c, const char* sql) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return absl::NotFoundError("no row");
  return st->Text(0);
}

TEST(MigrationsTest, VersionsAreNumberedWithoutGaps) {
  const auto& all = Migrations();
  ASSERT_FALSE(all.empty());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].version, static_cast<int>(i) + 1);
    EXPECT_NE(std::string(all[i].description), "");
  }
  EXPECT_EQ(LatestSchemaVersion(), all.back().version);
}

TEST(MigrationsTest, EmptyDatabaseMigratesToLatest) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("new.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ(*(*db)->SchemaVersion(), LatestSchemaVersion());
  auto snapshot = testing::TakeSnapshot(db->get());
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->Rows("players"), 0);
  EXPECT_EQ(snapshot->Rows("tokens"), 0);
  EXPECT_EQ(snapshot->Rows("agencies"), 35);
  EXPECT_EQ(*(*db)->IntegrityCheck(), "ok");
}

// Each step from the version before it, on a database that has run every
// earlier migration (as a deployed one would have).
TEST(MigrationsTest, EachStepFromThePreviousVersion) {
  for (const Migration& m : Migrations()) {
    SCOPED_TRACE(m.description);
    testing::TempDir dir;
    auto conn = RawConnection(dir.File("step.db"));
    ASSERT_NE(conn, nullptr);
    ASSERT_TRUE(Migrate(*conn, m.version - 1).ok());
    EXPECT_EQ(*QueryInt(*conn, "PRAGMA user_version"), m.version - 1);
    absl::Status s = Migrate(*conn, m.version);
    ASSERT_TRUE(s.ok()) << s;
    EXPECT_EQ(*QueryInt(*conn, "PRAGMA user_version"), m.version);
    EXPECT_EQ(*QueryText(*conn, "PRAGMA integrity_check"), "ok");
    // Applying the same target again is a no-op.
    ASSERT_TRUE(Migrate(*conn, m.version).ok());
    EXPECT_EQ(*QueryInt(*conn, "PRAGMA user_version"), m.version);
  }
}

TEST(MigrationsTest, RegionTableIsLoadedByVersionTwo) {
  testing::TempDir dir;
  auto conn = RawConnection(dir.File("regions.db"));
  ASSERT_NE(conn, nullptr);
  ASSERT_TRUE(Migrate(*conn, 1).ok());
  EXPECT_EQ(*QueryInt(*conn, "SELECT count(*) FROM agencies"), 0);
  ASSERT_TRUE(Migrate(*conn, 2).ok());
  EXPECT_EQ(*QueryInt(*conn, "SELECT count(*) FROM agencies"), 35);
  EXPECT_EQ(*QueryInt(*conn, "SELECT count(*) FROM agencies WHERE level = 1"),
            1);
  EXPECT_EQ(*QueryText(*conn, "SELECT prefix FROM agencies WHERE level = 1"),
            "000");
  EXPECT_EQ(*QueryText(*conn, "SELECT name FROM agencies WHERE prefix = '000'"),
            "中国围棋协会");
  EXPECT_EQ(*QueryText(*conn, "SELECT name FROM agencies WHERE prefix = '610'"),
            "陕西");
  EXPECT_EQ(
      *QueryText(*conn, "SELECT name_en FROM agencies WHERE prefix = '440'"),
      "Guangdong");
  EXPECT_EQ(*QueryInt(*conn, "SELECT count(*) FROM agencies WHERE status != 1"),
            0);
  // Every prefix is the SPEC's: three digits, province code x 10.
  EXPECT_EQ(
      *QueryInt(
          *conn,
          "SELECT count(*) FROM agencies WHERE prefix NOT GLOB '[0-9][0-9]0'"),
      0);
  // The seeding is itself audited.
  EXPECT_EQ(*QueryInt(*conn, "SELECT count(*) FROM audit_log"), 1);
}

TEST(MigrationsTest, ReopeningIsANoOp) {
  testing::TempDir dir;
  const std::string path = dir.File("reopen.db");
  testing::DatabaseSnapshot first;
  {
    auto db = Database::Open(path);
    ASSERT_TRUE(db.ok()) << db.status();
    SqlRegistryRepository repo(db->get());
    registry::Player p;
    p.name = "留存";
    p.agency_prefix = "110";
    absl::Status s =
        repo.InsertPlayer(
                p, std::nullopt,
                ChangeRecord{1, "test", "player.register", "", "", ""})
            .status();
    ASSERT_TRUE(s.ok()) << s;
    first = *testing::TakeSnapshot(db->get());
  }
  auto again = Database::Open(path);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*(*again)->SchemaVersion(), LatestSchemaVersion());
  EXPECT_EQ(*testing::TakeSnapshot(again->get()), first);
  EXPECT_EQ(first.Rows("players"), 1);
}

TEST(MigrationsTest, NewerSchemaIsRefused) {
  testing::TempDir dir;
  const std::string path = dir.File("future.db");
  {
    auto conn = RawConnection(path);
    ASSERT_NE(conn, nullptr);
    ASSERT_TRUE(Migrate(*conn).ok());
    ASSERT_TRUE(conn->Exec("PRAGMA user_version = " +
                           std::to_string(LatestSchemaVersion() + 1))
                    .ok());
    EXPECT_EQ(Migrate(*conn).code(), StatusCode::kFailedPrecondition);
  }
  auto db = Database::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(db.status().message().find("newer"), absl::string_view::npos)
      << db.status();
}

TEST(DatabaseTest, AuditLogIsAppendOnly) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("audit.db"));
  ASSERT_TRUE(db.ok());
  const auto before = *testing::TakeSnapshot(db->get());
  ASSERT_GT(before.Rows("audit_log"), 0);
  for (const char* sql :
       {"UPDATE audit_log SET entry = x'00'", "DELETE FROM audit_log",
        "DELETE FROM audit_log WHERE seq = 1"}) {
    absl::Status s = (*db)->Write([&](Connection& c) { return c.Exec(sql); });
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << sql << ": " << s;
    EXPECT_NE(s.message().find("append-only"), absl::string_view::npos) << s;
  }
  EXPECT_EQ(*testing::TakeSnapshot(db->get()), before);
}

TEST(DatabaseTest, PragmasAndFilePermissions) {
  testing::TempDir dir;
  const std::string path = dir.File("pragmas.db");
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok());
  std::string journal;
  int64_t foreign_keys = 0;
  ASSERT_TRUE((*db)
                  ->Write([&](Connection& c) -> absl::Status {
                    GORANK_ASSIGN_OR_RETURN(
                        journal, QueryText(c, "PRAGMA journal_mode"));
                    GORANK_ASSIGN_OR_RETURN(foreign_keys,
                                            QueryInt(c, "PRAGMA foreign_keys"));
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(journal, "wal");
  EXPECT_EQ(foreign_keys, 1);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "the database holds resident IDs";
}

TEST(DatabaseTest, FailedWriteRollsBack) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("rollback.db"));
  ASSERT_TRUE(db.ok());
  const auto before = *testing::TakeSnapshot(db->get());
  absl::Status s = (*db)->Write([](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(c.Exec("DELETE FROM agencies WHERE prefix = '820'"));
    return absl::AbortedError("changed my mind");
  });
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_EQ(*testing::TakeSnapshot(db->get()), before);
}

TEST(DatabaseTest, NotADatabaseIsDataLoss) {
  testing::TempDir dir;
  const std::string path = dir.File("garbage.db");
  {
    std::ofstream out(path);
    for (int i = 0; i < 200; ++i)
      out << "this is not an SQLite database file\n";
  }
  auto db = Database::Open(path);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kDataLoss) << db.status();
}

TEST(DatabaseTest, UnopenablePathIsUnavailable) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("no/such/dir/x.db"));
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kUnavailable) << db.status();
}

TEST(DatabaseTest, ABackupIsPrivateToItsOwnerWhateverTheUmask) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("live.db"));
  ASSERT_TRUE(db.ok());
  const std::string dest = dir.File("backup.db");
  const mode_t old_umask = ::umask(022);  // the usual shell umask: 0644 files
  absl::Status s = (*db)->BackupTo(dest);
  ::umask(old_umask);
  ASSERT_TRUE(s.ok()) << s;
  struct stat st;
  ASSERT_EQ(::stat(dest.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);  // it holds resident ID numbers
}

TEST(DatabaseTest, WritesRefusedAreRefusedWithTheReasonAndReadsGoOn) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("live.db"));
  ASSERT_TRUE(db.ok());
  (*db)->RefuseWrites(
      absl::FailedPreconditionError("the audit log fails its check"));
  bool ran = false;
  absl::Status w = (*db)->Write([&](Connection&) {
    ran = true;
    return absl::OkStatus();
  });
  EXPECT_EQ(w.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(w.message(), "the audit log fails its check");
  EXPECT_FALSE(ran);
  EXPECT_TRUE((*db)->Read([](Connection&) { return absl::OkStatus(); }).ok());
}

TEST(DatabaseTest, BackupIsAConsistentCopy) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("live.db"));
  ASSERT_TRUE(db.ok());
  const std::string dest = dir.File("backup.db");
  ASSERT_TRUE((*db)->BackupTo(dest).ok());
  EXPECT_EQ((*db)->BackupTo(dest).code(), StatusCode::kFailedPrecondition);
  auto copy = Database::Open(dest);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(*testing::TakeSnapshot(copy->get()),
            *testing::TakeSnapshot(db->get()));
}

}  // namespace
}  // namespace gorank::storage
