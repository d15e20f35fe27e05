// Certification: the certificate office of the registry — issuing under the
// rules of SPEC section 3 (authority, numbering, holder records, stock,
// corrections, idempotent retries), public notice with objections,
// appraisals, revocation with rank fallback, public verification and rank
// lookup, and the national-backup export. Pure C++ over the certificate and
// registry repositories; the gRPC handlers call this and nothing else.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATION_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATION_H_

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/certificates/certificate.h"
#include "services/certificates/certificate_import.h"
#include "services/certificates/certificate_repository.h"
#include "services/certificates/certificate_rules.h"
#include "services/common/clock.h"
#include "services/common/paging.h"
#include "services/registry/registry_repository.h"

namespace gorank::certificates {

class PublicIndex;  // services/certificates/public_index.h

struct CertificationOptions {
  int notice_days = 7;
  // Other processes write to the same database (several rankd instances
  // on PostgreSQL): notices they start or release are not seen here, so
  // every read looks for due notices instead of trusting the cached due time.
  bool shared_database = false;
};

struct IssueRequest {
  std::string request_id;  // optional idempotency key, at most 128 bytes
  registry::PlayerId player_id;
  std::optional<registry::Rank> grade;
  std::optional<Date> issue_date;  // default: today in Asia/Shanghai
  Basis basis = Basis::kTournament;
  std::string basis_reference;  // required: event and place, decision, ...
  // Issuing agency; default: the operator's own, "000" for the national admin.
  std::string agency_prefix;
  bool correction = false;  // required to issue below the current rank
  std::string correction_reason;
};

enum class VerifyOutcome {
  kNotValid = 0,
  kValid = 1,
  kUnderNotice = 2,
  kRevoked = 3
};

// The public answer of Verify. For kNotValid every other field is empty.
struct VerifyResult {
  VerifyOutcome outcome = VerifyOutcome::kNotValid;
  std::string number;
  std::optional<registry::Rank> grade;
  std::optional<Date> issue_date;
  std::string agency_prefix;
  std::string agency_name;
  std::string masked_holder;
  int64_t notice_until_unix = 0;
};

// A certificate under public notice. For the public, issued_by,
// request_id and request_scope are cleared.
struct NoticeEntry {
  Certificate certificate;
  std::string holder_name;
  std::string agency_name;  // the issuing agency
  int open_objections = 0;
  std::string holder_agency_prefix;  // the holder's own agency (province)
  std::string holder_agency_name;
};

// The page sizes of the lists (page_size 0 gives the first number).
inline constexpr PageSpec kCertificatePage{1000, 1000};
inline constexpr PageSpec kNoticePage{100, 500};
inline constexpr PageSpec kObjectionPage{100, 500};
inline constexpr PageSpec kAppraisalPage{100, 500};

struct PublicRankEntry {
  std::string name;
  std::string latin_name;
  std::string agency_prefix;
  std::string region;
  std::optional<registry::Rank> rank;
  std::vector<Certificate> effective;     // in force, both disciplines
  std::vector<Certificate> under_notice;  // posted, not yet in force
  std::optional<registry::Rank> gomoku_rank;
  // Set for the public: certificate numbers are shown as MaskNumber().
  bool numbers_masked = false;
};

struct HolderRow {
  Certificate certificate;
  CertificateState state;
  registry::Player holder;  // redacted for the caller
};

// Thread-safe. Does not own its arguments.
//
// Errors common to all: INVALID_ARGUMENT (names the field), NOT_FOUND,
// PERMISSION_DENIED (names the rule), FAILED_PRECONDITION (names the rule and
// the numbers), and the repositories' errors. A failed call changes nothing.
class Certification {
 public:
  Certification(CertificateRepository* certs,
                registry::RegistryRepository* registry, const Clock* clock,
                CertificationOptions options = {})
      : certs_(certs), registry_(registry), clock_(clock), options_(options) {}

  // Checked when the national admin releases stock of `year` for an agency
  // (the annual review of year - 1 must have passed). Default: always OK.
  void SetReleasePrecondition(
      std::function<absl::Status(const std::string& prefix, int year)> check) {
    release_precondition_ = std::move(check);
  }

