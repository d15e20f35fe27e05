// AuditTrail: the server side of the verifiable log — signed checkpoints
// (the Merkle root kept incrementally), entries and proofs for auditors, the
// check of the tables against the row digests the log recorded, and annual
// reviews. Pure C++ over AuditRepository.
#ifndef GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_
#define GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_

#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/audit_repository.h"
#include "services/audit/checkpoint.h"
#include "services/audit/compact_range.h"
#include "services/audit/signing_key.h"
#include "services/auth/caller.h"
#include "services/common/clock.h"

namespace gorank::audit {

struct TableMismatch {
  std::string row;         // "table:key"
  int64_t log_index = -1;  // the last entry that wrote the row; -1: none did
  std::string reason;
};

struct TableCheck {
  int64_t rows_checked = 0;
  int64_t entries_read = 0;
  std::vector<TableMismatch> mismatches;  // ordered by log_index (-1 last)
};

// Thread-safe. Does not own its arguments.
class AuditTrail {
 public:
  AuditTrail(AuditRepository* repo, const SigningKey* key, const Clock* clock)
      : repo_(repo), key_(key), clock_(clock) {}

  // A checkpoint over the whole log now, signed and stored.
  absl::StatusOr<Checkpoint> SignCheckpointNow();
  const VerifyingKey& public_key() const { return key_->public_key(); }

  // At most 1000 entries [begin, end); INVALID_ARGUMENT for a bad range.
  absl::StatusOr<std::vector<std::string>> Entries(int64_t begin, int64_t end);
  // The stored leaf hashes of the same range (same limits).
  absl::StatusOr<std::vector<std::string>> LeafHashes(int64_t begin, int64_t end);
  // The leaf hash of `index` and its audit path in the tree of `size`.
  absl::StatusOr<std::pair<std::string, std::vector<std::string>>> InclusionProof(
      int64_t index, int64_t size);
  absl::StatusOr<std::vector<std::string>> ConsistencyProof(int64_t old_size,
                                                            int64_t new_size);
  // Replays the row digests of every entry and compares them with the rows
  // now stored: a row changed, added or removed behind the log's back is a
  // mismatch naming the last entry that wrote it.
  absl::StatusOr<TableCheck> VerifyTables();

  // Annual review (年审), recorded by an auditor against a checkpoint.
  // INVALID_ARGUMENT for a bad year or empty findings; FAILED_PRECONDITION
  // when checkpoint_size is not a checkpoint of this log.
  absl::StatusOr<Review> RecordReview(const auth::Caller& caller, Review review);
  absl::StatusOr<std::vector<Review>> ListReviews(const std::string& prefix, int year);
  // OK when the latest review of `prefix` for `year` passed (with or
  // without conditions); FAILED_PRECONDITION naming the rule otherwise.
  absl::Status CheckReviewPassed(const std::string& prefix, int year);

  absl::Status Backup(const std::string& dest) { return repo_->Backup(dest); }

 private:
  AuditRepository* repo_;
  const SigningKey* key_;
  const Clock* clock_;
  std::mutex mu_;
  CompactRange range_;  // guarded by mu_: leaves read so far
};

const char* ReviewOutcomeName(ReviewOutcome outcome);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_
