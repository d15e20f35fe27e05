// AuditTrail over an in-memory repository: signed checkpoints, entry ranges,
// inclusion and consistency proofs (checked with the verifier functions),
// the table check against the logged row digests, and annual reviews.
#include "services/audit/audit_trail.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/merkle.h"
#include "tests/testing/in_memory_audit_repository.h"

namespace gorank::audit {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int64_t kNow = 1717214400;  // 2024-06-01 12:00 Asia/Shanghai

// Entry `i` of a test log; writes the given rows.
AuditEntry EntryWithRows(int64_t i, std::map<std::string, std::string> rows) {
  AuditEntry e;
  e.time_unix = kNow + i;
  e.actor = "national/token:1";
  e.action = "player.register";
  e.subject = "player:" + std::to_string(i);
  e.after = "{\"n\":" + std::to_string(i) + "}";
  e.rows = std::move(rows);
  return e;
}

class AuditTrailTest : public ::testing::Test {
 protected:
  AuditTrailTest()
      : key_(SigningKey::FromSeed(std::string(32, 'k')).value()),
        clock_(kNow),
        trail_(&repo_, &key_, &clock_) {}

  void AppendPlain(int n) {
    for (int i = 0; i < n; ++i) {
      repo_.Append(EntryWithRows(repo_.LogSize().value(), {}));
    }
  }

