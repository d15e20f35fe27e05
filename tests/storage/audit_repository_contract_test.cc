// The contract of AuditRepository (services/audit/audit_repository.h), run
// against every implementation: the SQL repository on SQLite and on
// PostgreSQL, and the in-memory fake the AuditTrail tests use
// (tests/testing/in_memory_audit_repository.h). The log is append-only:
// each review appends exactly one entry (a refused one none), entries and
// leaf hashes read back by index and never change, the stored leaf hashes
// prove every entry's inclusion in the tree of the whole log, and on the SQL
// engines an UPDATE or DELETE of a log row is refused. Checkpoints are
// stored once per tree size.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/audit_repository.h"
#include "services/audit/merkle.h"
#include "storage/database.h"
#include "storage/sql_audit_repository.h"
#include "tests/storage/repository_backends.h"
#include "tests/testing/in_memory_audit_repository.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {
namespace {

using absl::StatusCode;
using audit::AuditEntry;
using audit::Checkpoint;
using audit::Review;
using audit::ReviewOutcome;

class AuditBackend {
 public:
  virtual ~AuditBackend() = default;
  virtual audit::AuditRepository* repo() = 0;
  // Tries to rewrite, then to delete, log entry `index` behind the
  // repository's back; nullopt when the implementation has no such way (the
  // fake: only the interface reaches its log).
  virtual std::optional<absl::Status> TryRewriteEntry(int64_t index) = 0;
  virtual std::optional<absl::Status> TryDeleteEntry(int64_t index) = 0;
};

class SqlAuditBackend : public AuditBackend {
 public:
  explicit SqlAuditBackend(storage::Engine engine) {
    auto db = storage::Database::Open(EngineAddress(engine, dir_, "audit.db"));
    if (!db.ok()) {
      ADD_FAILURE() << "cannot open the test database: " << db.status();
      std::abort();
    }
    db_ = std::move(*db);
    repo_ = std::make_unique<storage::SqlAuditRepository>(db_.get());
  }
  audit::AuditRepository* repo() override { return repo_.get(); }
  std::optional<absl::Status> TryRewriteEntry(int64_t index) override {
    return db_->Write([&](storage::Connection& c) {
      return c.Exec("UPDATE audit_log SET entry = entry WHERE seq = " +
                    std::to_string(index + 1));
    });
  }
  std::optional<absl::Status> TryDeleteEntry(int64_t index) override {
    return db_->Write([&](storage::Connection& c) {
      return c.Exec("DELETE FROM audit_log WHERE seq = " +
                    std::to_string(index + 1));
    });
  }

 private:
  testing::TempDir dir_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlAuditRepository> repo_;
};

class InMemoryAuditBackend : public AuditBackend {
 public:
  audit::AuditRepository* repo() override { return &repo_; }
  std::optional<absl::Status> TryRewriteEntry(int64_t) override {
    return std::nullopt;
  }
  std::optional<absl::Status> TryDeleteEntry(int64_t) override {
    return std::nullopt;
  }

 private:
  testing::InMemoryAuditRepository repo_;
};

struct AuditCase {
  std::string name;
  std::optional<storage::Engine> engine;  // nullopt: the in-memory fake
};

ChangeRecord Change(const std::string& action, int64_t when) {
  return ChangeRecord{when, "national/token:1",      action, "review:110",
                      "",   "{\"outcome\":\"pass\"}"};
}

Review NewReview(const std::string& prefix, int year, ReviewOutcome outcome) {
  Review r;
  r.agency_prefix = prefix;
  r.year = year;
  r.outcome = outcome;
  r.findings = "审计 " + std::to_string(year) + " 'quoted'";
  r.checkpoint_size = 3;
  r.checkpoint_root = std::string(32, '\x07');
  r.reviewer = "auditor/token:4";
  r.recorded_unix = 1748836800 + year;
  return r;
}

class AuditRepositoryContract : public ::testing::TestWithParam<AuditCase> {
 protected:
  void SetUp() override {
    if (GetParam().engine) {
      const std::string why = EngineUnavailable(*GetParam().engine);
      if (!why.empty()) GTEST_SKIP() << why;
      backend_ = std::make_unique<SqlAuditBackend>(*GetParam().engine);
    } else {
      backend_ = std::make_unique<InMemoryAuditBackend>();
    }
    repo_ = backend_->repo();
    // The SQL migrations log their own first entries: the suite counts from
    // what is there.
    base_ = Size();
  }
  int64_t Size() {
    auto n = repo_->LogSize();
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  }
  int64_t MustInsert(const Review& r, const std::string& action) {
    auto id = repo_->InsertReview(r, Change(action, r.recorded_unix));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : 0;
  }
  std::vector<std::string> All(bool leaves) {
    auto v = leaves ? repo_->LeafHashes(0, Size()) : repo_->Entries(0, Size());
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<std::string>{};
  }

