// Token life cycle: creation (the secret is returned once), authentication
// of a presented bearer secret, revocation, listing, and the bootstrap
// national-admin token written at first start.
#ifndef GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_
#define GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
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
//
// Authentication reads a token from the repository at most once a
// `live_cache_ttl` (1 s by default): a token read live is trusted that long
// from the moment its read began, so a busy caller's calls cost no database
// read each. Revoke forgets it at once: this instance refuses it from the
// next call. Another instance on the same PostgreSQL database (whose cache
// this one cannot reach) refuses it at most `live_cache_ttl` after the
// revocation committed, the public index's staleness bound. Unknown and
// revoked tokens are never kept (every try reads the repository), nor more
// than kMaxCached live ones.
class TokenManager {
 public:
  static constexpr std::chrono::milliseconds kDefaultLiveCacheTtl{1000};
  static constexpr size_t kMaxCached = 4096;

  // A zero `live_cache_ttl` reads the repository at every call.
  TokenManager(TokenRepository* repo, const Clock* clock,
               std::chrono::milliseconds live_cache_ttl = kDefaultLiveCacheTtl)
      : repo_(repo), clock_(clock), live_cache_ttl_(live_cache_ttl) {}

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
  // Drops the token with this hash from the cache and moves revocations_.
  void ForgetLive(const std::string& hash);

  struct Cached {
    Caller caller;
    std::chrono::steady_clock::time_point read_at;
  };

  TokenRepository* repo_;
  const Clock* clock_;
  const std::chrono::milliseconds live_cache_ttl_;
  std::mutex mu_;
  // Live tokens by hash, with when their read began; guarded by mu_.
  std::unordered_map<std::string, Cached> live_;
  // Moves at every revocation, so that a read that began before it keeps
  // nothing; guarded by mu_.
  uint64_t revocations_ = 0;
};

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_TOKEN_MANAGER_H_
