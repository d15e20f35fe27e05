// Database::Probe, the moved-file guard on writes, storage failures mapped to
// UNAVAILABLE, and the reader pool's counters.
#include <sqlite3.h>

#include <cstdio>
#include <future>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/sqlite_database.h"
#include "storage/storage_stats.h"
#include "tests/storage/scratch_table.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage {
namespace {

using absl::StatusCode;

absl::Status CreateTable(Database& db) {
  return db.Write(
      [](Connection& c) { return c.Exec("CREATE TABLE t(x TEXT)"); });
}

absl::Status Insert(Database& db, const std::string& value) {
  return db.Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare("INSERT INTO t(x) VALUES (?1)"));
    st->Bind(1, value);
    return st->Run();
  });
}

TEST(DatabaseHealthTest, ProbeSucceedsOnAnOpenDatabase) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("ok.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->Probe().ok());
  auto memory = Database::Open(":memory:");
  ASSERT_TRUE(memory.ok()) << memory.status();
  EXPECT_TRUE((*memory)->Probe().ok());
}

TEST(DatabaseHealthTest, MovedFileFailsTheProbeAndRefusesWritesUntilItIsBack) {
  testing::TempDir dir;
  const std::string path = dir.File("rankd.db");
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(CreateTable(**db).ok());
  ASSERT_TRUE(Insert(**db, "before").ok());

  const std::string aside = dir.File("aside.db");
  ASSERT_EQ(std::rename(path.c_str(), aside.c_str()), 0);
  const absl::Status probe = (*db)->Probe();
  EXPECT_EQ(probe.code(), StatusCode::kUnavailable) << probe;
  EXPECT_NE(probe.message().find(path), std::string::npos) << probe;
  bool ran = false;
  const absl::Status write = (*db)->Write([&](Connection&) {
    ran = true;
    return absl::OkStatus();
  });
  EXPECT_EQ(write.code(), StatusCode::kUnavailable) << write;
  EXPECT_FALSE(ran) << "a write ran against a moved database file";
  EXPECT_EQ(Insert(**db, "lost").code(), StatusCode::kUnavailable);

  ASSERT_EQ(std::rename(aside.c_str(), path.c_str()), 0);
  EXPECT_TRUE((*db)->Probe().ok());
  ASSERT_TRUE(Insert(**db, "after").ok());
  EXPECT_EQ(*CountScratchRows(**db), 2);
}

TEST(DatabaseHealthTest, DeletedOrReplacedFileFailsTheProbe) {
  testing::TempDir dir;
  const std::string path = dir.File("gone.db");
  auto db = Database::Open(path);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_EQ(std::remove(path.c_str()), 0);
  EXPECT_EQ((*db)->Probe().code(), StatusCode::kUnavailable);
  // A different file at the same path is not the database rankd opened.
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  EXPECT_EQ((*db)->Probe().code(), StatusCode::kUnavailable);
  EXPECT_EQ(Insert(**db, "x").code(), StatusCode::kUnavailable);
}

TEST(DatabaseHealthTest, FullDiskIsUnavailableAndRolledBack) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("full.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(CreateTable(**db).ok());
  // Cap the file at its current size: SQLite then fails with SQLITE_FULL,
  // as on a full disk.
  ASSERT_TRUE(
      (*db)
          ->Write([](Connection& c) -> absl::Status {
            GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare("PRAGMA page_count"));
            GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
            if (!row) return absl::InternalError("no page_count");
            const int64_t pages = st->Int(0);
            return c.Exec("PRAGMA max_page_count=" + std::to_string(pages));
          })
          .ok());
  const std::string big(64 * 1024, 'x');
  const absl::Status s = Insert(**db, big);
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s;
  EXPECT_EQ(*CountScratchRows(**db), 0) << "the failed write left a row";
  EXPECT_TRUE((*db)->Probe().ok()) << "reads still work on a full disk";
}

TEST(DatabaseHealthTest, StorageErrorsMapToUnavailable) {
  for (int code :
       {SQLITE_IOERR, SQLITE_IOERR_READ, SQLITE_IOERR_FSYNC, SQLITE_FULL,
        SQLITE_CANTOPEN, SQLITE_READONLY_DBMOVED, SQLITE_BUSY}) {
    EXPECT_EQ(SqliteError(code, "m").code(), StatusCode::kUnavailable) << code;
  }
  EXPECT_EQ(SqliteError(SQLITE_CORRUPT, "m").code(), StatusCode::kDataLoss);
  testing::TempDir dir;
  EXPECT_EQ(Database::Open(dir.File("no/such/dir/x.db")).status().code(),
            StatusCode::kUnavailable);
}

TEST(DatabaseHealthTest, ReaderPoolCountsLentConnectionsAndWaits) {
  testing::TempDir dir;
  DatabaseOptions options;
  options.reader_connections = 1;
  auto db = Database::Open(dir.File("pool.db"), options);
  ASSERT_TRUE(db.ok()) << db.status();
  Database::ReaderPoolStats idle = (*db)->reader_pool_stats();
  EXPECT_EQ(idle.size, 1);
  EXPECT_EQ(idle.in_use, 0);
  EXPECT_EQ(idle.waits, 0);

  // Hold the only reader, start a second read that must wait, then release.
  std::promise<void> holding, release;
  std::thread holder([&] {
    (*db)
        ->Read([&](Connection&) {
          holding.set_value();
          release.get_future().wait();
          return absl::OkStatus();
        })
        .IgnoreError();
  });
  holding.get_future().wait();
  EXPECT_EQ((*db)->reader_pool_stats().in_use, 1);
  std::thread waiter([&] { EXPECT_TRUE((*db)->Probe().ok()); });
  // The waiter counts its wait before it blocks; spin (no sleep) until then.
  while ((*db)->reader_pool_stats().waits == 0) std::this_thread::yield();
  release.set_value();
  holder.join();
  waiter.join();
  const Database::ReaderPoolStats after = (*db)->reader_pool_stats();
  EXPECT_EQ(after.in_use, 0);
  EXPECT_EQ(after.waits, 1);

  auto memory = Database::Open(":memory:");
  ASSERT_TRUE(memory.ok());
  EXPECT_EQ((*memory)->reader_pool_stats().size, 0);
}

TEST(DatabaseHealthTest, CountIssuedCertificatesReadsTheTable) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("certs.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  auto n = CountIssuedCertificates(**db);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0);
}

}  // namespace
}  // namespace gorank::storage
