// Storage interface for access tokens. Tokens are stored only as the
// SHA-256 hash of their secret. Implemented by storage/ (SQLite) and by the
// in-memory fake in tests/testing/.
#ifndef GORANK_SERVICES_AUTH_TOKEN_REPOSITORY_H_
#define GORANK_SERVICES_AUTH_TOKEN_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/common/change.h"

namespace gorank::auth {

struct TokenRecord {
  int64_t id = 0;
  std::string hash;  // lowercase hex SHA-256 of the secret
  Role role = Role::kPublic;
  std::string agency_prefix;
  std::string label;
  int64_t created_unix = 0;
  int64_t revoked_unix = 0;  // 0 while valid
};

// Implementations are thread-safe.
class TokenRepository {
 public:
  virtual ~TokenRepository() = default;
  // Stores `token` (its id is ignored) and appends `change` to the audit log
  // in the same transaction; returns the new id. ALREADY_EXISTS for a hash
  // already stored; NOT_FOUND when agency_prefix names no agency.
  virtual absl::StatusOr<int64_t> InsertToken(const TokenRecord& token,
                                              const ChangeRecord& change) = 0;
  // The token with this hash, revoked or not; nullopt when none.
  virtual absl::StatusOr<std::optional<TokenRecord>> FindTokenByHash(
      const std::string& hash) = 0;
  // NOT_FOUND for an unknown id.
  virtual absl::StatusOr<TokenRecord> GetToken(int64_t id) = 0;
  // Sets revoked_unix (NOT_FOUND for an unknown id) with the audit entry.
  virtual absl::Status RevokeToken(int64_t id, int64_t revoked_unix,
                                   const ChangeRecord& change) = 0;
  virtual absl::StatusOr<std::vector<TokenRecord>> ListTokens() = 0;
};

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_TOKEN_REPOSITORY_H_
