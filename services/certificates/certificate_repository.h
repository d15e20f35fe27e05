// Storage interface of the certificate module, owned by the domain and
// implemented over SQLite and PostgreSQL in storage/. Each mutating call is one
// transaction that also writes the audit-log entry and, where the call
// changes a rank, the player's new rank and its history entry. Serials are
// allocated inside that transaction (BEGIN IMMEDIATE), so a failed issuance
// consumes none and concurrent issuances never share or skip one; the rules
// an issuance depends on in stored state are judged inside it too.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_REPOSITORY_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_REPOSITORY_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "services/certificates/certificate.h"
#include "services/common/change.h"
#include "services/registry/player.h"

namespace gorank::certificates {

// What IssueCertificate does, decided by the domain from the request alone:
// plain data. Everything the issuance depends on in stored state is read
// and judged inside the write transaction (see IssueCertificate).
struct IssuePlan {
  // Complete but for number.serial, rank_applied and rank_before, which the
  // write fills in: number.prefix and year, holder, grade, dates, basis,
  // issued_by/issued_unix, request_id/scope/hash (IssueFingerprint).
  Certificate draft;
  // The request named no issue date (today's was taken): a retry on a
  // later day still matches the first request (CheckReplay).
  bool issue_date_defaulted = false;
  // When set, the holder must be a player of this agency (an operator's
  // own); "" for the national admin, who issues to anyone.
  std::string holder_agency;
  // Apply the grade to the holder's rank now (no public notice, or a notice
  // already over), with its history entry.
  bool apply_rank_now = false;
  // The prefix's released stock of draft.year bounds the issuance (every
  // agency but the national body).
  bool uses_stock = false;
  // When set, this appraisal is marked approved with the new number.
  std::optional<int64_t> appraisal_id;
  std::string appraisal_note;
};

struct CertificateFilter {
  std::string agency_prefix;  // "" = any
  int year = 0;               // 0 = any
  std::optional<registry::PlayerId> player_id;
  bool only_pending_notice = false;  // notice not yet settled, not revoked
  std::string after_number;          // pagination
  int limit = 1000;
};

struct ObjectionFilter {
  std::optional<ObjectionState> state;      // nullopt = any
  std::optional<CertificateNumber> number;  // nullopt = any
  std::string holder_agency;  // "" = any; else the holder's (current) agency
  int64_t after_id = 0;       // pagination: ids strictly greater
  int limit = 100;
};

// What a certificate import asks the registry (LookupForImport).
struct ImportLookupQuery {
  std::vector<std::string> numbers;  // canonical nine-digit numbers
  std::vector<registry::PlayerId> player_ids;
  std::vector<std::string> resident_ids;
  // External ids (player_external_ids): the agency whose id it is, or ""
  // for the id in any agency, and the id.
  std::vector<std::pair<std::string, std::string>> external_ids;
};

struct ExternalIdHit {
  std::string agency_prefix;
  registry::PlayerId player_id;
};

// The answer, read in one snapshot. Keys absent from a map were not found.
struct ImportLookup {
  std::map<std::string, Certificate> certificates;  // by number
  // Every player named by id, resident ID or external id, by id.
  std::map<int64_t, registry::Player> players;
  std::map<std::string, registry::PlayerId> by_resident_id;
  // By external id: the hits in the agency asked for (every agency for "").
  std::map<std::string, std::vector<ExternalIdHit>> by_external_id;
};

// Historic certificates to store under their original numbers, decided by
// the domain (Certification::ImportCertificates).
struct ImportPlan {
  struct Item {
    Certificate certificate;  // complete: number, rank_applied, rank_before
    int line = 0;             // the row's line in the file
  };
  std::vector<Item> items;
  std::string file_name;
  std::string file_sha256;
  int64_t imported_unix = 0;
  // Applied in order; each from_rank must equal the stored rank then.
  std::vector<registry::RankHistoryEntry> rank_changes;
  // (prefix, year) -> the serial certificate_serials.last_serial must reach
  // (it never moves back).
  std::map<std::pair<std::string, int>, int> last_serials;
  ChangeRecord audit;  // one entry for the whole import
};

// Implementations are thread-safe.
class CertificateRepository {
 public:
  virtual ~CertificateRepository() = default;