  // Verify and LookupRank answer from `index` (not owned; outlives this)
  // while index->usable(), else from the repositories. The index is kept
  // coherent by the repositories this was given (IndexedCertificateRepository
  // and IndexedRegistryRepository over the same index).
  void SetPublicIndex(const PublicIndex* index) { public_index_ = index; }

  // INVALID_ARGUMENT for basis kAppraisal: those are issued by approving
  // the appraisal (DecideAppraisal), never directly.
  absl::StatusOr<Certificate> Issue(const auth::Caller& caller,
                                    const IssueRequest& request);
  // National admin and auditor: any; an operator: its own prefix or its
  // own players' certificates. Another agency's certificate is the same
  // NOT_FOUND as an unknown number (nothing tells which numbers exist).
  absl::StatusOr<Certificate> Get(const auth::Caller& caller,
                                  const std::string& number);
  // The certificates `filter` matches (agency_prefix, year, player_id; its
  // paging fields are ignored), by number, one page (kCertificatePage). An
  // agency operator lists only its own prefix ("" means its own, another is
  // PERMISSION_DENIED). INVALID_ARGUMENT for a bad page (paging.h).
  absl::StatusOr<Page<Certificate>> List(const auth::Caller& caller,
                                         const CertificateFilter& filter,
                                         const PageArgs& page);
  // National admin, or the issuing agency for its own certificates
  // (PERMISSION_DENIED for another prefix, decided before any read).
  absl::StatusOr<Certificate> Revoke(const auth::Caller& caller,
                                     const std::string& number,
                                     const std::string& reason);
  CertificateState StateOf(const Certificate& c) const {
    return StateAt(c, clock_->NowSeconds());
  }

  // Public notice (4d..7d). LodgeObjection: NOT_FOUND, with one message,
  // for an unknown number and for a certificate not under notice (never
  // posted, ended, revoked); INVALID_ARGUMENT for a missing text or contact.
  absl::StatusOr<Objection> LodgeObjection(const auth::Caller& caller,
                                           const std::string& number,
                                           const std::string& text,
                                           const std::string& contact);
  absl::StatusOr<Objection> DecideObjection(const auth::Caller& caller,
                                            int64_t id, bool uphold,
                                            const std::string& note);
  // Public: the certificates under notice, by number, with holder, basis and
  // the holder's agency (see NoticeEntry for what the public does not get).
  // One page (kNoticePage); INVALID_ARGUMENT for a bad page (paging.h).
  absl::StatusOr<Page<NoticeEntry>> ListNotices(const auth::Caller& caller,
                                                const PageArgs& page);
  // The national admin and auditors: every objection; an agency operator:
  // objections to certificates whose holder is its player (another
  // certificate's number gives an empty page, as an unknown one). By id, one
  // page (kObjectionPage); INVALID_ARGUMENT for a bad page (paging.h).
  absl::StatusOr<Page<Objection>> ListObjections(
      const auth::Caller& caller, std::optional<ObjectionState> state,
      const std::string& number, const PageArgs& page);

  // Appraisal (鉴定): recommended by an agency, decided by the national body.
  absl::StatusOr<Appraisal> RecommendAppraisal(const auth::Caller& caller,
                                               registry::PlayerId player,
                                               const registry::Rank& grade,
                                               const std::string& note);
  // Approval issues the certificate (basis APPRAISAL) in the same
  // transaction; the holder must be 18 or older on the approval date.
  absl::StatusOr<Appraisal> DecideAppraisal(const auth::Caller& caller,
                                            int64_t id, bool approve,
                                            const std::string& note);
  // By id, one page (kAppraisalPage). An agency operator lists only its own
  // agency's appraisals: `agency_prefix` "" means its own, another prefix is
  // PERMISSION_DENIED. The national admin and auditors: "" is every agency.
  // INVALID_ARGUMENT for a bad page (paging.h).
  absl::StatusOr<Page<Appraisal>> ListAppraisals(
      const auth::Caller& caller, const std::string& agency_prefix,
      bool pending_only, const PageArgs& page = {});