  testing::InMemoryAuditRepository repo_;
  SigningKey key_;
  FakeClock clock_;
  AuditTrail trail_;
};

TEST_F(AuditTrailTest, CheckpointOfEmptyLogIsSignedEmptyRoot) {
  auto cp = trail_.SignCheckpointNow();
  ASSERT_TRUE(cp.ok()) << cp.status();
  EXPECT_EQ(cp->tree_size, 0);
  EXPECT_EQ(cp->root_hash, EmptyRootHash());
  EXPECT_EQ(cp->time_unix, kNow);
  EXPECT_EQ(cp->key_id, key_.KeyId());
  EXPECT_TRUE(VerifyCheckpoint(*cp, key_.public_key()).ok);
  ASSERT_EQ(repo_.saved_checkpoints().size(), 1u);
  EXPECT_EQ(repo_.saved_checkpoints()[0], *cp);
}

TEST_F(AuditTrailTest, CheckpointRootFollowsTheLogIncrementally) {
  // Sizes that cross power-of-two boundaries between calls.
  for (int add : {1, 2, 5, 8, 1, 17}) {
    AppendPlain(add);
    clock_.Advance(60);
    auto cp = trail_.SignCheckpointNow();
    ASSERT_TRUE(cp.ok()) << cp.status();
    const std::vector<std::string> leaves = repo_.AllLeafHashes();
    EXPECT_EQ(cp->tree_size, static_cast<int64_t>(leaves.size()));
    EXPECT_EQ(cp->root_hash, RootHash(leaves)) << "size " << leaves.size();
    EXPECT_EQ(cp->time_unix, clock_.NowSeconds());
    EXPECT_TRUE(VerifyCheckpoint(*cp, trail_.public_key()).ok);
  }
  EXPECT_EQ(repo_.saved_checkpoints().size(), 6u);
  EXPECT_EQ(repo_.LatestCheckpoint().value()->tree_size, 34);
}

TEST_F(AuditTrailTest, EntryRangesAreChecked) {
  AppendPlain(5);
  struct Case {
    int64_t begin, end;
    bool ok;
  };
  for (const Case& c : std::vector<Case>{{0, 5, true},
                                         {2, 2, true},
                                         {4, 5, true},
                                         {-1, 2, false},
                                         {3, 2, false},
                                         {0, 6, false},
                                         {5, 6, false}}) {
    auto entries = trail_.Entries(c.begin, c.end);
    auto leaves = trail_.LeafHashes(c.begin, c.end);
    SCOPED_TRACE(std::to_string(c.begin) + ".." + std::to_string(c.end));
    if (c.ok) {
      ASSERT_TRUE(entries.ok()) << entries.status();
      ASSERT_TRUE(leaves.ok()) << leaves.status();
      ASSERT_EQ(entries->size(), static_cast<size_t>(c.end - c.begin));
      for (size_t i = 0; i < entries->size(); ++i) {
        EXPECT_EQ(LeafHash((*entries)[i]), (*leaves)[i]);
        EXPECT_EQ(
            AuditEntry::Decode((*entries)[i])->subject,
            "player:" + std::to_string(c.begin + static_cast<int64_t>(i)));
      }
    } else {
      EXPECT_EQ(entries.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(entries.status().message()),
                  HasSubstr("log size 5"));
      EXPECT_EQ(leaves.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST_F(AuditTrailTest, AtMostAThousandEntriesACall) {
  AppendPlain(1001);
  EXPECT_TRUE(trail_.Entries(0, 1000).ok());
  EXPECT_EQ(trail_.Entries(0, 1001).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(trail_.LeafHashes(0, 1001).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(trail_.LeafHashes(1, 1001).value().size(), 1000u);
}

TEST_F(AuditTrailTest, InclusionProofsVerifyForEveryLeafAndSize) {
  AppendPlain(13);
  const std::vector<std::string> leaves = repo_.AllLeafHashes();
  for (int64_t size = 1; size <= 13; ++size) {
    const std::string root = RootHash(
        std::vector<std::string>(leaves.begin(), leaves.begin() + size));
    for (int64_t index = 0; index < size; ++index) {
      auto proof = trail_.InclusionProof(index, size);
      ASSERT_TRUE(proof.ok()) << proof.status();
      EXPECT_EQ(proof->first, leaves[static_cast<size_t>(index)]);
      EXPECT_TRUE(
          VerifyInclusion(proof->first, index, size, proof->second, root).ok)
          << index << " in " << size;
      // The same proof does not prove another leaf.
      EXPECT_FALSE(
          VerifyInclusion(LeafHash("forged"), index, size, proof->second, root)
              .ok);
    }
  }
  for (auto [index, size] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 0}, {-1, 3}, {3, 3}, {0, 14}}) {
    EXPECT_EQ(trail_.InclusionProof(index, size).status().code(),
              absl::StatusCode::kInvalidArgument)
        << index << " in " << size;
  }
}

TEST_F(AuditTrailTest, ConsistencyProofsVerifyForEveryPairOfSizes) {
  AppendPlain(11);
  const std::vector<std::string> leaves = repo_.AllLeafHashes();
  auto root = [&](int64_t n) {
    return RootHash(
        std::vector<std::string>(leaves.begin(), leaves.begin() + n));
  };
  for (int64_t m = 0; m <= 11; ++m) {
    for (int64_t n = m; n <= 11; ++n) {
      auto proof = trail_.ConsistencyProof(m, n);
      ASSERT_TRUE(proof.ok()) << proof.status();
      EXPECT_TRUE(VerifyConsistency(m, n, root(m), root(n), *proof).ok)
          << m << " -> " << n;
      if (m > 0 && m < n) {
        EXPECT_FALSE(
            VerifyConsistency(m, n, LeafHash("other"), root(n), *proof).ok);
      }
    }
  }
  for (auto [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{-1, 3}, {4, 3}, {0, 12}}) {
    EXPECT_EQ(trail_.ConsistencyProof(m, n).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

TEST_F(AuditTrailTest, TablesMatchingTheLogHaveNoMismatch) {
  repo_.Append(
      EntryWithRows(0, {{"players:1", "aa"}, {"rank_history:1", "bb"}}));
  repo_.Append(EntryWithRows(1, {{"players:1", "cc"}}));
  repo_.Append(EntryWithRows(2, {{"objections:rowid/7", "deleted"}}));
  repo_.SetRows({{"players:1", "cc"}, {"rank_history:1", "bb"}});
  auto check = trail_.VerifyTables();
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_EQ(check->rows_checked, 2);
  EXPECT_EQ(check->entries_read, 3);
  EXPECT_TRUE(check->mismatches.empty());
}

TEST_F(AuditTrailTest, TablesChangedBehindTheLogAreNamedWithTheirLastEntry) {
  repo_.Append(EntryWithRows(0, {{"players:1", "aa"}, {"players:2", "a2"}}));
  repo_.Append(EntryWithRows(
      1, {{"certificates:000240001", "c1"}, {"players:1", "ab"}}));
  repo_.Append(EntryWithRows(2, {{"players:3", "a3"}}));
  repo_.Append(EntryWithRows(3, {{"players:2", "b2"}}));
  repo_.SetRows({
      {"players:1", "ab"},               // as logged
      {"players:2", "EDITED"},           // last written by entry 3
      {"certificates:000240001", "XX"},  // last written by entry 1
      {"players:9", "z9"},               // never logged
                                         // players:3 (entry 2) is missing
  });
  auto check = trail_.VerifyTables();
  ASSERT_TRUE(check.ok()) << check.status();
  ASSERT_EQ(check->mismatches.size(), 4u);
  const auto& m = check->mismatches;
  EXPECT_EQ(m[0].row, "certificates:000240001");
  EXPECT_EQ(m[0].log_index, 1);
  EXPECT_THAT(m[0].reason, HasSubstr("differs"));
  EXPECT_EQ(m[1].row, "players:3");
  EXPECT_EQ(m[1].log_index, 2);
  EXPECT_THAT(m[1].reason, HasSubstr("missing"));
  EXPECT_EQ(m[2].row, "players:2");
  EXPECT_EQ(m[2].log_index, 3);
  EXPECT_EQ(m[3].row, "players:9");
  EXPECT_EQ(m[3].log_index, -1);
  EXPECT_THAT(m[3].reason, HasSubstr("not in the audit log"));
}

TEST_F(AuditTrailTest, AnEntryThatDoesNotDecodeIsAMismatchAtItsIndex) {
  repo_.Append(EntryWithRows(0, {{"players:1", "aa"}}));
  repo_.Append("{\"not\":\"an entry\"}");
  repo_.SetRows({{"players:1", "aa"}});
  auto check = trail_.VerifyTables();
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->mismatches.size(), 1u);
  EXPECT_EQ(check->mismatches[0].row, "audit_log");
  EXPECT_EQ(check->mismatches[0].log_index, 1);
}

TEST_F(AuditTrailTest, ReviewIsRecordedAgainstTheRootOfItsCheckpoint) {
  AppendPlain(6);
  auth::Caller auditor{auth::Role::kAuditor, "", 4};
  Review r;
  r.agency_prefix = "110";
  r.year = 2023;
  r.outcome = ReviewOutcome::kPassWithConditions;
  r.findings = "serial 17 voided on paper; records complete";
  r.checkpoint_size = 4;
  auto recorded = trail_.RecordReview(auditor, r);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_EQ(recorded->id, 1);
  const auto leaves = repo_.AllLeafHashes();
  EXPECT_EQ(
      recorded->checkpoint_root,
      RootHash(std::vector<std::string>(leaves.begin(), leaves.begin() + 4)));
  EXPECT_EQ(recorded->reviewer, "auditor/token:4");
  EXPECT_EQ(recorded->recorded_unix, kNow);
  // The review itself is logged.
  ASSERT_EQ(repo_.LogSize().value(), 7);
  auto logged = AuditEntry::Decode(repo_.Entries(6, 7).value()[0]);
  ASSERT_TRUE(logged.ok());
  EXPECT_EQ(logged->action, "review.record");
  EXPECT_EQ(logged->subject, "review:110:2023");
  EXPECT_EQ(logged->actor, "auditor/token:4");
  EXPECT_THAT(logged->after, HasSubstr("\"outcome\":\"pass_with_conditions\""));
  auto listed = trail_.ListReviews(auditor, "110", 2023);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->rows.size(), 1u);
  EXPECT_EQ(listed->rows[0].findings, r.findings);
}

TEST_F(AuditTrailTest, BadReviewsAreRefusedWithPreciseCodes) {
  AppendPlain(3);
  auth::Caller auditor{auth::Role::kAuditor, "", 4};
  struct Case {
    std::string prefix;
    int year;
    std::string findings;
    int64_t size;
    absl::StatusCode code;
  };
  for (const Case& c : std::vector<Case>{
           {"11", 2023, "ok", 3, absl::StatusCode::kInvalidArgument},
           {"110", 1999, "ok", 3, absl::StatusCode::kInvalidArgument},
           {"110", 2100, "ok", 3, absl::StatusCode::kInvalidArgument},
           {"110", 2023, "", 3, absl::StatusCode::kInvalidArgument},
           {"110", 2023, std::string(20001, 'x'), 3,
            absl::StatusCode::kInvalidArgument},
           {"110", 2023, "ok", 0, absl::StatusCode::kFailedPrecondition},
           {"110", 2023, "ok", 4, absl::StatusCode::kFailedPrecondition},
           {"999", 2023, "ok", 3, absl::StatusCode::kNotFound},
       }) {
    Review r;
    r.agency_prefix = c.prefix;
    r.year = c.year;
    r.outcome = ReviewOutcome::kPass;
    r.findings = c.findings;
    r.checkpoint_size = c.size;
    EXPECT_EQ(trail_.RecordReview(auditor, r).status().code(), c.code)
        << c.prefix << " " << c.year << " size " << c.size;
  }
  EXPECT_EQ(repo_.LogSize().value(), 3);  // nothing logged
  EXPECT_TRUE(trail_.ListReviews(auditor, "", 0).value().rows.empty());
}

TEST_F(AuditTrailTest,
       StockReleaseNeedsTheLatestReviewOfThePreviousYearPassed) {
  AppendPlain(2);
  auth::Caller auditor{auth::Role::kAuditor, "", 4};
  auto record = [&](const std::string& prefix, int year,
                    ReviewOutcome outcome) {
    Review r;
    r.agency_prefix = prefix;
    r.year = year;
    r.outcome = outcome;
    r.findings = "findings";
    r.checkpoint_size = 2;
    ASSERT_TRUE(trail_.RecordReview(auditor, r).ok());
  };
  absl::Status none = trail_.CheckReviewPassed("110", 2024);
  EXPECT_EQ(none.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(
      std::string(none.message()),
      HasSubstr(
          "rule: stock for 2025 is released only after agency 110 passed the "
          "annual review of 2024; no review is recorded"));

  record("110", 2023, ReviewOutcome::kPass);  // another year
  record("130", 2024, ReviewOutcome::kPass);  // another agency
  EXPECT_EQ(trail_.CheckReviewPassed("110", 2024).code(),
            absl::StatusCode::kFailedPrecondition);

  record("110", 2024, ReviewOutcome::kFail);
  absl::Status failed = trail_.CheckReviewPassed("110", 2024);
  EXPECT_EQ(failed.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(failed.message()),
              HasSubstr("agency 110 failed the annual review of 2024"));

  record("110", 2024, ReviewOutcome::kPassWithConditions);  // a second review
  EXPECT_TRUE(trail_.CheckReviewPassed("110", 2024).ok());
  record("110", 2024, ReviewOutcome::kFail);  // the latest counts
  EXPECT_EQ(trail_.CheckReviewPassed("110", 2024).code(),
            absl::StatusCode::kFailedPrecondition);
  record("110", 2024, ReviewOutcome::kPass);
  EXPECT_TRUE(trail_.CheckReviewPassed("110", 2024).ok());
  EXPECT_TRUE(trail_.CheckReviewPassed("130", 2024).ok());

  std::vector<ReviewOutcome> outcomes;
  const std::vector<Review> listed =
      trail_.ListReviews(auditor, "110", 2024).value().rows;
  for (const Review& r : listed) outcomes.push_back(r.outcome);
  EXPECT_THAT(outcomes, ElementsAre(ReviewOutcome::kPass, ReviewOutcome::kFail,
                                    ReviewOutcome::kPassWithConditions,
                                    ReviewOutcome::kFail));
}

TEST_F(AuditTrailTest, AnAgencySeesOnlyItsOwnReviews) {
  AppendPlain(3);
  auth::Caller auditor{auth::Role::kAuditor, "", 4};
  for (const char* prefix : {"110", "130"}) {
    Review r;
    r.agency_prefix = prefix;
    r.year = 2024;
    r.outcome = ReviewOutcome::kPass;
    r.findings = "complete";
    r.checkpoint_size = 3;
    ASSERT_TRUE(trail_.RecordReview(auditor, r).ok());
  }
  auto prefixes = [](const Page<Review>& page) {
    std::vector<std::string> out;
    for (const Review& r : page.rows) out.push_back(r.agency_prefix);
    return out;
  };
  const auth::Caller op110{auth::Role::kAgencyOperator, "110", 7};
  // "" means its own agency; its own prefix is the same list.
  EXPECT_THAT(prefixes(trail_.ListReviews(op110, "", 0).value()),
              ElementsAre("110"));
  EXPECT_THAT(prefixes(trail_.ListReviews(op110, "110", 2024).value()),
              ElementsAre("110"));
  auto other = trail_.ListReviews(op110, "130", 0);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(other.status().message()),
              HasSubstr("an agency sees only its own reviews"));
  // The national admin and auditors see every agency.
  const auth::Caller national{auth::Role::kNationalAdmin, "000", 1};
  EXPECT_THAT(prefixes(trail_.ListReviews(national, "", 0).value()),
              ElementsAre("130", "110"));
  EXPECT_THAT(prefixes(trail_.ListReviews(auditor, "130", 0).value()),
              ElementsAre("130"));
}

TEST(ReviewOutcomeNameTest, NamesEveryOutcome) {
  EXPECT_STREQ(ReviewOutcomeName(ReviewOutcome::kPass), "pass");
  EXPECT_STREQ(ReviewOutcomeName(ReviewOutcome::kFail), "fail");
  EXPECT_STREQ(ReviewOutcomeName(ReviewOutcome::kPassWithConditions),
               "pass_with_conditions");
}

}  // namespace
}  // namespace gorank::audit
