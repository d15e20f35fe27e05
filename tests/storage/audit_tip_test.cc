// AppendAudit's link to the previous entry (storage/audit_log.h) when the
// transaction appended it itself (Connection::audit_tip), on both engines
// (the "pg." run of storage_test repeats these on PostgreSQL): every entry
// names the entry before it as the log holds it, never one rolled back to
// a savepoint or with a failed write.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/keyed_digest.h"
#include "services/common/status_macros.h"
#include "storage/audit_log.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

const std::string kKey(32, 'k');

class AuditTipTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.row_digest_key = kKey;
    auto db = Database::Open(testing::TestDatabaseUrl(dir_, "tip.db"), options);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
  }

  static absl::StatusOr<int64_t> Append(Connection& c,
                                        const std::string& action) {
    return AppendAudit(c, ChangeRecord{1, "test", action, "", "", ""});
  }

  struct Stored {
    int64_t seq;
    std::string action;
    std::string link;  // the entry's link row, "" when it has none
    std::string leaf;
  };
  // The whole log, in order.
  std::vector<Stored> Log() {
    std::vector<Stored> out;
    absl::Status s = db_->Read([&](Connection& c) -> absl::Status {
      GORANK_ASSIGN_OR_RETURN(
          auto st, c.Prepare("SELECT seq, entry, leaf_hash FROM audit_log "
                             "ORDER BY seq"));
      while (true) {
        GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
        if (!row) return absl::OkStatus();
        const int64_t seq = st->Int(0);
        GORANK_ASSIGN_OR_RETURN(audit::AuditEntry e,
                                audit::AuditEntry::Decode(st->Blob(1)));
        auto link = e.rows.find(audit::ChainRowName(seq - 1));
        out.push_back(Stored{seq, e.action,
                             link == e.rows.end() ? "" : link->second,
                             st->Blob(2)});
      }
    });
    EXPECT_TRUE(s.ok()) << s;
    return out;
  }
  // Every entry after the first links to the one before it in the log.
  void ExpectChained() {
    const std::vector<Stored> log = Log();
    ASSERT_FALSE(log.empty());
    for (size_t i = 1; i < log.size(); ++i) {
      EXPECT_EQ(log[i].seq, log[i - 1].seq + 1);
      EXPECT_EQ(log[i].link,
                audit::ChainLink(kKey, log[i - 1].seq, log[i - 1].leaf))
          << "entry " << log[i].seq << " (" << log[i].action << ")";
    }
  }
  // The actions of the log's last `n` entries, oldest first.
  std::vector<std::string> LastActions(size_t n) {
    const std::vector<Stored> log = Log();
    std::vector<std::string> out;
    for (size_t i = log.size() > n ? log.size() - n : 0; i < log.size(); ++i) {
      out.push_back(log[i].action);
    }
    return out;
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
};

TEST_F(AuditTipTest, EntriesOfOneTransactionLinkInTurn) {
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return Append(c, "before").status(); })
          .ok());
  int64_t first = 0;
  ASSERT_TRUE(db_->Write([&](Connection& c) -> absl::Status {
                   GORANK_ASSIGN_OR_RETURN(first, Append(c, "a"));
                   GORANK_ASSIGN_OR_RETURN(int64_t b, Append(c, "b"));
                   GORANK_ASSIGN_OR_RETURN(int64_t d, Append(c, "c"));
                   EXPECT_EQ(b, first + 1);
                   EXPECT_EQ(d, first + 2);
                   return absl::OkStatus();
                 })
                  .ok());
  EXPECT_EQ(LastActions(4),
            (std::vector<std::string>{"before", "a", "b", "c"}));
  ExpectChained();
}

TEST_F(AuditTipTest, AnEntryRolledBackToASavepointIsNotLinkedTo) {
  ASSERT_TRUE(db_->Write([](Connection& c) -> absl::Status {
                   GORANK_RETURN_IF_ERROR(Append(c, "kept").status());
                   GORANK_RETURN_IF_ERROR(c.Exec("SAVEPOINT s"));
                   GORANK_RETURN_IF_ERROR(Append(c, "rolled back").status());
                   GORANK_RETURN_IF_ERROR(c.RollbackTo("s"));
                   return Append(c, "after").status();
                 })
                  .ok());
  EXPECT_EQ(LastActions(2), (std::vector<std::string>{"kept", "after"}));
  ExpectChained();
}

TEST_F(AuditTipTest, AFailedWritesEntryIsNotLinkedTo) {
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return Append(c, "kept").status(); })
          .ok());
  EXPECT_FALSE(db_->Write([](Connection& c) -> absl::Status {
                    GORANK_RETURN_IF_ERROR(Append(c, "failed").status());
                    return absl::AbortedError("the write fails");
                  })
                   .ok());
  ASSERT_TRUE(
      db_->Write([](Connection& c) { return Append(c, "next").status(); })
          .ok());
  EXPECT_EQ(LastActions(2), (std::vector<std::string>{"kept", "next"}));
  ExpectChained();
}

}  // namespace
}  // namespace gorank::storage
