// SqliteConnection's caches: the catalogue answers (PrimaryKeyColumns,
// TableColumns) kept per connection and forgotten when the schema may move,
// and the transaction-control statements Exec runs prepared.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "tests/storage/scratch_table.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage {
namespace {

using ::testing::ElementsAre;

struct Catalogue {
  std::vector<std::string> key;
  std::vector<std::string> columns;
};

absl::StatusOr<Catalogue> ReadCatalogue(Database& db, const std::string& t) {
  Catalogue out;
  GORANK_RETURN_IF_ERROR(db.Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(out.key, c.PrimaryKeyColumns(t));
    GORANK_ASSIGN_OR_RETURN(out.columns, c.TableColumns(t));
    return absl::OkStatus();
  }));
  return out;
}

absl::Status Exec(Database& db, const std::string& sql) {
  return db.Write([&](Connection& c) { return c.Exec(sql); });
}

TEST(SqliteConnectionTest, CatalogueFollowsTheSchemaThroughDdl) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("catalogue.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(Exec(**db, "CREATE TABLE t(a TEXT PRIMARY KEY, b INTEGER)").ok());
  auto first = ReadCatalogue(**db, "t");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_THAT(first->key, ElementsAre("a"));
  EXPECT_THAT(first->columns, ElementsAre("a", "b"));

  // Asked again (from the cache), then after each kind of DDL.
  first = ReadCatalogue(**db, "t");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_THAT(first->columns, ElementsAre("a", "b"));
  ASSERT_TRUE(Exec(**db, "ALTER TABLE t ADD COLUMN c TEXT").ok());
  auto added = ReadCatalogue(**db, "t");
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_THAT(added->columns, ElementsAre("a", "b", "c"));

  ASSERT_TRUE(Exec(**db,
                   "DROP TABLE t; CREATE TABLE t(x INTEGER, y TEXT, "
                   "PRIMARY KEY (y, x))")
                  .ok());
  auto rebuilt = ReadCatalogue(**db, "t");
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_THAT(rebuilt->key, ElementsAre("y", "x"));
  EXPECT_THAT(rebuilt->columns, ElementsAre("x", "y"));

  // A table that does not exist yet has no columns, and has them once made.
  auto missing = ReadCatalogue(**db, "later");
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_TRUE(missing->columns.empty());
  ASSERT_TRUE(Exec(**db, "CREATE TABLE later(k INTEGER PRIMARY KEY)").ok());
  auto made = ReadCatalogue(**db, "later");
  ASSERT_TRUE(made.ok()) << made.status();
  EXPECT_THAT(made->columns, ElementsAre("k"));
}

TEST(SqliteConnectionTest, SavepointsRunPreparedAndStillReportErrors) {
  testing::TempDir dir;
  auto db = Database::Open(dir.File("savepoints.db"));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(Exec(**db, "CREATE TABLE t(x INTEGER)").ok());
  // Twice: the second round runs the statements from the cache.
  for (int round = 0; round < 2; ++round) {
    absl::Status s = (*db)->Write([&](Connection& c) -> absl::Status {
      GORANK_RETURN_IF_ERROR(c.Exec("SAVEPOINT one"));
      GORANK_RETURN_IF_ERROR(c.Exec("INSERT INTO t VALUES (1)"));
      GORANK_RETURN_IF_ERROR(c.Exec("RELEASE SAVEPOINT one; SAVEPOINT one"));
      GORANK_RETURN_IF_ERROR(c.Exec("INSERT INTO t VALUES (2)"));
      GORANK_RETURN_IF_ERROR(c.Exec("ROLLBACK TO SAVEPOINT one"));
      GORANK_RETURN_IF_ERROR(c.Exec("RELEASE SAVEPOINT one"));
      const absl::Status unknown = c.Exec("RELEASE SAVEPOINT nosuch");
      EXPECT_FALSE(unknown.ok());
      EXPECT_THAT(std::string(unknown.message()),
                  ::testing::HasSubstr("no such savepoint"));
      return absl::OkStatus();
    });
    ASSERT_TRUE(s.ok()) << s;
    auto n = CountScratchRows(**db);
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, round + 1) << "round " << round;
  }
  // A COMMIT with no transaction is refused, prepared or not.
  absl::Status s = (*db)->Write([&](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(c.Exec("COMMIT"));
    const absl::Status again = c.Exec("COMMIT");
    EXPECT_FALSE(again.ok());
    return c.Exec("BEGIN IMMEDIATE");
  });
  EXPECT_TRUE(s.ok()) << s;
}

}  // namespace
}  // namespace gorank::storage
