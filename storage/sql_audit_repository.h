// AuditRepository over the Database wrapper (SQLite or PostgreSQL): reads of
// the append-only audit_log (log index i is row seq i + 1), signed checkpoints,
// row digests, annual reviews, and online backups (VACUUM INTO).
#ifndef GORANK_STORAGE_SQL_AUDIT_REPOSITORY_H_
#define GORANK_STORAGE_SQL_AUDIT_REPOSITORY_H_

#include "services/audit/audit_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database.
class SqlAuditRepository : public audit::AuditRepository {
 public:
  explicit SqlAuditRepository(Database* db) : db_(db) {}

  absl::StatusOr<int64_t> LogSize() override;
  absl::StatusOr<std::vector<std::string>> Entries(int64_t begin,
                                                   int64_t end) override;
  absl::StatusOr<std::vector<std::string>> LeafHashes(int64_t begin,
                                                      int64_t end) override;
  absl::Status SaveCheckpoint(const audit::Checkpoint& checkpoint) override;
  absl::StatusOr<std::optional<audit::Checkpoint>> LatestCheckpoint() override;
  absl::StatusOr<std::map<std::string, std::string>> CurrentRowDigests()
      override;
  absl::StatusOr<std::map<std::string, std::string>> LegacyRowDigests()
      override;
  absl::StatusOr<int64_t> InsertReview(const audit::Review& review,
                                       const ChangeRecord& change) override;
  absl::StatusOr<std::vector<audit::Review>> ListReviews(
      const std::string& prefix, int year) override;
  absl::StatusOr<std::vector<audit::Review>> ListReviewsBefore(
      const std::string& prefix, int year, int64_t before_id,
      int limit) override;
  absl::Status Backup(const std::string& dest_path,
                      bool remove_resident_ids) override;

 private:
  absl::StatusOr<std::vector<std::string>> Column(const char* sql,
                                                  int64_t begin, int64_t end);
  Database* db_;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_AUDIT_REPOSITORY_H_
