// Token life cycle: creation (the secret is returned once), authentication
// of a presented bearer secret, revocation, listing, and the bootstrap
// national-admin token written at first start.
#ifndef GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_
#define GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/auth/token_repository.h"
#include "services/common/clock.h"

namespace gorank::auth {

// A fresh random secret: "rkd_" + 64 hex digits (32 bytes from OpenSSL's
// CSPRNG). Aborts if the CSPRNG fails.
std::string NewTokenSecret();
// Lowercase hex SHA-256 of `secret`.
std::string HashTokenSecret(const std::string& secret);

struct NewToken {
  TokenRecord record;
  std::string secret;
};

// Thread-safe; does not own its arguments, which must outlive it.
class TokenManager {
 public:
  TokenManager(TokenRepository* repo, const Clock* clock)
      : repo_(repo), clock_(clock) {}

  // The caller behind `bearer` (the text after "Bearer "); the public when
  // nullopt. UNAUTHENTICATED for an unknown or revoked token.
  absl::StatusOr<Caller> Authenticate(const std::optional<std::string>& bearer);

  // INVALID_ARGUMENT for a missing role, ROLE_PUBLIC, an operator token
  // without an agency prefix or any other role with one; NOT_FOUND for an
  // unknown agency. Role checks are the caller's business (access table).
  absl::StatusOr<NewToken> Create(const Caller& by, Role role,
                                  const std::string& agency_prefix,
                                  const std::string& label);
  // NOT_FOUND for an unknown id; FAILED_PRECONDITION when already revoked
  // or when it would revoke the caller's own token.
  absl::StatusOr<TokenRecord> Revoke(const Caller& by, int64_t token_id);
  absl::StatusOr<std::vector<TokenRecord>> List();

  // At first start (no token at all in the repository) creates a
  // national-admin token and returns its secret; nullopt otherwise.
  absl::StatusOr<std::optional<std::string>> BootstrapIfEmpty();

 private:
  TokenRepository* repo_;
  const Clock* clock_;
};

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_