  // Stock: ordered 1..31 December for the next year (the national admin may
  // record an order at any time), released by the national admin.
  absl::StatusOr<StockOrder> OrderStock(const auth::Caller& caller,
                                        const std::string& prefix, int year,
                                        int quantity);
  absl::StatusOr<StockOrder> ReleaseStock(const auth::Caller& caller,
                                          const std::string& prefix, int year);
  absl::StatusOr<StockOrder> GetStock(const auth::Caller& caller,
                                      const std::string& prefix, int year);

  // Public. A malformed number is INVALID_ARGUMENT; an unknown number and a
  // wrong name give the same kNotValid answer after the same work.
  absl::StatusOr<VerifyResult> Verify(const std::string& number,
                                      const std::string& holder_name);
  // Players whose name or Latin name is exactly `name` (at most 20). For the
  // public, certificate numbers are masked (numbers_masked).
  absl::StatusOr<std::vector<PublicRankEntry>> LookupRank(
      const auth::Caller& caller, const std::string& name);

  // The national backup: every certificate of `prefix` issued in `year`
  // with its holder's record. National admin, auditor, or that agency.
  absl::StatusOr<std::vector<HolderRow>> ExportHolders(
      const auth::Caller& caller, const std::string& prefix, int year);

  // The basis check of a tournament award resting on certificate `number`
  // (PlayerRegistry::SetAwardBasisCheck): "certificate N (grade)". NOT_FOUND
  // for an unknown number; FAILED_PRECONDITION when `holder` does not hold
  // it or it is revoked or still under notice; INVALID_ARGUMENT when
  // malformed.
  absl::StatusOr<std::string> AwardCertificateBasis(
      const registry::Player& holder, const std::string& number);

  // Historic certificates under their original numbers (`rankctl cert
  // import`; the rules are README "cert import" and certification_import.cc).
  // The national admin imports any agency's certificates, an agency operator
  // those its own agency issued to its own players; anyone else is
  // PERMISSION_DENIED. INVALID_ARGUMENT without rows, over kMaxImportRows,
  // or with a file_sha256 that is not 64 hex digits. A row that breaks a
  // rule is a refusal in the report (line, column, what to write instead),
  // not an error; refusals stop the whole import unless options.skip_bad.
  // ABORTED, storing nothing, when the registry changed during the call.
  absl::StatusOr<CertificateImportReport> ImportCertificates(
      const auth::Caller& caller, const CertificateImportOptions& options,
      const std::vector<CertificateImportRow>& rows);

  // Applies the grade of every certificate whose notice ended without an
  // open objection to its holder's rank. Called before every read that
  // shows ranks, so answers are right without a background job.
  absl::Status SettleDueNotices();

 private:
  absl::StatusOr<Certificate> IssueWithPlan(const auth::Caller& caller,
                                            const IssueRequest& request,
                                            std::optional<int64_t> appraisal_id,
                                            const std::string& appraisal_note);
  absl::Status SettleOne(const Certificate& c);
  // LookupRank from public_index_ (certification_public.cc).
  std::vector<PublicRankEntry> LookupInIndex(const auth::Caller& caller,
                                             const std::string& wanted) const;
  // Records that a notice starts (`until`: its end) or may have been
  // released (`until` == 0, e.g. an objection decided), so that a settle
  // pass running concurrently cannot store a due time that misses it.
  void NoteNoticeChange(int64_t until);

  CertificateRepository* certs_;
  registry::RegistryRepository* registry_;
  const Clock* clock_;
  CertificationOptions options_;
  std::function<absl::Status(const std::string&, int)> release_precondition_;
  const PublicIndex* public_index_ = nullptr;
  // Earliest time a settle pass can find work; 0 = unknown.
  std::atomic<int64_t> next_due_unix_{0};
  // Guards the stores to next_due_unix_ and counts the notice changes, so a
  // settle pass whose list predates a change does not store a due time.
  std::mutex due_mu_;
  int64_t notice_changes_ = 0;  // guarded by due_mu_
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATION_H_
