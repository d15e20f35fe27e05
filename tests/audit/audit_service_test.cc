// AuditService through real gRPC (RankdServer on 127.0.0.1:0, FakeClock):
// signed checkpoints, entries and the proofs served for them (checked with
// VerifyInclusion / VerifyConsistency), the table check, who may call what,
// stock release gated by the annual review, and an annual report of a year
// seeded with a serial gap written behind the server's back.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/checkpoint.h"
#include "services/audit/merkle.h"
#include "services/audit/signing_key.h"
#include "services/registry/rank.h"
#include "storage/database.h"
#include "tests/audit/audit_grpc_fixture.h"

namespace gorank::audit {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

audit::Checkpoint FromProto(const v1::Checkpoint& p) {
  return {p.tree_size(), p.root_hash(), p.time_unix(), p.signature(),
          p.key_id()};
}

class AuditServiceTest : public AuditGrpcTest {
 protected:
  std::vector<v1::LogEntry> Entries(int64_t begin, int64_t end) {
    v1::GetEntriesRequest req;
    req.set_begin(begin);
    req.set_end(end);
    v1::GetEntriesResponse resp;
    grpc::Status s =
        audit_->GetEntries(Server::Context(s_.auditor).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {resp.entries().begin(), resp.entries().end()};
  }
  v1::VerifyTablesResponse VerifyTables() {
    v1::VerifyTablesResponse resp;
    grpc::Status s = audit_->VerifyTables(Server::Context(s_.auditor).get(),
                                          v1::VerifyTablesRequest(), &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }
};

TEST_F(AuditServiceTest, CheckpointsAreSignedAndProofsVerify) {
  const int64_t p = Register("陈一");
  Issue(s_.admin, p, "2d", "000");
  const v1::GetCheckpointResponse first = Checkpoint();  // the public may ask
  auto key = VerifyingKey::FromRaw(first.public_key());
  ASSERT_TRUE(key.ok()) << key.status();
  const audit::Checkpoint cp1 = FromProto(first.checkpoint());
  EXPECT_TRUE(VerifyCheckpoint(cp1, *key).ok);
  EXPECT_EQ(audit::Checkpoint::FromJson(first.checkpoint().json()).value(),
            cp1);
  EXPECT_EQ(cp1.time_unix, s_.clock().NowSeconds());
  auto rows = testing::CountAuditRows(s_.server()->database());
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(cp1.tree_size, *rows);

  Register("陈二");
  Issue(s_.admin, Register("陈三"), "1k", "000");
  const audit::Checkpoint cp2 = FromProto(Checkpoint(s_.op110).checkpoint());
  ASSERT_EQ(cp2.tree_size, cp1.tree_size + 3);
  EXPECT_TRUE(VerifyCheckpoint(cp2, *key).ok);

  v1::GetConsistencyProofRequest creq;
  creq.set_old_size(cp1.tree_size);
  creq.set_new_size(cp2.tree_size);
  v1::GetConsistencyProofResponse cresp;
  ASSERT_TRUE(
      audit_->GetConsistencyProof(Server::Context("").get(), creq, &cresp)
          .ok());
  const std::vector<std::string> cproof(cresp.proof().begin(),
                                        cresp.proof().end());
  EXPECT_TRUE(VerifyConsistency(cp1.tree_size, cp2.tree_size, cp1.root_hash,
                                cp2.root_hash, cproof)
                  .ok);

  const std::vector<v1::LogEntry> entries = Entries(0, cp2.tree_size);
  ASSERT_EQ(static_cast<int64_t>(entries.size()), cp2.tree_size);
  for (int64_t i = 0; i < cp2.tree_size; ++i) {
    const v1::LogEntry& e = entries[static_cast<size_t>(i)];
    EXPECT_EQ(e.index(), i);
    EXPECT_EQ(e.leaf_hash(), LeafHash(e.entry()));
    EXPECT_TRUE(AuditEntry::Decode(e.entry()).ok()) << i;
    for (const audit::Checkpoint& cp : {cp1, cp2}) {
      if (i >= cp.tree_size) continue;
      v1::GetInclusionProofRequest req;
      req.set_index(i);
      req.set_tree_size(cp.tree_size);
      v1::GetInclusionProofResponse resp;
      ASSERT_TRUE(
          audit_->GetInclusionProof(Server::Context("").get(), req, &resp)
              .ok());
      EXPECT_EQ(resp.leaf_hash(), e.leaf_hash());
      const std::vector<std::string> path(resp.path().begin(),
                                          resp.path().end());
      EXPECT_TRUE(
          VerifyInclusion(e.leaf_hash(), i, cp.tree_size, path, cp.root_hash)
              .ok)
          << i << " in " << cp.tree_size;
    }
  }
  // The last entry is the 1k certificate.
  EXPECT_EQ(AuditEntry::Decode(entries.back().entry()).value().action,
            "certificate.issue");
}

TEST_F(AuditServiceTest, BadRangesAreInvalidArguments) {
  const int64_t size = Checkpoint().checkpoint().tree_size();
  v1::GetInclusionProofRequest inc;
  inc.set_index(size);
  inc.set_tree_size(size);
  v1::GetInclusionProofResponse inc_resp;
  EXPECT_EQ(audit_->GetInclusionProof(Server::Context("").get(), inc, &inc_resp)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetConsistencyProofRequest con;
  con.set_old_size(size);
  con.set_new_size(size + 1);
  v1::GetConsistencyProofResponse con_resp;
  EXPECT_EQ(
      audit_->GetConsistencyProof(Server::Context("").get(), con, &con_resp)
          .error_code(),
      grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetEntriesRequest ent;
  ent.set_begin(0);
  ent.set_end(size + 1);
  v1::GetEntriesResponse ent_resp;
  grpc::Status s =
      audit_->GetEntries(Server::Context(s_.auditor).get(), ent, &ent_resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("within the log size " + std::to_string(size)));
}

TEST_F(AuditServiceTest,
       EntriesTablesBackupsAndReviewsAreForAuditorsAndTheNationalAdmin) {
  struct Case {
    const char* rpc;
    std::string token;
    grpc::StatusCode code;
  };
  auto call = [&](const std::string& rpc, const std::string& token) {
    auto ctx = Server::Context(token);
    if (rpc == "GetEntries") {
      v1::GetEntriesRequest req;
      req.set_end(1);
      v1::GetEntriesResponse resp;
      return audit_->GetEntries(ctx.get(), req, &resp);
    }
    if (rpc == "VerifyTables") {
      v1::VerifyTablesResponse resp;
      return audit_->VerifyTables(ctx.get(), v1::VerifyTablesRequest(), &resp);
    }
    if (rpc == "GetNationalSummary") {
      v1::GetNationalSummaryRequest req;
      req.set_year(2024);
      v1::GetNationalSummaryResponse resp;
      return audit_->GetNationalSummary(ctx.get(), req, &resp);
    }
    if (rpc == "Backup") {
      auto reader = audit_->Backup(ctx.get(), v1::BackupRequest());
      v1::BackupChunk chunk;
      while (reader->Read(&chunk)) {
      }
      return reader->Finish();
    }
    return RecordReview(token, "110", 2023, v1::REVIEW_OUTCOME_PASS, 1);
  };
  using C = grpc::StatusCode;
  for (const char* rpc :
       {"GetEntries", "VerifyTables", "GetNationalSummary", "Backup"}) {
    for (const Case& c :
         std::vector<Case>{{rpc, "", C::UNAUTHENTICATED},
                           {rpc, s_.revoked, C::UNAUTHENTICATED},
                           {rpc, s_.op110, C::PERMISSION_DENIED},
                           {rpc, s_.op130, C::PERMISSION_DENIED},
                           {rpc, s_.auditor, C::OK},
                           {rpc, s_.admin, C::OK}}) {
      EXPECT_EQ(call(c.rpc, c.token).error_code(), c.code)
          << c.rpc << " as " << c.token;
    }
  }
  EXPECT_EQ(call("RecordReview", "").error_code(), C::UNAUTHENTICATED);
  EXPECT_EQ(call("RecordReview", s_.op110).error_code(), C::PERMISSION_DENIED);
  EXPECT_EQ(call("RecordReview", s_.admin).error_code(), C::PERMISSION_DENIED);
  EXPECT_EQ(call("RecordReview", s_.auditor).error_code(), C::OK);
}

TEST_F(AuditServiceTest, TablesMatchTheLogUntilARowIsEditedBehindIt) {
  const v1::VerifyTablesResponse clean = VerifyTables();
  EXPECT_GT(clean.rows_checked(), 0);
  EXPECT_EQ(clean.entries_read(), Checkpoint().checkpoint().tree_size());
  for (const auto& m : clean.mismatches()) {
    ADD_FAILURE() << "fresh database: " << m.row() << " (" << m.log_index()
                  << "): " << m.reason();
  }

  const int64_t index = Checkpoint().checkpoint().tree_size();
  const int64_t p = Register("周一");
  ASSERT_TRUE(s_.server()
                  ->database()
                  ->Write([&](storage::Connection& c) {
                    return c.Exec(
                        "UPDATE players SET name = '周二' WHERE id = " +
                        std::to_string(p));
                  })
                  .ok());
  const v1::VerifyTablesResponse edited = VerifyTables();
  ASSERT_EQ(edited.mismatches_size(), 1);
  EXPECT_EQ(edited.mismatches(0).row(), "players:" + std::to_string(p));
  EXPECT_EQ(edited.mismatches(0).log_index(), index);
  EXPECT_THAT(edited.mismatches(0).reason(), HasSubstr("differs"));
}

TEST_F(AuditServiceTest,
       StockIsReleasedOnlyAfterAPassedReviewOfThePreviousYear) {
  ASSERT_TRUE(OrderStock("110", 2025, 50).ok());
  ASSERT_TRUE(OrderStock("130", 2025, 20).ok());
  grpc::Status none = ReleaseStock("110", 2025);
  EXPECT_EQ(none.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(
      none.error_message(),
      HasSubstr(
          "rule: stock for 2025 is released only after agency 110 passed the "
          "annual review of 2024"));

  const v1::GetCheckpointResponse cp = Checkpoint(s_.auditor);
  const int64_t size = cp.checkpoint().tree_size();
  // Reviews name a checkpoint of this log.
  EXPECT_EQ(
      RecordReview(s_.auditor, "110", 2024, v1::REVIEW_OUTCOME_PASS, size + 100)
          .error_code(),
      grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(RecordReview(s_.auditor, "110", 2024,
                         v1::REVIEW_OUTCOME_UNSPECIFIED, size)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  v1::Review failed;
  ASSERT_TRUE(RecordReview(s_.auditor, "110", 2024, v1::REVIEW_OUTCOME_FAIL,
                           size, &failed)
                  .ok());
  EXPECT_EQ(failed.checkpoint_root(), cp.checkpoint().root_hash());
  EXPECT_EQ(failed.recorded_unix(), s_.clock().NowSeconds());
  EXPECT_THAT(failed.reviewer(), HasSubstr("auditor/token:"));
  grpc::Status after_fail = ReleaseStock("110", 2025);
  EXPECT_EQ(after_fail.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(after_fail.error_message(),
              HasSubstr("failed the annual review of 2024"));

  // A pass of another year or another agency does not count.
  ASSERT_TRUE(
      RecordReview(s_.auditor, "110", 2023, v1::REVIEW_OUTCOME_PASS, size)
          .ok());
  ASSERT_TRUE(
      RecordReview(s_.auditor, "120", 2024, v1::REVIEW_OUTCOME_PASS, size)
          .ok());
  EXPECT_EQ(ReleaseStock("110", 2025).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  ASSERT_TRUE(
      RecordReview(s_.auditor, "110", 2024, v1::REVIEW_OUTCOME_PASS, size + 3)
          .ok());
  v1::StockOrder order;
  grpc::Status released = ReleaseStock("110", 2025, &order);
  ASSERT_TRUE(released.ok()) << released.error_message();
  EXPECT_EQ(order.released_unix(), s_.clock().NowSeconds());
  EXPECT_EQ(order.quantity(), 50);

  ASSERT_TRUE(RecordReview(s_.auditor, "130", 2024,
                           v1::REVIEW_OUTCOME_PASS_WITH_CONDITIONS, size)
                  .ok());
  EXPECT_TRUE(ReleaseStock("130", 2025).ok());

  // Reviews as listed: an operator sees its own agency's only.
  v1::ListReviewsRequest lr;
  lr.set_year(2024);
  v1::ListReviewsResponse mine;
  ASSERT_TRUE(
      audit_->ListReviews(Server::Context(s_.op110).get(), lr, &mine).ok());
  std::vector<v1::ReviewOutcome> outcomes;
  for (const auto& r : mine.reviews()) outcomes.push_back(r.outcome());
  EXPECT_THAT(outcomes,
              ElementsAre(v1::REVIEW_OUTCOME_PASS, v1::REVIEW_OUTCOME_FAIL));
  lr.set_agency_prefix("130");
  v1::ListReviewsResponse other;
  EXPECT_EQ(audit_->ListReviews(Server::Context(s_.op110).get(), lr, &other)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

// ListReviews pages (newest first) and every review comes exactly once;
// a token is refused by another query.
TEST_F(AuditServiceTest, ReviewsArePagedAndEveryOneComesOnce) {
  const int64_t size = Checkpoint(s_.auditor).checkpoint().tree_size();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(RecordReview(s_.auditor, i % 2 ? "120" : "110", 2024,
                             v1::REVIEW_OUTCOME_PASS, size)
                    .ok());
  }
  v1::ListReviewsRequest lr;
  lr.set_page_size(2);
  std::vector<int64_t> ids;
  int pages = 0;
  std::string token_of_first;
  do {
    v1::ListReviewsResponse page;
    grpc::Status s =
        audit_->ListReviews(Server::Context(s_.auditor).get(), lr, &page);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_LE(page.reviews_size(), 2);
    for (const auto& r : page.reviews()) ids.push_back(r.id());
    if (pages++ == 0) token_of_first = page.next_page_token();
    lr.set_page_token(page.next_page_token());
  } while (!lr.page_token().empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(ids.size(), 5u);
  EXPECT_TRUE(std::is_sorted(ids.rbegin(), ids.rend()));
  EXPECT_EQ(std::set<int64_t>(ids.begin(), ids.end()).size(), 5u);

  // The token of the whole list does not page agency 110's.
  lr.set_agency_prefix("110");
  lr.set_page_token(token_of_first);
  v1::ListReviewsResponse other;
  grpc::Status refused =
      audit_->ListReviews(Server::Context(s_.auditor).get(), lr, &other);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(refused.error_message(), HasSubstr("another query"));
  lr.set_page_token("");
  lr.set_page_size(501);
  EXPECT_EQ(audit_->ListReviews(Server::Context(s_.auditor).get(), lr, &other)
                .error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace gorank::audit
