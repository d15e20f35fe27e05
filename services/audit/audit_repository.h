// Storage interface of the audit module: the append-only log as stored
// (entries and leaf hashes by 0-based index), signed checkpoints, current row
// digests, annual reviews and backups. Implemented over SQLite and PostgreSQL
// in storage/.
#ifndef GORANK_SERVICES_AUDIT_AUDIT_REPOSITORY_H_
#define GORANK_SERVICES_AUDIT_AUDIT_REPOSITORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/checkpoint.h"
#include "services/common/change.h"

namespace gorank::audit {

enum class ReviewOutcome { kPass = 1, kFail = 2, kPassWithConditions = 3 };

struct Review {
  int64_t id = 0;
  std::string agency_prefix;
  int year = 0;
  ReviewOutcome outcome = ReviewOutcome::kFail;
  std::string findings;
  int64_t checkpoint_size = 0;  // the report checkpoint it was based on
  std::string checkpoint_root;  // 32 raw bytes
  std::string reviewer;
  int64_t recorded_unix = 0;
};

// Implementations are thread-safe.
class AuditRepository {
 public:
  virtual ~AuditRepository() = default;
  virtual absl::StatusOr<int64_t> LogSize() = 0;
  // Entries [begin, end) in order; OUT_OF_RANGE past the end.
  virtual absl::StatusOr<std::vector<std::string>> Entries(int64_t begin,
                                                           int64_t end) = 0;
  virtual absl::StatusOr<std::vector<std::string>> LeafHashes(int64_t begin,
                                                              int64_t end) = 0;
  // Stores a signed checkpoint (idempotent per tree size).
  virtual absl::Status SaveCheckpoint(const Checkpoint& checkpoint) = 0;
  virtual absl::StatusOr<std::optional<Checkpoint>> LatestCheckpoint() = 0;
  // "table:key" -> hex digest of every row now stored (see
  // storage/row_digest.h).
  virtual absl::StatusOr<std::map<std::string, std::string>>
  CurrentRowDigests() = 0;
  // The same as unkeyed SHA-256 digests, the form entries of an older rankd
  // recorded (by default the same map: a repository without keyed digests).
  virtual absl::StatusOr<std::map<std::string, std::string>>
  LegacyRowDigests() {
    return CurrentRowDigests();
  }
  virtual absl::StatusOr<int64_t> InsertReview(const Review& review,
                                               const ChangeRecord& change) = 0;
  // Newest first; "" / 0 match any agency / year.
  virtual absl::StatusOr<std::vector<Review>> ListReviews(
      const std::string& prefix, int year) = 0;
  // The same list, keyset-paged: ids below `before_id` (0: from the
  // newest), newest first, at most `limit` (> 0).
  virtual absl::StatusOr<std::vector<Review>> ListReviewsBefore(
      const std::string& prefix, int year, int64_t before_id, int limit) = 0;
  // A consistent snapshot of the whole database into a new SQLite file
  // (mode 0600). With `remove_resident_ids` every resident ID number in the
  // copy is NULL (an auditor's copy), and the file says so (see
  // storage::kRedactedApplicationId).
  virtual absl::Status Backup(const std::string& dest_path,
                              bool remove_resident_ids) = 0;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_AUDIT_REPOSITORY_H_
