// OwnAuditEntries (which entries the index follower need not read back)
// and, in the pg. run, PgChangeFeed handing this process's own entries back
// without rows while another instance's keep theirs.
#include "storage/own_audit_entries.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/audit/encoding.h"
#include "storage/database.h"
#include "storage/pg_change_feed.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

TEST(OwnAuditEntriesTest, AnEntryIsOwnOnlyWithItsLeafHash) {
  OwnAuditEntries own;
  own.Add({{10, "aa"}, {11, "bb"}, {12, "cc"}});
  EXPECT_TRUE(own.Take(10, "aa"));
  EXPECT_FALSE(own.Take(10, "aa"));  // taken once
  // Another instance's entry at a position once noted (ours was rolled
  // back to its savepoint) is not own.
  EXPECT_FALSE(own.Take(11, "ff"));
  EXPECT_TRUE(own.Take(12, "cc"));
  EXPECT_EQ(own.size(), 0u);
}

TEST(OwnAuditEntriesTest, ALaterNoteAtAPositionReplacesTheEarlier) {
  OwnAuditEntries own;
  own.Add({{7, "rolled back"}});
  own.Add({{7, "committed"}});
  EXPECT_TRUE(own.Take(7, "committed"));
}

TEST(OwnAuditEntriesTest,
     PositionsPassedAndTheOldestBeyondTheLimitAreForgotten) {
  OwnAuditEntries own;
  own.Add({{1, "a"}, {2, "b"}, {5, "e"}});
  EXPECT_FALSE(own.Take(3, "c"));  // 1 and 2 are behind the follower now
  EXPECT_EQ(own.size(), 1u);
  std::vector<std::pair<int64_t, std::string>> many;
  for (int64_t i = 0; i < int64_t{OwnAuditEntries::kMaxKept} + 10; ++i)
    many.emplace_back(100 + i, "x");
  own.Add(many);
  EXPECT_EQ(own.size(), OwnAuditEntries::kMaxKept);
  EXPECT_FALSE(own.Take(5, "e"));   // the oldest went first
  EXPECT_TRUE(own.Take(110, "x"));  // the newest are kept
}

registry::Player NewPlayer(const std::string& name) {
  registry::Player p;
  p.name = name;
  p.gender = registry::Gender::kMale;
  p.birth_date = Date{1990, 5, 1};
  p.agency_prefix = "110";
  p.created_unix = p.updated_unix = 1751328000;
  return p;
}

// Two instances on one PostgreSQL database ("mine", whose own entries are
// noted, and another) and mine's change feed, from the log's head.
class PgChangeFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::TestOnPostgres()) GTEST_SKIP() << "PostgreSQL only";
    url_ = testing::TestDatabaseUrl(dir_);
    auto mine = Database::Open(url_);
    ASSERT_TRUE(mine.ok()) << mine.status();
    mine_ = std::move(*mine);
    auto other = Database::Open(url_);
    ASSERT_TRUE(other.ok()) << other.status();
    other_ = std::move(*other);
    mine_->TrackOwnAuditEntries(&own_);
    feed_ = std::make_unique<PgChangeFeed>(url_, &own_);
    ASSERT_TRUE(feed_->Connect().ok());
    auto head = feed_->Head();
    ASSERT_TRUE(head.ok()) << head.status();
    head_ = *head;
    mine_repo_ = std::make_unique<SqlRegistryRepository>(mine_.get());
    other_repo_ = std::make_unique<SqlRegistryRepository>(other_.get());
  }
  absl::StatusOr<registry::PlayerId> Register(SqlRegistryRepository& repo,
                                              const std::string& name) {
    return repo.InsertPlayer(
        NewPlayer(name), std::nullopt,
        ChangeRecord{1751328000, "test", "player.register", "", "", "{}"});
  }

  testing::TempDir dir_;
  std::string url_;
  std::unique_ptr<Database> mine_, other_;
  OwnAuditEntries own_;
  std::unique_ptr<PgChangeFeed> feed_;
  int64_t head_ = 0;
  std::unique_ptr<SqlRegistryRepository> mine_repo_, other_repo_;
};

TEST_F(PgChangeFeedTest, OwnEntriesComeBackWithoutRows) {
  auto a = Register(*mine_repo_, "甲");
  ASSERT_TRUE(a.ok()) << a.status();
  auto b = Register(*other_repo_, "乙");
  ASSERT_TRUE(b.ok()) << b.status();
  auto c = Register(*mine_repo_, "丙");
  ASSERT_TRUE(c.ok()) << c.status();

  auto changes = feed_->After(head_, 100);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->size(), 3u);
  EXPECT_TRUE((*changes)[0].rows.empty());
  EXPECT_EQ((*changes)[1].rows,
            std::vector<std::string>{"players:" + std::to_string(b->value)});
  EXPECT_TRUE((*changes)[2].rows.empty());
  // Replayed (a reconnect): every entry is read back then.
  changes = feed_->After(head_, 100);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->size(), 3u);
  EXPECT_EQ((*changes)[0].rows,
            std::vector<std::string>{"players:" + std::to_string(a->value)});
}

// The NOTIFY of this process's own commits (its writer's server process)
// wakes no follower: its entries are in the index already; another
// instance's does. The follower still reads past the own entries, without
// rows.
TEST_F(PgChangeFeedTest, OwnCommitsWakeNoFollower) {
  // The first commit notes the writer's server process; its notice may
  // come before that and wake the feed.
  ASSERT_TRUE(Register(*mine_repo_, "甲").ok());
  ASSERT_TRUE(feed_->Wait(std::chrono::milliseconds(500)).ok());
  const int64_t before = feed_->wake_ups();
  ASSERT_TRUE(Register(*mine_repo_, "乙").ok());
  ASSERT_TRUE(feed_->Wait(std::chrono::milliseconds(300)).ok());
  EXPECT_EQ(feed_->wake_ups(), before);
  auto c = Register(*other_repo_, "丙");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(feed_->Wait(std::chrono::seconds(30)).ok());
  EXPECT_EQ(feed_->wake_ups(), before + 1);

  auto changes = feed_->After(head_, 100);
  ASSERT_TRUE(changes.ok()) << changes.status();
  ASSERT_EQ(changes->size(), 3u);
  EXPECT_TRUE((*changes)[0].rows.empty());
  EXPECT_TRUE((*changes)[1].rows.empty());
  EXPECT_EQ((*changes)[2].rows,
            std::vector<std::string>{"players:" + std::to_string(c->value)});
}

}  // namespace
}  // namespace gorank::storage
