#include "services/audit/statement_desk.h"

#include <algorithm>
#include <vector>

#include "services/audit/audit_entry.h"
#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

constexpr int64_t kBatch = 1000;
constexpr char kSubjectPrefix[] = "certificate:";

}  // namespace

absl::StatusOr<SignedStatement> StatementDesk::Statement(
    const auth::Caller& caller, const std::string& number) {
  // The name digest with the number would let the public test guesses of
  // a holder's name: the gate refuses the public, and so does the desk.
  if (caller.role == auth::Role::kPublic) {
    return absl::PermissionDeniedError(
        "a certificate statement needs a token (national admin, auditor or "
        "the issuing agency); the public checks statements, it does not "
        "fetch them");
  }
  GORANK_ASSIGN_OR_RETURN(certificates::Certificate c,
                          office_->Get(caller, number));
  if (office_->StateOf(c) == certificates::CertificateState::kRevoked) {
    return absl::FailedPreconditionError(
        "certificate " + c.number.ToString() +
        " is revoked: a revoked certificate gets no statement");
  }
  GORANK_ASSIGN_OR_RETURN(registry::Player holder,
                          registry_->GetPlayer(c.player_id));
  SignedStatement out;
  CertificateStatement& s = out.statement;
  s.number = c.number.ToString();
  s.discipline = registry::DisciplineName(c.grade.discipline());
  s.grade = c.grade.ToString();
  s.issue_date = c.issue_date.ToString();
  s.agency_prefix = c.number.prefix;
  s.name_digest = HolderNameDigest(holder.name);
  s.key_id = key_->KeyId();
  GORANK_ASSIGN_OR_RETURN(s.log_index, FindIssuance(s.number, c.issued_unix));
  GORANK_ASSIGN_OR_RETURN(out.text, SignStatement(s, *key_));
  return out;
}

absl::StatusOr<int64_t> StatementDesk::EntryTime(int64_t index) {
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> one,
                          repo_->Entries(index, index + 1));
  if (one.empty()) return absl::InternalError("audit entry missing");
  GORANK_ASSIGN_OR_RETURN(AuditEntry e, AuditEntry::Decode(one[0]));
  return e.time_unix;
}

absl::StatusOr<int64_t> StatementDesk::FindIssuance(const std::string& number,
                                                    int64_t issued_unix) {
  GORANK_ASSIGN_OR_RETURN(const int64_t size, repo_->LogSize());
  // The first entry not older than the window: entries are appended in
  // time order (to the second; group commits may interleave within it).
  int64_t lo = 0, hi = size;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    GORANK_ASSIGN_OR_RETURN(const int64_t t, EntryTime(mid));
    if (t < issued_unix - kIssuanceSlackSeconds) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const std::string subject = kSubjectPrefix + number;
  for (int64_t begin = lo; begin < size && begin - lo < kIssuanceScanLimit;
       begin += kBatch) {
    const int64_t end = std::min(size, begin + kBatch);
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> entries,
                            repo_->Entries(begin, end));
    for (size_t i = 0; i < entries.size(); ++i) {
      GORANK_ASSIGN_OR_RETURN(AuditEntry e, AuditEntry::Decode(entries[i]));
      if (e.time_unix > issued_unix + kIssuanceSlackSeconds) return -1;
      if (e.action == "certificate.issue" && e.subject == subject) {
        return begin + static_cast<int64_t>(i);
      }
    }
  }
  return -1;
}

absl::StatusOr<RevocationList> StatementDesk::Revocations() {
  std::lock_guard<std::mutex> lock(mu_);
  GORANK_ASSIGN_OR_RETURN(const int64_t size, repo_->LogSize());
  const std::string prefix = kSubjectPrefix;
  while (scanned_ < size) {
    const int64_t end = std::min(size, scanned_ + kBatch);
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> entries,
                            repo_->Entries(scanned_, end));
    for (const std::string& bytes : entries) {
      GORANK_ASSIGN_OR_RETURN(AuditEntry e, AuditEntry::Decode(bytes));
      if (e.action == "certificate.revoke" && e.subject.rfind(prefix, 0) == 0) {
        revoked_[e.subject.substr(prefix.size())] = e.time_unix;
      }
    }
    scanned_ = end;
  }
  std::vector<Revocation> list;
  list.reserve(revoked_.size());
  for (const auto& [number, when] : revoked_) list.push_back({number, when});
  return SignRevocationList(size, clock_->NowSeconds(), std::move(list), *key_);
}

}  // namespace gorank::audit
