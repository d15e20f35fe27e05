#include "services/auth/token_manager.h"

#include <openssl/rand.h>

#include <cstdlib>

#include "nlohmann/json.hpp"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::auth {
namespace {

std::string TokenJson(const TokenRecord& t) {
  return nlohmann::json{{"id", t.id},
                        {"role", RoleName(t.role)},
                        {"agency_prefix", t.agency_prefix},
                        {"label", t.label},
                        {"revoked_unix", t.revoked_unix}}
      .dump();
}

}  // namespace

std::string NewTokenSecret() {
  unsigned char buf[32];
  if (RAND_bytes(buf, sizeof buf) != 1) std::abort();
  return "rkd_" + audit::HexEncode(std::string(
                      reinterpret_cast<const char*>(buf), sizeof buf));
}

std::string HashTokenSecret(const std::string& secret) {
  return audit::HexEncode(audit::Sha256(secret));
}

absl::StatusOr<Caller> TokenManager::Authenticate(
    const std::optional<std::string>& bearer) {
  if (!bearer) return Caller::Public();
  const std::string hash = HashTokenSecret(*bearer);
  const auto now = std::chrono::steady_clock::now();
  uint64_t revocations = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(hash);
    if (it != live_.end()) {
      if (now - it->second.read_at < live_cache_ttl_) return it->second.caller;
      live_.erase(it);
    }
    revocations = revocations_;
  }
  GORANK_ASSIGN_OR_RETURN(std::optional<TokenRecord> token,
                          repo_->FindTokenByHash(hash));
  if (!token) return absl::UnauthenticatedError("unknown token");
  if (token->revoked_unix != 0) {
    return absl::UnauthenticatedError("token " + std::to_string(token->id) +
                                      " has been revoked");
  }
  Caller caller{token->role, token->agency_prefix, token->id};
  if (live_cache_ttl_.count() > 0) {
    std::lock_guard<std::mutex> lock(mu_);
    if (revocations == revocations_) {
      if (live_.size() >= kMaxCached) live_.clear();
      live_[hash] = Cached{caller, now};
    }
  }
  return caller;
}

absl::StatusOr<NewToken> TokenManager::Create(const Caller& by, Role role,
                                              const std::string& agency_prefix,
                                              const std::string& label) {
  if (role != Role::kNationalAdmin && role != Role::kAgencyOperator &&
      role != Role::kAuditor) {
    return absl::InvalidArgumentError(
        "role must be national_admin, agency_operator or auditor");
  }
  if ((role == Role::kAgencyOperator) == agency_prefix.empty()) {
    return absl::InvalidArgumentError(
        role == Role::kAgencyOperator
            ? "an agency_operator token needs the agency prefix it acts for"
            : "only agency_operator tokens are bound to an agency prefix");
  }
  if (label.size() > 200) {
    return absl::InvalidArgumentError("label is longer than 200 bytes");
  }
  NewToken out;
  out.secret = NewTokenSecret();
  out.record.hash = HashTokenSecret(out.secret);
  out.record.role = role;
  out.record.agency_prefix = agency_prefix;
  out.record.label = label;
  out.record.created_unix = clock_->NowSeconds();
  ChangeRecord change{
      out.record.created_unix, by.Describe(), "token.create", "", "",
      TokenJson(out.record)};
  GORANK_ASSIGN_OR_RETURN(out.record.id,
                          repo_->InsertToken(out.record, change));
  return out;
}

absl::StatusOr<TokenRecord> TokenManager::Revoke(const Caller& by,
                                                 int64_t token_id) {
  GORANK_ASSIGN_OR_RETURN(TokenRecord token, repo_->GetToken(token_id));
  if (token.revoked_unix != 0) {
    return absl::FailedPreconditionError("token " + std::to_string(token_id) +
                                         " is already revoked");
  }
  if (token_id == by.token_id) {
    return absl::FailedPreconditionError(
        "a token cannot revoke itself; use another national-admin token");
  }
  const std::string before = TokenJson(token);
  token.revoked_unix = clock_->NowSeconds();
  ChangeRecord change{token.revoked_unix,
                      by.Describe(),
                      "token.revoke",
                      "token:" + std::to_string(token_id),
                      before,
                      TokenJson(token)};
  // Forgotten before and after the write: a call that read the token
  // live meanwhile keeps nothing (revocations_ moved), and none trusts it
  // after the revocation is acknowledged.
  ForgetLive(token.hash);
  GORANK_RETURN_IF_ERROR(
      repo_->RevokeToken(token_id, token.revoked_unix, change));
  ForgetLive(token.hash);
  return token;
}

void TokenManager::ForgetLive(const std::string& hash) {
  std::lock_guard<std::mutex> lock(mu_);
  live_.erase(hash);
  ++revocations_;
}

absl::StatusOr<std::vector<TokenRecord>> TokenManager::List() {
  return repo_->ListTokens();
}

absl::StatusOr<std::optional<std::string>> TokenManager::BootstrapIfEmpty() {
  GORANK_ASSIGN_OR_RETURN(std::vector<TokenRecord> tokens, repo_->ListTokens());
  if (!tokens.empty()) return std::optional<std::string>();
  Caller system;
  system.role = Role::kNationalAdmin;
  GORANK_ASSIGN_OR_RETURN(
      NewToken token,
      Create(system, Role::kNationalAdmin, "", "bootstrap national admin"));
  return std::optional<std::string>(token.secret);
}

}  // namespace gorank::auth
