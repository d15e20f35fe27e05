// The certificate rules of SPEC section 3 as pure functions of values and
// the time: numbering, issuing authority, the state during public notice,
// the stock-ordering window, the appraisal age limit, the rank a revocation
// falls back to, the masked holder name the public sees, and the rules an
// issuance's write transaction judges on the state it reads (holder, stock,
// suspension, retries). No I/O; every function is thread-safe.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_RULES_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_RULES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/certificates/certificate.h"
#include "services/common/change.h"
#include "services/registry/player.h"

namespace gorank::certificates {

// The number of the next certificate of `prefix` in `year` after
// `last_serial` (0 when none yet). RESOURCE_EXHAUSTED after 9999.
absl::StatusOr<CertificateNumber> NextNumber(const std::string& prefix,
                                             int year, int last_serial);

// True for the grades certificates are issued for: Go 10k..1k and 1d..8d;
// Gomoku 10k..1k and 1d..6d (the highest Gomoku dan awarded for now).
bool IsCertifiableGrade(const registry::Rank& grade);
// True for the grades that need public notice: Go 4d..7d; Gomoku 4d..6d
// (SPEC is silent on Gomoku: it mirrors the amateur Go rule).
bool NeedsPublicNotice(const registry::Rank& grade);
// True for the grades only the national body issues: Go 4d..8d, Gomoku
// 4d and above.
bool NeedsNationalBody(const registry::Rank& grade);

// The end of the public notice of a certificate of `grade` issued on
// `issue_date` (0 when the grade needs none): the notice runs `notice_days`
// from the issue date, at the time of day of `now_unix` (so a certificate
// issued today is under notice until now + notice_days). A result at or
// before `now_unix` means the notice is over: the certificate is effective
// at once. REQUIRES: issue_date <= today, today = ShanghaiDate(now_unix).
int64_t NoticeUntil(const registry::Rank& grade, const Date& issue_date,
                    const Date& today, int64_t now_unix, int notice_days);

// Whether `caller` may issue `grade` under `prefix` with `basis`, judged on
// the request alone (no stored state). The rule broken is named:
//   INVALID_ARGUMENT     grade not certifiable; 8d without the honorary basis;
//                        the honorary basis for a Gomoku grade
//   PERMISSION_DENIED    an operator under another prefix; 4d..8d (Gomoku
//                        4d..6d) other than by the national body under 000;
//                        a public/auditor
//   FAILED_PRECONDITION  Gomoku 7d..9d (on the ladder, not awarded yet)
absl::Status CheckIssuerAuthority(const auth::Caller& caller,
                                  const std::string& prefix,
                                  const registry::Rank& grade, Basis basis);
// FAILED_PRECONDITION naming the agency and its reason when `agency` is
// suspended (a suspended agency issues nothing); OK otherwise.
absl::Status CheckAgencyMayIssue(const registry::Agency& agency);
// CheckIssuerAuthority under agency.prefix, then CheckAgencyMayIssue.
absl::Status CheckIssueAuthority(const auth::Caller& caller,
                                 const registry::Agency& agency,
                                 const registry::Rank& grade, Basis basis);

// The rules of an issuance that depend on stored state, judged by the write
// transaction (CertificateRepository::IssueCertificate) on what it reads, so
// that no other writer can change that state in between.
//
// `holder` may receive `draft`: PERMISSION_DENIED when `holder_agency` is
// set and the holder is not its player; FAILED_PRECONDITION when a grade of
// 1d and above lacks holder fields (named), or when the grade is below the
// holder's current rank of its discipline and draft.correction_reason is
// empty.
absl::Status CheckHolder(const Certificate& draft,
                         const registry::Player& holder,
                         const std::string& holder_agency);
// OK when `order` (the prefix's order for `year`, nullopt when none, `used`
// filled) is released and not used up; FAILED_PRECONDITION naming the rule
// and the numbers otherwise.
absl::Status CheckStock(const std::string& prefix, int year,
                        const std::optional<StockOrder>& order);
// The fingerprint of an issuance, stored as Certificate::request_hash and
// compared on retries: holder, grade, issue date, basis and its reference,
// prefix, correction (Gomoku grades marked).
std::string IssueFingerprint(const Certificate& draft);
// Whether `prior`, the certificate stored under draft's request id and
// scope, answers a retry of `draft`: OK when its fingerprint is draft's
// (on prior's issue date when the retry's date was defaulted, so a retry
// the next day still matches); ALREADY_EXISTS otherwise.
absl::Status CheckReplay(const Certificate& draft, bool issue_date_defaulted,
                         const Certificate& prior);
// The rank-history entry of `issued` applied at issuance (from
// issued.rank_before to its grade) and the audit record of the issuance.
registry::RankHistoryEntry IssueHistoryEntry(const Certificate& issued);
ChangeRecord IssueAuditRecord(const Certificate& issued);

// The state of `cert` at `now_unix`: REVOKED once revoked; UNDER_NOTICE
// while the notice period runs or an objection is open; EFFECTIVE after.
CertificateState StateAt(const Certificate& cert, int64_t now_unix);

// OK when `today` (Asia/Shanghai) lies in the ordering window for stock of
// `year`: 1..31 December of year - 1. FAILED_PRECONDITION naming the window.
absl::Status CheckStockWindow(int year, const Date& today);

// OK when a holder born on `birth` is at least 18 on `on`;
// FAILED_PRECONDITION with the age otherwise (or when birth is unknown).
absl::Status CheckAppraisalAge(const std::optional<Date>& birth,
                               const Date& on);

// The holder fields missing for a certificate of `grade` (1d and above, Go
// or Gomoku, need name, gender, birth date and agency). Empty when complete.
std::vector<std::string> MissingHolderFields(const registry::Player& player,
                                             const registry::Rank& grade);

// The player's rank after revoking `revoked`, given the player's current
// rank and the grades of the player's other certificates that are still
// effective: the best of those; else the rank the player had before
// `revoked` was applied. The current rank stays when `revoked` was not what
// gave it (it never applied, or the player ranks higher for another reason).
// When the earlier rank itself came from a certificate revoked before
// (`revoked_before`: the player's other revoked, applied certificates), the
// fallback follows that certificate's own earlier rank instead, so it never
// lands on a revoked grade. REQUIRES: every rank and certificate given is
// of revoked's discipline (the caller filters).
std::optional<registry::Rank> FallbackRank(
    const Certificate& revoked, const std::optional<registry::Rank>& current,
    const std::vector<registry::Rank>& other_effective_grades,
    const std::vector<Certificate>& revoked_before = {});

// "张*" for "张三", "欧**" for "欧阳锋", "L*****" for "Li Wei": the first
// character kept, every other one (spaces included) starred.
std::string MaskName(const std::string& name);

// A certificate number as the public sees it outside verification and the
// notice list: prefix and year, serial hidden ("11025****").
std::string MaskNumber(const CertificateNumber& n);

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_RULES_H_
