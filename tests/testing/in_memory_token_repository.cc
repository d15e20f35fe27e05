#include "tests/testing/in_memory_token_repository.h"

#include "absl/status/status.h"
#include "services/audit/audit_entry.h"

namespace gorank::testing {

using auth::TokenRecord;

absl::StatusOr<int64_t> InMemoryTokenRepository::InsertToken(
    const TokenRecord& token, const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const TokenRecord& t : tokens_) {
    if (t.hash == token.hash) {
      return absl::AlreadyExistsError("a token with this hash exists");
    }
  }
  if (!token.agency_prefix.empty() &&
      (agencies_ == nullptr || !agencies_->HasAgency(token.agency_prefix))) {
    return absl::NotFoundError("no agency with prefix " + token.agency_prefix);
  }
  if (absl::Status a = audit::AuditEntry::FromChange(change).Encode().status();
      !a.ok()) {
    return a;  // SQLite cannot encode it either, and rolls back
  }
  TokenRecord stored = token;
  stored.id = static_cast<int64_t>(tokens_.size()) + 1;
  stored.revoked_unix = 0;  // SQLite's column default; inserts never set it
  tokens_.push_back(stored);
  ChangeRecord audited = change;
  audited.subject = "token:" + std::to_string(stored.id);
  audit_.push_back(audited);
  return stored.id;
}

absl::StatusOr<std::optional<TokenRecord>>
InMemoryTokenRepository::FindTokenByHash(const std::string& hash) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const TokenRecord& t : tokens_) {
    if (t.hash == hash) return std::optional<TokenRecord>(t);
  }
  return std::optional<TokenRecord>();
}

absl::StatusOr<TokenRecord> InMemoryTokenRepository::GetToken(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 1 || id > static_cast<int64_t>(tokens_.size())) {
    return absl::NotFoundError("no token with id " + std::to_string(id));
  }
  return tokens_[id - 1];
}

absl::Status InMemoryTokenRepository::RevokeToken(int64_t id,
                                                  int64_t revoked_unix,
                                                  const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 1 || id > static_cast<int64_t>(tokens_.size()) ||
      tokens_[id - 1].revoked_unix != 0) {
    return absl::NotFoundError("no valid token with id " + std::to_string(id));
  }
  if (absl::Status a = audit::AuditEntry::FromChange(change).Encode().status();
      !a.ok()) {
    return a;  // SQLite cannot encode it either, and rolls back
  }
  tokens_[id - 1].revoked_unix = revoked_unix;
  audit_.push_back(change);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TokenRecord>> InMemoryTokenRepository::ListTokens() {
  std::lock_guard<std::mutex> lock(mu_);
  return tokens_;
}

std::vector<ChangeRecord> InMemoryTokenRepository::AuditLog() const {
  std::lock_guard<std::mutex> lock(mu_);
  return audit_;
}

}  // namespace gorank::testing
