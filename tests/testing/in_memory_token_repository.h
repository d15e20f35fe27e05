// InMemoryTokenRepository: a fake of auth::TokenRepository with the same
// semantics as the SQLite one: ids in order, ALREADY_EXISTS for a duplicate
// hash, NOT_FOUND for an agency prefix that names no agency (checked against
// the registry fake, as SQLite checks its foreign key), NOT_FOUND when
// revoking an unknown or already revoked token, one audit record per
// successful mutation.
#ifndef GORANK_TESTS_TESTING_IN_MEMORY_TOKEN_REPOSITORY_H_
#define GORANK_TESTS_TESTING_IN_MEMORY_TOKEN_REPOSITORY_H_

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "services/auth/token_repository.h"
#include "tests/testing/in_memory_registry_repository.h"

namespace gorank::testing {

// Thread-safe. `agencies` (not owned, may be null: then no agency exists)
// must outlive the repository.
class InMemoryTokenRepository : public auth::TokenRepository {
 public:
  explicit InMemoryTokenRepository(const InMemoryRegistryRepository* agencies)
      : agencies_(agencies) {}

  absl::StatusOr<int64_t> InsertToken(const auth::TokenRecord& token,
                                      const ChangeRecord& change) override;
  absl::StatusOr<std::optional<auth::TokenRecord>> FindTokenByHash(
      const std::string& hash) override;
  absl::StatusOr<auth::TokenRecord> GetToken(int64_t id) override;
  absl::Status RevokeToken(int64_t id, int64_t revoked_unix,
                           const ChangeRecord& change) override;
  absl::StatusOr<std::vector<auth::TokenRecord>> ListTokens() override;

  // Audit records appended so far, oldest first.
  std::vector<ChangeRecord> AuditLog() const;

 private:
  const InMemoryRegistryRepository* agencies_;
  mutable std::mutex mu_;
  std::vector<auth::TokenRecord> tokens_;  // index = id - 1
  std::vector<ChangeRecord> audit_;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_IN_MEMORY_TOKEN_REPOSITORY_H_