  std::unique_ptr<AuditBackend> backend_;
  audit::AuditRepository* repo_ = nullptr;
  int64_t base_ = 0;
};

TEST_P(AuditRepositoryContract, EachReviewAppendsOneEntryThatReadsBack) {
  const int64_t a =
      MustInsert(NewReview("110", 2024, ReviewOutcome::kPass), "review.record");
  const int64_t b =
      MustInsert(NewReview("120", 2024, ReviewOutcome::kFail), "review.record");
  const int64_t c =
      MustInsert(NewReview("110", 2025, ReviewOutcome::kPassWithConditions),
                 "review.amend");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  ASSERT_EQ(Size(), base_ + 3);

  auto entries = repo_->Entries(base_, base_ + 3);
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 3u);
  const char* actions[] = {"review.record", "review.record", "review.amend"};
  const int64_t times[] = {1748836800 + 2024, 1748836800 + 2024,
                           1748836800 + 2025};
  for (size_t i = 0; i < 3; ++i) {
    auto e = AuditEntry::Decode((*entries)[i]);
    ASSERT_TRUE(e.ok()) << e.status();
    EXPECT_EQ(e->action, actions[i]);
    EXPECT_EQ(e->time_unix, times[i]);
    EXPECT_EQ(e->actor, "national/token:1");
    EXPECT_EQ(e->subject, "review:110");
    EXPECT_EQ(e->before, "");
    EXPECT_EQ(e->after, "{\"outcome\":\"pass\"}");
  }
  auto leaves = repo_->LeafHashes(base_, base_ + 3);
  ASSERT_TRUE(leaves.ok()) << leaves.status();
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*leaves)[i], audit::LeafHash((*entries)[i])) << i;
  }

  auto all = repo_->ListReviews("", 0);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 3u);
  EXPECT_EQ((*all)[0].id, c);  // newest first
  EXPECT_EQ((*all)[2].id, a);
  const Review& got = (*all)[0];
  const Review want =
      NewReview("110", 2025, ReviewOutcome::kPassWithConditions);
  EXPECT_EQ(got.agency_prefix, want.agency_prefix);
  EXPECT_EQ(got.year, want.year);
  EXPECT_EQ(got.outcome, want.outcome);
  EXPECT_EQ(got.findings, want.findings);
  EXPECT_EQ(got.checkpoint_size, want.checkpoint_size);
  EXPECT_EQ(got.checkpoint_root, want.checkpoint_root);
  EXPECT_EQ(got.reviewer, want.reviewer);
  EXPECT_EQ(got.recorded_unix, want.recorded_unix);
  auto by_agency = repo_->ListReviews("110", 0);
  ASSERT_TRUE(by_agency.ok());
  ASSERT_EQ(by_agency->size(), 2u);
  EXPECT_EQ((*by_agency)[0].id, c);
  auto by_year = repo_->ListReviews("", 2024);
  ASSERT_TRUE(by_year.ok());
  ASSERT_EQ(by_year->size(), 2u);
  EXPECT_EQ((*by_year)[0].id, b);
  EXPECT_EQ(repo_->ListReviews("120", 2025)->size(), 0u);

  // Keyset-paged (ListReviewsBefore): below an id, newest first, a limit.
  auto page = repo_->ListReviewsBefore("", 0, 0, 2);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 2u);
  EXPECT_EQ((*page)[0].id, c);
  EXPECT_EQ((*page)[1].id, (*all)[1].id);
  auto rest = repo_->ListReviewsBefore("", 0, (*page)[1].id, 2);
  ASSERT_TRUE(rest.ok()) << rest.status();
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ((*rest)[0].id, a);
  auto agency = repo_->ListReviewsBefore("110", 0, c, 5);
  ASSERT_TRUE(agency.ok()) << agency.status();
  ASSERT_EQ(agency->size(), 1u);
  EXPECT_EQ((*agency)[0].id, (*by_agency)[1].id);
  EXPECT_TRUE(repo_->ListReviewsBefore("", 2024, b, 5)->size() == 1u);
}

TEST_P(AuditRepositoryContract, RefusedReviewAppendsNothing) {
  MustInsert(NewReview("110", 2024, ReviewOutcome::kPass), "review.record");
  const std::vector<std::string> before = All(false);
  auto refused = repo_->InsertReview(
      NewReview("999", 2024, ReviewOutcome::kPass), Change("review.record", 1));
  EXPECT_EQ(refused.status().code(), StatusCode::kNotFound) << refused.status();
  EXPECT_EQ(All(false), before);
  EXPECT_EQ(repo_->ListReviews("", 0)->size(), 1u);
}

