// The PostgreSQL trigger functions of each table (storage/pg_schema.cc,
// schema version 13): max + 1 ids and written-row notes with static SQL in
// the schema they were installed in, and the generic way for a table of
// another schema that uses them (a copy restored under another name). Runs
// in the "pg." run of storage_test only.
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

absl::StatusOr<std::string> Text(Database& db, const std::string& sql) {
  std::string out;
  GORANK_RETURN_IF_ERROR(db.Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql.c_str()));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) out = st->Text(0);
    return absl::OkStatus();
  }));
  return out;
}

class PgTriggerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::TestOnPostgres()) GTEST_SKIP() << "PostgreSQL only";
    auto db = Database::Open(testing::TestDatabaseUrl(dir_));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(PgTriggerTest, NewIdsAreTheTablesMaxPlusOne) {
  for (const char* label : {"first", "second"}) {
    absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
      GORANK_ASSIGN_OR_RETURN(
          auto st,
          c.Prepare("INSERT INTO tokens(id, hash, role, label, created_unix) "
                    "VALUES (?1, ?2, 1, ?3, 0)"));
      st->BindNull(1)
          .Bind(2, std::string("hash-") + label)
          .Bind(3, std::string(label));
      return st->Run();
    });
    ASSERT_TRUE(s.ok()) << s;
  }
  EXPECT_EQ(*Text(*db_,
                  "SELECT string_agg(label || '=' || id, ',' ORDER BY id) "
                  "FROM tokens WHERE hash LIKE 'hash-%'"),
            "first=1,second=2");
}

TEST_F(PgTriggerTest, ATableOfAnotherSchemaTakesItsOwnMaxPlusOne) {
  const std::string other =
      "trigger_other_" + std::to_string(std::random_device{}() % 1000000);
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    return c.Exec("CREATE SCHEMA " + other + "; CREATE TABLE " + other +
                  ".tokens(id BIGINT PRIMARY KEY, label TEXT); "
                  "CREATE TRIGGER rankd_next_id BEFORE INSERT ON " +
                  other +
                  ".tokens FOR EACH ROW EXECUTE FUNCTION "
                  "rankd_next_id_tokens(); INSERT INTO " +
                  other + ".tokens(id, label) VALUES (40, 'given')");
  });
  ASSERT_TRUE(s.ok()) << s;
  s = db_->Write([&](Connection& c) {
    return c.Exec("INSERT INTO " + other +
                  ".tokens(id, label) VALUES (NULL, 'assigned')");
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(*Text(*db_, "SELECT id FROM " + other +
                            ".tokens WHERE label = 'assigned'"),
            "41");
  // This schema's own table is untouched and starts at 1.
  EXPECT_EQ(*Text(*db_, "SELECT count(*) FROM tokens"), "0");
}

}  // namespace
}  // namespace gorank::storage
