// The annual report of an agency's year (SPEC section 3, the annual review):
// certificates by grade and by basis, serial continuity, stock ordered /
// released / used, 4d+ certificates and their notice outcome, 1d+ holders
// with incomplete records, appraisals (holders under 18 flagged),
// revocations, and months without any issuance. BuildAnnualReport is a pure
// function of its inputs; Reporting gathers them from the repositories.
#ifndef GORANK_SERVICES_AUDIT_ANNUAL_REPORT_H_
#define GORANK_SERVICES_AUDIT_ANNUAL_REPORT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/audit_trail.h"
#include "services/auth/caller.h"
#include "services/certificates/certificate.h"
#include "services/certificates/certificate_repository.h"
#include "services/registry/registry_repository.h"

namespace gorank::audit {

struct ReportInputs {
  std::string prefix;
  std::string agency_name;
  int year = 0;
  std::vector<certificates::Certificate>
      certificates;                             // issued under prefix in year
  std::map<int64_t, registry::Player> holders;  // by player id
  std::optional<certificates::StockOrder> stock;
  std::vector<certificates::Appraisal> appraisals;  // of the agency
  // TOURNAMENT_AWARD rank changes of the agency's players in the year (their
  // players are in `holders` too).
  std::vector<registry::RankHistoryEntry> awards;
  int64_t now_unix = 0;
};

struct CertificateNote {
  std::string number;
  std::string grade;
  std::string detail;  // notice outcome, missing fields, reason ...
};

struct AnnualReport {
  std::string prefix;
  std::string agency_name;
  int year = 0;
  int issued = 0;
  // Of `issued`: brought in by ImportCertificates under their original
  // numbers. They count in the serials and by grade, not in stock_used.
  int imported = 0;
  std::map<std::string, int> by_grade;  // "3d" -> count; Gomoku "gomoku 3d"
  std::map<std::string, int> by_basis;  // "tournament" -> count
  int max_serial = 0;
  std::vector<int> missing_serials;  // gaps in 1..max_serial
  std::vector<int> duplicate_serials;
  std::optional<int> stock_ordered;
  bool stock_released = false;
  int stock_used = 0;
  bool stock_exceeded = false;
  // Go 4d+ and Gomoku 4d+ ("gomoku 5d"): notice outcome, or why none.
  std::vector<CertificateNote> high_grades;
  std::vector<CertificateNote>
      incomplete_holders;                   // 1d+ holder record incomplete
  std::vector<CertificateNote> appraisals;  // with the holder's age
  int appraisals_under_18 = 0;
  std::vector<CertificateNote> revocations;
  std::vector<int>
      inactive_months;  // 1..12 (up to the current month this year)
  // Ranks raised or lowered by a tournament award, without a certificate:
  // number "", grade the awarded rank, detail player, change, date, basis
  // and actor. Listed for review, not counted as anomalies.
  std::vector<CertificateNote> awards;
  // Every anomaly, each with its record (number or "", grade or "", what
  // is wrong), in this order: gaps, duplicates, stock exceeded, incomplete
  // records, under-18 appraisals, revocations, inactive months.
  std::vector<CertificateNote> anomalies;
  // The number of anomalies (anomalies.size() once built).
  int AnomalyCount() const;
};

AnnualReport BuildAnnualReport(const ReportInputs& in);

// Thread-safe. Does not own its arguments.
class Reporting {
 public:
  Reporting(certificates::CertificateRepository* certs,
            registry::RegistryRepository* registry, AuditTrail* trail,
            const Clock* clock)
      : certs_(certs), registry_(registry), trail_(trail), clock_(clock) {}

  // The report with the signed checkpoint taken when it was made. An
  // operator only for its own agency. NOT_FOUND for an unknown agency.
  absl::StatusOr<std::pair<AnnualReport, Checkpoint>> Report(
      const auth::Caller& caller, const std::string& prefix, int year);
  // Every agency's report of `year` (national admin and auditor).
  absl::StatusOr<std::pair<std::vector<AnnualReport>, Checkpoint>>
  NationalSummary(int year);

 private:
  absl::StatusOr<AnnualReport> Build(const registry::Agency& agency, int year);

  certificates::CertificateRepository* certs_;
  registry::RegistryRepository* registry_;
  AuditTrail* trail_;
  const Clock* clock_;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_ANNUAL_REPORT_H_
