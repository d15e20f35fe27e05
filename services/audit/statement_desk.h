// StatementDesk: the server side of certificates anyone can check offline —
// a certificate's signed statement (certificate_statement.h), made on demand
// from the stored certificate and its holder, with the audit-log index of its
// issuance; and the signed list of revoked certificates (revocation_list.h),
// read from the audit log. Pure C++ over the certificate office, the
// registry repository and the audit repository.
#ifndef GORANK_SERVICES_AUDIT_STATEMENT_DESK_H_
#define GORANK_SERVICES_AUDIT_STATEMENT_DESK_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "services/audit/audit_repository.h"
#include "services/audit/certificate_statement.h"
#include "services/audit/revocation_list.h"
#include "services/audit/signing_key.h"
#include "services/auth/caller.h"
#include "services/certificates/certification.h"
#include "services/common/clock.h"
#include "services/registry/registry_repository.h"

namespace gorank::audit {

struct SignedStatement {
  CertificateStatement statement;
  std::string text;  // the GR1 text form
};

// The window around a certificate's issued_unix in which its issuance entry
// is looked for, and the most entries read for it.
inline constexpr int64_t kIssuanceSlackSeconds = 120;
inline constexpr int64_t kIssuanceScanLimit = 20000;

// Thread-safe. Does not own its arguments.
class StatementDesk {
 public:
  StatementDesk(certificates::Certification* office,
                registry::RegistryRepository* registry, AuditRepository* repo,
                const SigningKey* key, const Clock* clock)
      : office_(office),
        registry_(registry),
        repo_(repo),
        key_(key),
        clock_(clock) {}

  // The statement of certificate `number`, as Certification::Get lets the
  // caller see it (NOT_FOUND for an unknown number and for another agency's
  // certificate, INVALID_ARGUMENT for a malformed one; PERMISSION_DENIED for
  // the public, before any read); FAILED_PRECONDITION
  // for a revoked certificate (a statement is for printing). Deterministic:
  // the same certificate and holder give the same text.
  absl::StatusOr<SignedStatement> Statement(const auth::Caller& caller,
                                            const std::string& number);

  // The 0-based index of the "certificate.issue" entry of `number`, found
  // by the entries' times (the entry's time is the certificate's
  // issued_unix): -1 when not found (an imported certificate has none).
  absl::StatusOr<int64_t> FindIssuance(const std::string& number,
                                       int64_t issued_unix);

  // Every certificate revoked in the log as it is now, signed now. The log
  // is read once; later calls read only the entries added since.
  absl::StatusOr<RevocationList> Revocations();

 private:
  absl::StatusOr<int64_t> EntryTime(int64_t index);

  certificates::Certification* office_;
  registry::RegistryRepository* registry_;
  AuditRepository* repo_;
  const SigningKey* key_;
  const Clock* clock_;

  std::mutex mu_;
  int64_t scanned_ = 0;                     // guarded by mu_
  std::map<std::string, int64_t> revoked_;  // guarded by mu_
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_STATEMENT_DESK_H_
