// CertificateRepository over the Database wrapper (SQLite or PostgreSQL).
// Issuance allocates the serial from certificate_serials inside one write
// transaction (BEGIN IMMEDIATE on SQLite, the writer lock on PostgreSQL)
// together with the certificate row, the rank change, its history entry and the
// audit entry.
//
// Group commit: issuances that arrive while another batch of them is being
// written wait for it and then share the next write transaction (one commit,
// one fsync, for all of them). The batch's writer takes the waiting calls
// inside the transaction as they come (on PostgreSQL every call waiting at
// once, their reads in one round trip), so calls that arrive while it
// writes join it too. They run without savepoints: each call is judged on
// reads before it writes, so a refused call has written nothing; when one
// fails once it has begun to write, the transaction is rolled back and the
// calls taken so far are written again from the start, each in its own
// savepoint, so that the failed one is rolled back alone and the others are
// committed. Every call returns only after the commit that holds it (or its
// refusal). When the last batches had more calls in
// flight than the batch has taken, it waits for the rest before its commit
// (their callers are on their way back with the next call), at most as long
// as the last batch took and 1 ms: a commit delay set by the load, so that
// N clients share one commit instead of alternating between two half
// batches; one call at a time never waits.
#ifndef GORANK_STORAGE_SQL_CERTIFICATE_REPOSITORY_H_
#define GORANK_STORAGE_SQL_CERTIFICATE_REPOSITORY_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "services/certificates/certificate_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database.
class SqlCertificateRepository : public certificates::CertificateRepository {
 public:
  // How long a batch may wait for calls on their way (see PlanBatch in the
  // .cc), given how long the last batch took.
  using CommitDelay = std::function<std::chrono::steady_clock::duration(
      std::chrono::steady_clock::duration last_batch)>;
  // The default: as long as the last batch took, at most 1 ms.
  static std::chrono::steady_clock::duration DefaultCommitDelay(
      std::chrono::steady_clock::duration last_batch);

  // At most `max_batch` issuances share one transaction (1: no grouping).
  explicit SqlCertificateRepository(Database* db, int max_batch = kMaxBatch,
                                    CommitDelay commit_delay = nullptr)
      : db_(db),
        max_batch_(max_batch < 1 ? 1 : max_batch),
        commit_delay_(commit_delay ? std::move(commit_delay)
                                   : CommitDelay(DefaultCommitDelay)) {}
  static constexpr int kMaxBatch = 64;

  // Group commit so far: issuances waiting for the next batch, whether a
  // batch is being written, batches written and the issuances they held.
  struct GroupCommitStats {
    int waiting = 0;
    bool writing = false;
    int64_t batches = 0;
    int64_t issuances = 0;
    int64_t delayed = 0;  // batches that waited for calls on their way
    // Batches whose first attempt was rolled back and written again with a
    // savepoint a call (a call failed once it had begun to write).
    int64_t rewritten = 0;
  };
  GroupCommitStats group_commit_stats();
  // Blocks until `ready` holds for the stats (checked at every change).
  // For tests that line calls up behind a batch.
  void AwaitGroupCommit(
      const std::function<bool(const GroupCommitStats&)>& ready);

