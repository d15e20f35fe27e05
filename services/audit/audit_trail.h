// AuditTrail: the server side of the verifiable log — signed checkpoints
// (the Merkle root kept incrementally), entries and proofs for auditors, the
// check of the tables against the row digests the log recorded, and annual
// reviews. Pure C++ over AuditRepository.
#ifndef GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_
#define GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/audit_repository.h"
#include "services/audit/checkpoint.h"
#include "services/audit/compact_range.h"
#include "services/audit/log_check.h"
#include "services/audit/signing_key.h"
#include "services/auth/caller.h"
#include "services/common/clock.h"
#include "services/common/paging.h"

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

// What GetCheckpoint answers: a checkpoint signed now, or, while the log
// fails rankd's own check, the newest one signed before (rankd signs nothing
// then), with the check and the number of entries stored.
struct CheckpointAnswer {
  Checkpoint checkpoint;  // tree_size 0 and no signature when none exists
  int64_t log_size = 0;
  LogCheck check;
};

// The page sizes of ListReviews (page_size 0 gives the first number).
inline constexpr PageSpec kReviewPage{100, 500};

// Thread-safe. Does not own its arguments.
class AuditTrail {
 public:
  AuditTrail(AuditRepository* repo, const SigningKey* key, const Clock* clock);

  // rankd's own check of the whole stored log against the newest checkpoint
  // it stored (log_check.h); reads every entry. The outcome is kept: while
  // it fails, SignCheckpointNow refuses and the failure listener has been
  // told. Errors only when the repository cannot be read at all.
  absl::StatusOr<LogCheck> CheckLog();
  // The outcome of the last check (ok before any).
  LogCheck last_log_check() const;
  // Called (once per failure, under the trail's lock: it must not call
  // back) when a check fails, at start or on new entries before a signature.
  void SetLogFailureListener(std::function<void(const LogCheck&)> listener);

  // A checkpoint over the whole log now, signed and stored. The entries
  // added since the last check are checked first; FAILED_PRECONDITION,
  // naming the first bad entry, while the log fails the check.
  absl::StatusOr<Checkpoint> SignCheckpointNow();
  // SignCheckpointNow(), or while the log fails its check the newest stored
  // checkpoint with the failure (see CheckpointAnswer).
  absl::StatusOr<CheckpointAnswer> CheckpointForAuditors();
  const VerifyingKey& public_key() const { return key_->public_key(); }

  // At most 1000 entries [begin, end); INVALID_ARGUMENT for a bad range.
  absl::StatusOr<std::vector<std::string>> Entries(int64_t begin, int64_t end);
  // The stored leaf hashes of the same range (same limits).
  absl::StatusOr<std::vector<std::string>> LeafHashes(int64_t begin,
                                                      int64_t end);
  // The leaf hash of `index` and its audit path in the tree of `size`.
  absl::StatusOr<std::pair<std::string, std::vector<std::string>>>
  InclusionProof(int64_t index, int64_t size);
  absl::StatusOr<std::vector<std::string>> ConsistencyProof(int64_t old_size,
                                                            int64_t new_size);
  // Replays the row digests of every entry and compares them with the rows
  // now stored: a row changed, added or removed behind the log's back is a
  // mismatch naming the last entry that wrote it. Keyed digests are compared
  // with the keyed digests of the rows, unkeyed ones (entries of an older
  // rankd) with the plain SHA-256 of the rows; entry links are not rows.
  absl::StatusOr<TableCheck> VerifyTables();

  // Annual review (年审), recorded by an auditor against a checkpoint.
  // INVALID_ARGUMENT for a bad year or empty findings; FAILED_PRECONDITION
  // when checkpoint_size is not a checkpoint of this log.
  absl::StatusOr<Review> RecordReview(const auth::Caller& caller,
                                      Review review);
  // Newest first, one page (kReviewPage); "" / 0 match any agency / year.
  // An agency operator sees only its own agency's reviews: `prefix` ""
  // means its own, another prefix is PERMISSION_DENIED. The national admin
  // and auditors see all. INVALID_ARGUMENT for a bad page (paging.h).
  absl::StatusOr<Page<Review>> ListReviews(const auth::Caller& caller,
                                           const std::string& prefix, int year,
                                           const PageArgs& page = {});
  // OK when the latest review of `prefix` for `year` passed (with or
  // without conditions); FAILED_PRECONDITION naming the rule otherwise.
  absl::Status CheckReviewPassed(const std::string& prefix, int year);

  // A snapshot into `dest` (mode 0600): the national admin's keeps resident
  // ID numbers, anyone else's (the auditor's) has them removed.
  absl::Status Backup(const auth::Caller& caller, const std::string& dest) {
    return repo_->Backup(dest, ResidentIdsRemovedFor(caller));
  }
  static bool ResidentIdsRemovedFor(const auth::Caller& caller) {
    return caller.role != auth::Role::kNationalAdmin;
  }

 private:
  AuditRepository* repo_;
  const SigningKey* key_;
  const Clock* clock_;
  // Checks entries added since checker_ last saw the log; FAILED_PRECONDITION
  // when the log fails (then log_check_ holds why). REQUIRES: mu_ held.
  absl::Status CheckNewEntriesLocked();
  absl::Status FailLocked(LogCheck check);

  mutable std::mutex mu_;
  StoredLogChecker checker_;  // guarded by mu_: the entries read so far
  LogCheck log_check_;        // guarded by mu_
  std::function<void(const LogCheck&)> on_failure_;  // guarded by mu_
};

// The message of writes refused and signatures withheld while `check` fails.
std::string LogRefusal(const LogCheck& check);

const char* ReviewOutcomeName(ReviewOutcome outcome);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_AUDIT_TRAIL_H_