TEST_P(AuditRepositoryContract, ReadsPastTheEndAreOutOfRange) {
  MustInsert(NewReview("110", 2024, ReviewOutcome::kPass), "review.record");
  const int64_t n = Size();
  EXPECT_EQ(repo_->Entries(0, n + 1).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(repo_->LeafHashes(n - 1, n + 1).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(repo_->Entries(n, n + 1).status().code(), StatusCode::kOutOfRange);
  auto none = repo_->Entries(n, n);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
  auto last = repo_->Entries(n - 1, n);
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_EQ(last->size(), 1u);
}

// What was logged stays as it was: later appends leave every earlier entry
// and leaf hash byte for byte, and (SQL) the log's rows cannot be rewritten
// or deleted.
TEST_P(AuditRepositoryContract, TheLogIsAppendOnly) {
  MustInsert(NewReview("110", 2024, ReviewOutcome::kPass), "review.record");
  MustInsert(NewReview("120", 2024, ReviewOutcome::kPass), "review.record");
  const std::vector<std::string> entries = All(false);
  const std::vector<std::string> leaves = All(true);
  const int64_t n = Size();

  const std::optional<absl::Status> rewrite = backend_->TryRewriteEntry(n - 1);
  if (rewrite) {
    EXPECT_FALSE(rewrite->ok()) << "an entry was rewritten";
  }
  const std::optional<absl::Status> removal = backend_->TryDeleteEntry(n - 1);
  if (removal) {
    EXPECT_FALSE(removal->ok()) << "an entry was deleted";
  }
  EXPECT_EQ(All(false), entries);

  MustInsert(NewReview("110", 2025, ReviewOutcome::kFail), "review.record");
  ASSERT_EQ(Size(), n + 1);
  auto prefix = repo_->Entries(0, n);
  ASSERT_TRUE(prefix.ok()) << prefix.status();
  EXPECT_EQ(*prefix, entries);
  auto prefix_leaves = repo_->LeafHashes(0, n);
  ASSERT_TRUE(prefix_leaves.ok()) << prefix_leaves.status();
  EXPECT_EQ(*prefix_leaves, leaves);
}

// The stored leaf hashes prove each entry's inclusion in the whole log's
// tree, and the tree before the last append is a prefix of the tree after.
TEST_P(AuditRepositoryContract, LeafHashesProveInclusionAndConsistency) {
  for (int year = 2020; year < 2025; ++year) {
    MustInsert(NewReview("110", year, ReviewOutcome::kPass), "review.record");
  }
  const std::vector<std::string> entries = All(false);
  const std::vector<std::string> leaves = All(true);
  ASSERT_EQ(entries.size(), leaves.size());
  const int64_t n = static_cast<int64_t>(leaves.size());
  const std::string root = audit::RootHash(leaves);
  for (int64_t i = base_; i < n; ++i) {
    auto proof = audit::InclusionProof(i, leaves);
    ASSERT_TRUE(proof.ok()) << proof.status();
    const audit::Verdict v = audit::VerifyInclusion(
        audit::LeafHash(entries[static_cast<size_t>(i)]), i, n, *proof, root);
    EXPECT_TRUE(v.ok) << "entry " << i << ": " << v.reason;
  }
  const std::vector<std::string> old_leaves(leaves.begin(), leaves.end() - 1);
  auto consistency = audit::ConsistencyProof(n - 1, leaves);
  ASSERT_TRUE(consistency.ok()) << consistency.status();
  const audit::Verdict v = audit::VerifyConsistency(
      n - 1, n, audit::RootHash(old_leaves), root, *consistency);
  EXPECT_TRUE(v.ok) << v.reason;
}

TEST_P(AuditRepositoryContract, CheckpointsAreStoredOncePerTreeSize) {
  auto none = repo_->LatestCheckpoint();
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
  const Checkpoint small{2, std::string(32, 'a'), 1000, std::string(64, 's'),
                         "key-1"};
  const Checkpoint large{5, std::string(32, 'b'), 2000, std::string(64, 't'),
                         "key-1"};
  ASSERT_TRUE(repo_->SaveCheckpoint(large).ok());
  ASSERT_TRUE(repo_->SaveCheckpoint(small).ok());
  auto latest = repo_->LatestCheckpoint();
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ(**latest, large);  // the largest tree, every field
  Checkpoint again = large;
  again.root_hash = std::string(32, 'c');
  again.time_unix = 3000;
  EXPECT_TRUE(repo_->SaveCheckpoint(again).ok());  // idempotent
  EXPECT_EQ(**repo_->LatestCheckpoint(), large);
}

INSTANTIATE_TEST_SUITE_P(
    Repositories, AuditRepositoryContract,
    ::testing::Values(AuditCase{"Sqlite", storage::Engine::kSqlite},
                      AuditCase{"Postgres", storage::Engine::kPostgres},
                      AuditCase{"InMemory", std::nullopt}),
    [](const ::testing::TestParamInfo<AuditCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace gorank::storage_test