  // Issues per `plan` in one write transaction that reads and checks, in
  // this order, everything the issuance depends on, and then writes the
  // certificate, the serial, the rank change with its history entry
  // (IssueHistoryEntry), the appraisal decision and the audit entry
  // (IssueAuditRecord):
  //   1. draft.request_id already used in draft.request_scope: that
  //      certificate when CheckReplay accepts it (nothing written), else
  //      ALREADY_EXISTS. The same id in another scope is no conflict.
  //   2. the issuing agency (draft.number.prefix): NOT_FOUND when unknown,
  //      FAILED_PRECONDITION when suspended (CheckAgencyMayIssue).
  //   3. the holder: NOT_FOUND when unknown, else CheckHolder on the stored
  //      record (agency, holder fields, rank and correction).
  //   4. uses_stock: CheckStock on the prefix's order of draft.year.
  //   5. the serial: RESOURCE_EXHAUSTED after 9999 (NextNumber).
  //   6. appraisal_id: FAILED_PRECONDITION when no longer pending.
  // A refused issuance writes nothing and consumes no serial. Concurrent
  // calls may share one transaction (one commit for many); each is judged
  // on the state the calls before it in that transaction left, and a
  // refusal of one never fails another. Returns after the commit.
  virtual absl::StatusOr<Certificate> IssueCertificate(
      const IssuePlan& plan) = 0;
  // NOT_FOUND for an unknown number.
  virtual absl::StatusOr<Certificate> GetCertificate(
      const CertificateNumber& n) = 0;
  // The certificate issued under this idempotency key in `scope` (see
  // Certificate::request_scope); nullopt when none.
  virtual absl::StatusOr<std::optional<Certificate>> FindByRequestId(
      const std::string& scope, const std::string& request_id) = 0;
  virtual absl::StatusOr<std::vector<Certificate>> ListCertificates(
      const CertificateFilter& filter) = 0;

  // Marks a certificate whose notice ended as settled and, when `change` is
  // set, applies it to the player's rank (the stored rank must equal
  // change->from_rank, else ABORTED). FAILED_PRECONDITION when already
  // settled or revoked.
  virtual absl::Status SettleNotice(
      const CertificateNumber& n,
      const std::optional<registry::RankHistoryEntry>& change,
      const std::optional<registry::Rank>& rank_before,
      const ChangeRecord& audit) = 0;
  // Revokes (FAILED_PRECONDITION when already revoked) and, when `change` is
  // set, sets the player's rank back (ABORTED on a stale from_rank).
  virtual absl::Status Revoke(
      const CertificateNumber& n, int64_t revoked_unix,
      const std::string& reason,
      const std::optional<registry::RankHistoryEntry>& change,
      const ChangeRecord& audit) = 0;

  // Objections. InsertObjection: NOT_FOUND for an unknown certificate.
  virtual absl::StatusOr<int64_t> InsertObjection(
      const Objection& o, const ChangeRecord& audit) = 0;
  virtual absl::StatusOr<Objection> GetObjection(int64_t id) = 0;
  virtual absl::StatusOr<std::vector<Objection>> ListObjections(
      const CertificateNumber& n) = 0;
  // Objections matching `filter` in id order, at most filter.limit, with
  // grade, holder_name and holder_agency_prefix filled.
  virtual absl::StatusOr<std::vector<Objection>> FindObjections(
      const ObjectionFilter& filter) = 0;
  // Records the decision on an open objection (FAILED_PRECONDITION when
  // already decided); an upheld one revokes the certificate in the same
  // transaction.
  virtual absl::Status DecideObjection(int64_t id, ObjectionState state,
                                       const std::string& note,
                                       int64_t now_unix,
                                       const ChangeRecord& audit) = 0;

  // Appraisals.
  virtual absl::StatusOr<int64_t> InsertAppraisal(
      const Appraisal& a, const ChangeRecord& audit) = 0;
  virtual absl::StatusOr<Appraisal> GetAppraisal(int64_t id) = 0;
  virtual absl::StatusOr<std::vector<Appraisal>> ListAppraisals(
      const std::string& agency_prefix, bool pending_only) = 0;
  // The same list, keyset-paged: ids above `after_id`, by id, at most
  // `limit` (> 0).
  virtual absl::StatusOr<std::vector<Appraisal>> ListAppraisalsAfter(
      const std::string& agency_prefix, bool pending_only, int64_t after_id,
      int limit) = 0;
  // Rejects a pending appraisal (FAILED_PRECONDITION when decided already).
  virtual absl::Status RejectAppraisal(int64_t id, const std::string& note,
                                       int64_t now_unix,
                                       const ChangeRecord& audit) = 0;

  // Stock. PutStockOrder creates or amends (FAILED_PRECONDITION once
  // released). ReleaseStockOrder: NOT_FOUND without an order,
  // FAILED_PRECONDITION when released already.
  virtual absl::Status PutStockOrder(const StockOrder& order,
                                     const ChangeRecord& audit) = 0;
  virtual absl::Status ReleaseStockOrder(const std::string& prefix, int year,
                                         int64_t now_unix,
                                         const std::string& by,
                                         const ChangeRecord& audit) = 0;
  // The order with `used` filled; NOT_FOUND when none.
  virtual absl::StatusOr<StockOrder> GetStockOrder(const std::string& prefix,
                                                   int year) = 0;
  // Certificates issued under `prefix` in `year` (revoked ones included,
  // imported ones not: they used no stock).
  virtual absl::StatusOr<int> CountIssued(const std::string& prefix,
                                          int year) = 0;

  // Imports. LookupForImport reads what `query` names in one snapshot.
  virtual absl::StatusOr<ImportLookup> LookupForImport(
      const ImportLookupQuery& query) = 0;
  // Stores `plan` in one transaction: every certificate with its
  // imported_certificates row (file name, sha256, line), the rank changes,
  // the serial counters and the one audit entry. ABORTED, storing nothing,
  // when a number was taken or a rank changed since the lookup.
  virtual absl::Status StoreImport(const ImportPlan& plan) = 0;
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_REPOSITORY_H_
