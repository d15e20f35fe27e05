// Statement::Send on both engines (the "pg." run of storage_test repeats
// these on PostgreSQL): a sent statement runs in its place in the order of
// the transaction, is read with Step() as any other, runs even when never
// stepped, and its failure fails the write.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

using ::testing::ElementsAre;

class SentStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(testing::TestDatabaseUrl(dir_, "sent.db"));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    ASSERT_TRUE(db_->Write([](Connection& c) {
                     return c.Exec(
                         "CREATE TABLE sent_rows(k TEXT PRIMARY KEY, v "
                         "INTEGER NOT NULL)");
                   })
                    .ok());
  }

  // Every row, "k=v", in key order.
  std::vector<std::string> Rows() {
    std::vector<std::string> out;
    absl::Status s = db_->Read([&](Connection& c) -> absl::Status {
      GORANK_ASSIGN_OR_RETURN(
          auto st, c.Prepare("SELECT k, v FROM sent_rows ORDER BY k"));
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) return absl::OkStatus();
        out.push_back(st->Text(0) + "=" + std::to_string(st->Int(1)));
      }
    });
    EXPECT_TRUE(s.ok()) << s;
    return out;
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

constexpr char kInsert[] = "INSERT INTO sent_rows(k, v) VALUES (?1, ?2)";

absl::Status SendInsert(Connection& c, const std::string& k, int64_t v) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsert));
  st->Bind(1, k).Bind(2, v);
  return st->Send();  // the statement is gone before its round trip
}

TEST_F(SentStatementTest, ASentReadIsSteppedAfterTheStatementThatCarriedIt) {
  ASSERT_TRUE(db_->Write([](Connection& c) -> absl::Status {
                   GORANK_RETURN_IF_ERROR(SendInsert(c, "a", 1));
                   return SendInsert(c, "b", 2);
                 })
                  .ok());
  std::vector<std::string> sent_rows;
  int64_t counted = -1;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(
        auto sent, c.Prepare("SELECT k, v FROM sent_rows ORDER BY k DESC"));
    GORANK_RETURN_IF_ERROR(sent->Send());
    GORANK_ASSIGN_OR_RETURN(auto count,
                            c.Prepare("SELECT count(*) FROM sent_rows"));
    GORANK_ASSIGN_OR_RETURN(bool row, count->Step());
    if (row) counted = count->Int(0);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool more, sent->Step());
      if (!more) return absl::OkStatus();
      sent_rows.push_back(sent->Text(0) + "=" + std::to_string(sent->Int(1)));
    }
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(counted, 2);
  EXPECT_THAT(sent_rows, ElementsAre("b=2", "a=1"));
}

TEST_F(SentStatementTest, SentWritesRunInTheirOrderBeforeTheNextStatement) {
  int64_t seen = -1;
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(SendInsert(c, "a", 1));
    GORANK_ASSIGN_OR_RETURN(
        auto update, c.Prepare("UPDATE sent_rows SET v = v + 10 WHERE k = ?1"));
    update->Bind(1, std::string("a"));
    GORANK_RETURN_IF_ERROR(update->Send());
    GORANK_ASSIGN_OR_RETURN(auto read,
                            c.Prepare("SELECT v FROM sent_rows WHERE k = ?1"));
    read->Bind(1, std::string("a"));
    GORANK_ASSIGN_OR_RETURN(bool row, read->Step());
    if (row) seen = read->Int(0);
    // Sent last, carried by the COMMIT.
    return SendInsert(c, "z", 26);
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(seen, 11);
  EXPECT_THAT(Rows(), ElementsAre("a=11", "z=26"));
}

TEST_F(SentStatementTest, SavepointsKeepTheirPlaceAmongSentStatements) {
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(SendInsert(c, "before", 1));
    GORANK_RETURN_IF_ERROR(c.Exec("SAVEPOINT sent"));
    GORANK_RETURN_IF_ERROR(SendInsert(c, "inside", 2));
    // Undoes what was sent after the savepoint only.
    GORANK_RETURN_IF_ERROR(c.Exec("ROLLBACK TO SAVEPOINT sent"));
    GORANK_RETURN_IF_ERROR(c.Exec("RELEASE SAVEPOINT sent"));
    return SendInsert(c, "after", 3);
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(Rows(), ElementsAre("after=3", "before=1"));
}

TEST_F(SentStatementTest, AFailedSentStatementFailsTheWriteAndWritesNothing) {
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return SendInsert(c, "a", 1); }).ok());
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    GORANK_RETURN_IF_ERROR(SendInsert(c, "b", 2));
    GORANK_RETURN_IF_ERROR(SendInsert(c, "a", 3));  // the key is taken
    GORANK_ASSIGN_OR_RETURN(auto read,
                            c.Prepare("SELECT count(*) FROM sent_rows"));
    return read->Run();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
  EXPECT_THAT(Rows(), ElementsAre("a=1"));
}

TEST_F(SentStatementTest, AWriteWhoseSentStatementFailedCannotCommit) {
  if (!testing::TestOnPostgres()) {
    GTEST_SKIP() << "SQLite runs a sent statement at once: Send() itself "
                    "returns its error";
  }
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return SendInsert(c, "a", 1); }).ok());
  // The caller drops every error: the COMMIT still refuses.
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    SendInsert(c, "b", 2).IgnoreError();
    SendInsert(c, "a", 3).IgnoreError();
    auto read = c.Prepare("SELECT count(*) FROM sent_rows");
    if (read.ok()) (*read)->Run().IgnoreError();
    return absl::OkStatus();
  });
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
  EXPECT_THAT(Rows(), ElementsAre("a=1"));
  // The next write is not poisoned.
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return SendInsert(c, "c", 4); }).ok());
  EXPECT_THAT(Rows(), ElementsAre("a=1", "c=4"));
}

TEST_F(SentStatementTest, AWriteWhoseSentStatementNeverRanCannotCommit) {
  if (!testing::TestOnPostgres()) {
    GTEST_SKIP() << "SQLite runs a sent statement at once";
  }
  // The statement that was to carry it fails before anything is sent (the
  // server cannot prepare it); the caller drops that error.
  absl::Status s = db_->Write([&](Connection& c) -> absl::Status {
    SendInsert(c, "b", 2).IgnoreError();
    auto bad = c.Prepare("SELECT no_such_column FROM sent_rows");
    if (bad.ok()) (*bad)->Run().IgnoreError();
    return absl::OkStatus();
  });
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(Rows(), ElementsAre());
}

}  // namespace
}  // namespace gorank::storage