  absl::StatusOr<certificates::Certificate> IssueCertificate(
      const certificates::IssuePlan& plan) override;
  absl::StatusOr<certificates::Certificate> GetCertificate(
      const certificates::CertificateNumber& n) override;
  absl::StatusOr<std::optional<certificates::Certificate>> FindByRequestId(
      const std::string& scope, const std::string& request_id) override;
  absl::StatusOr<std::vector<certificates::Certificate>> ListCertificates(
      const certificates::CertificateFilter& filter) override;
  absl::Status SettleNotice(
      const certificates::CertificateNumber& n,
      const std::optional<registry::RankHistoryEntry>& change,
      const std::optional<registry::Rank>& rank_before,
      const ChangeRecord& audit) override;
  absl::Status Revoke(const certificates::CertificateNumber& n,
                      int64_t revoked_unix, const std::string& reason,
                      const std::optional<registry::RankHistoryEntry>& change,
                      const ChangeRecord& audit) override;
  absl::StatusOr<int64_t> InsertObjection(const certificates::Objection& o,
                                          const ChangeRecord& audit) override;
  absl::StatusOr<certificates::Objection> GetObjection(int64_t id) override;
  absl::StatusOr<std::vector<certificates::Objection>> ListObjections(
      const certificates::CertificateNumber& n) override;
  absl::StatusOr<std::vector<certificates::Objection>> FindObjections(
      const certificates::ObjectionFilter& filter) override;
  absl::Status DecideObjection(int64_t id, certificates::ObjectionState state,
                               const std::string& note, int64_t now_unix,
                               const ChangeRecord& audit) override;
  absl::StatusOr<int64_t> InsertAppraisal(const certificates::Appraisal& a,
                                          const ChangeRecord& audit) override;
  absl::StatusOr<certificates::Appraisal> GetAppraisal(int64_t id) override;
  absl::StatusOr<std::vector<certificates::Appraisal>> ListAppraisals(
      const std::string& agency_prefix, bool pending_only) override;
  absl::StatusOr<std::vector<certificates::Appraisal>> ListAppraisalsAfter(
      const std::string& agency_prefix, bool pending_only, int64_t after_id,
      int limit) override;
  absl::Status RejectAppraisal(int64_t id, const std::string& note,
                               int64_t now_unix,
                               const ChangeRecord& audit) override;
  absl::Status PutStockOrder(const certificates::StockOrder& order,
                             const ChangeRecord& audit) override;
  absl::Status ReleaseStockOrder(const std::string& prefix, int year,
                                 int64_t now_unix, const std::string& by,
                                 const ChangeRecord& audit) override;
  absl::StatusOr<certificates::StockOrder> GetStockOrder(
      const std::string& prefix, int year) override;
  absl::StatusOr<int> CountIssued(const std::string& prefix, int year) override;
  absl::StatusOr<certificates::ImportLookup> LookupForImport(
      const certificates::ImportLookupQuery& query) override;
  absl::Status StoreImport(const certificates::ImportPlan& plan) override;

 private:
  struct PendingIssue;
  // What the leader of a batch expects: how many calls are in flight (from
  // the last batches) and until when it waits for them.
  struct BatchPlan {
    size_t expected = 0;
    std::chrono::steady_clock::time_point until;
  };
  // Under batch_mu_: the plan of the next batch (commit delay, in the .cc).
  BatchPlan PlanBatch();
  // The next waiting call for a batch that has taken `taken` so far, or
  // null when the batch is full, or none is waiting and the plan expects no
  // more (or its time is up); waits for one meanwhile (sets *waited and
  // counts the batch as delayed the first time). Takes batch_mu_.
  PendingIssue* NextInBatch(const BatchPlan& plan, size_t taken, bool* waited);
  // The next waiting call, if one is waiting and the batch is not full;
  // never waits. Takes batch_mu_.
  PendingIssue* NextWaiting(size_t taken);
  // Takes the first waiting call. REQUIRES: batch_mu_ held, one waiting.
  PendingIssue* PopWaiting();
  // The stats now. REQUIRES: batch_mu_ held.
  GroupCommitStats StatsLocked() const;
  // Writes one batch in one transaction, taking the waiting calls as it
  // goes; fills every taken call's result and returns them.
  std::vector<PendingIssue*> WriteBatch(const BatchPlan& plan);
  // WriteBatch's first attempt, inside its transaction: the calls taken go
  // to `batch`; an error rolls them all back.
  absl::Status WriteFirstAttempt(storage::Connection& c, const BatchPlan& plan,
                                 bool* waited,
                                 std::vector<PendingIssue*>& batch);
  static constexpr int kRecentBatches = 8;

  Database* db_;
  const int max_batch_;
  const CommitDelay commit_delay_;
  std::mutex batch_mu_;
  std::condition_variable batch_cv_;   // a batch was written
  std::condition_variable stats_cv_;   // GroupCommitStats changed
  std::deque<PendingIssue*> waiting_;  // guarded by batch_mu_
  bool committing_ = false;            // a batch is being written; batch_mu_
  int64_t batches_ = 0;                // guarded by batch_mu_
  int64_t batched_ = 0;                // guarded by batch_mu_
  int64_t rewritten_ = 0;              // guarded by batch_mu_
  int64_t delayed_ = 0;                // guarded by batch_mu_
  // Calls in flight around each of the last batches (its own and those
  // that queued while it was written), and how long the last batch took;
  // guarded by batch_mu_.
  int recent_callers_[kRecentBatches] = {};
  std::chrono::steady_clock::duration last_batch_{};
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_CERTIFICATE_REPOSITORY_H_
