#include "services/audit/annual_report.h"

#include <cstdio>
#include <set>

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"

namespace gorank::audit {

using certificates::Certificate;
using certificates::CertificateState;

int AnnualReport::AnomalyCount() const {
  return static_cast<int>(anomalies.size());
}

namespace {

// "3d", and "gomoku 3d" for a Gomoku grade (the two ladders print alike).
std::string GradeName(const registry::Rank& grade) {
  return (grade.IsGomoku() ? "gomoku " : "") + grade.ToString();
}

// A 4d+ grade of either discipline: the grades with public notice and the
// national body's authority.
bool IsHighGrade(const registry::Rank& grade) {
  if (grade.IsGomoku()) return grade.IsGomokuDan() && grade.level() >= 4;
  return grade >= registry::Rank::FromString("4d");
}

std::string SerialNumber(const std::string& prefix, int year, int serial) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d%04d", year % 100, serial);
  return prefix + buf;
}

void ListAnomalies(const ReportInputs& in, AnnualReport& r) {
  for (int s : r.missing_serials) {
    r.anomalies.push_back({SerialNumber(in.prefix, in.year, s), "",
                           "serial missing: no certificate with this number "
                           "(serials run 1.." +
                               std::to_string(r.max_serial) + ")"});
  }
  for (int s : r.duplicate_serials) {
    r.anomalies.push_back({SerialNumber(in.prefix, in.year, s), "",
                           "serial used by more than one certificate"});
  }
  if (r.stock_exceeded) {
    r.anomalies.push_back(
        {"", "",
         "stock exceeded: " + std::to_string(r.stock_used) + " issued, " +
             (r.stock_released
                  ? std::to_string(r.stock_ordered.value_or(0)) + " released"
                  : std::string("no stock released"))});
  }
  for (const CertificateNote& n : r.incomplete_holders) {
    r.anomalies.push_back(
        {n.number, n.grade, "holder record incomplete: " + n.detail});
  }
  for (const CertificateNote& n : r.appraisals) {
    if (n.detail.find("(UNDER 18)") != std::string::npos) {
      r.anomalies.push_back(
          {n.number, n.grade, "appraisal for a holder under 18: " + n.detail});
    }
  }
  for (const CertificateNote& n : r.revocations) {
    r.anomalies.push_back({n.number, n.grade, "revoked: " + n.detail});
  }
  for (int m : r.inactive_months) {
    char month[16];
    std::snprintf(month, sizeof month, "%04d-%02d", in.year, m);
    r.anomalies.push_back(
        {"", "", std::string("no certificate issued in ") + month});
  }
}

void CountSerials(const ReportInputs& in, AnnualReport& r) {
  std::map<int, int> seen;
  for (const Certificate& c : in.certificates) {
    r.max_serial = std::max(r.max_serial, c.number.serial);
    ++seen[c.number.serial];
  }
  for (int s = 1; s <= r.max_serial; ++s) {
    auto it = seen.find(s);
    if (it == seen.end())
      r.missing_serials.push_back(s);
    else if (it->second > 1)
      r.duplicate_serials.push_back(s);
  }
}

std::string NoticeOutcome(const Certificate& c, int64_t now) {
  switch (certificates::StateAt(c, now)) {
    case CertificateState::kUnderNotice:
      return c.has_open_objection ? "under notice, objection open"
                                  : "under notice";
    case CertificateState::kEffective:
      if (c.notice_until_unix == 0) {
        return c.basis == certificates::Basis::kHonoraryAward
                   ? "effective (honorary award: no public notice)"
                   : "effective (no public notice)";
      }
      return "notice ended, effective";
    case CertificateState::kRevoked:
      return "revoked: " + c.revoke_reason;
  }
  return "";
}

void NoteCertificates(const ReportInputs& in, AnnualReport& r) {
  for (const Certificate& c : in.certificates) {
    ++r.by_grade[GradeName(c.grade)];
    ++r.by_basis[certificates::BasisName(c.basis)];
    const std::string number = c.number.ToString();
    if (IsHighGrade(c.grade)) {
      r.high_grades.push_back(
          {number, GradeName(c.grade), NoticeOutcome(c, in.now_unix)});
    }
    auto holder = in.holders.find(c.player_id.value);
    if (holder != in.holders.end()) {
      std::string missing;
      for (const auto& f :
           certificates::MissingHolderFields(holder->second, c.grade)) {
        missing += (missing.empty() ? "missing " : ", ") + f;
      }
      if (!missing.empty())
        r.incomplete_holders.push_back({number, GradeName(c.grade), missing});
    } else if (c.grade >= registry::Rank::FromString("1d")) {
      r.incomplete_holders.push_back(
          {number, GradeName(c.grade), "holder record missing"});
    }
    if (c.revoked_unix != 0) {
      r.revocations.push_back({number, GradeName(c.grade), c.revoke_reason});
    }
  }
}

void NoteAppraisals(const ReportInputs& in, AnnualReport& r) {
  for (const certificates::Appraisal& a : in.appraisals) {
    if (a.state != certificates::AppraisalState::kApproved) continue;
    const Date decided = ShanghaiDate(a.decided_unix);
    if (decided.year != in.year) continue;
    std::string detail = "approved " + decided.ToString();
    auto holder = in.holders.find(a.player_id.value);
    if (holder != in.holders.end() && holder->second.birth_date) {
      const int age = AgeOn(*holder->second.birth_date, decided);
      detail += ", holder aged " + std::to_string(age);
      if (age < 18) {
        detail += " (UNDER 18)";
        ++r.appraisals_under_18;
      }
    } else {
      detail += ", holder's birth date unknown";
    }
    r.appraisals.push_back({a.certificate_number, a.grade.ToString(), detail});
  }
}

}  // namespace

AnnualReport BuildAnnualReport(const ReportInputs& in) {
  AnnualReport r;
  r.prefix = in.prefix;
  r.agency_name = in.agency_name;
  r.year = in.year;
  r.issued = static_cast<int>(in.certificates.size());
  for (const Certificate& c : in.certificates) r.imported += c.imported ? 1 : 0;
  CountSerials(in, r);
  NoteCertificates(in, r);
  NoteAppraisals(in, r);
  if (in.stock) {
    r.stock_ordered = in.stock->quantity;
    r.stock_released = in.stock->released_unix != 0;
  }
  r.stock_used = r.issued - r.imported;
  r.stock_exceeded =
      in.prefix != registry::kNationalPrefix &&
      r.stock_used > (in.stock && r.stock_released ? *r.stock_ordered : 0);
  const Date today = ShanghaiDate(in.now_unix);
  const int last_month = today.year > in.year    ? 12
                         : today.year == in.year ? today.month
                                                 : 0;
  std::set<int> active;
  for (const Certificate& c : in.certificates)
    active.insert(c.issue_date.month);
  for (int m = 1; m <= last_month; ++m) {
    if (!active.count(m)) r.inactive_months.push_back(m);
  }
  ListAnomalies(in, r);
  for (const registry::RankHistoryEntry& e : in.awards) {
    auto holder = in.holders.find(e.player_id.value);
    const std::string who =
        "player " + std::to_string(e.player_id.value) +
        (holder != in.holders.end() ? " " + holder->second.name : "");
    const std::string game =
        e.discipline == registry::Discipline::kGomoku ? "gomoku " : "";
    r.awards.push_back(CertificateNote{
        "", e.to_rank ? game + e.to_rank->ToString() : "-",
        who + ": " +
            (e.from_rank ? game + e.from_rank->ToString() : "unranked") +
            " -> " + (e.to_rank ? game + e.to_rank->ToString() : "-") + " on " +
            e.effective_date.ToString() + ", " + e.basis + " (by " + e.actor +
            ")"});
  }
  return r;
}

absl::StatusOr<AnnualReport> Reporting::Build(const registry::Agency& agency,
                                              int year) {
  ReportInputs in;
  in.prefix = agency.prefix;
  in.agency_name = agency.name;
  in.year = year;
  in.now_unix = clock_->NowSeconds();
  certificates::CertificateFilter f;
  f.agency_prefix = agency.prefix;
  f.year = year;
  f.limit = certificates::kMaxSerial + 1;
  GORANK_ASSIGN_OR_RETURN(in.certificates, certs_->ListCertificates(f));
  GORANK_ASSIGN_OR_RETURN(in.appraisals,
                          certs_->ListAppraisals(agency.prefix, false));
  for (const Certificate& c : in.certificates) {
    if (in.holders.count(c.player_id.value)) continue;
    auto p = registry_->GetPlayer(c.player_id);
    if (p.ok()) in.holders[c.player_id.value] = *p;
  }
  for (const auto& a : in.appraisals) {
    auto p = registry_->GetPlayer(a.player_id);
    if (p.ok()) in.holders[a.player_id.value] = *p;
  }
  registry::RankChangeQuery awards;
  awards.reason = registry::RankChangeReason::kTournamentAward;
  awards.agency_prefix = agency.prefix;
  awards.from = Date{year, 1, 1};
  awards.to = Date{year, 12, 31};
  GORANK_ASSIGN_OR_RETURN(in.awards, registry_->ListRankChanges(awards));
  for (const auto& e : in.awards) {
    if (in.holders.count(e.player_id.value)) continue;
    auto p = registry_->GetPlayer(e.player_id);
    if (p.ok()) in.holders[e.player_id.value] = *p;
  }
  auto stock = certs_->GetStockOrder(agency.prefix, year);
  if (stock.ok())
    in.stock = *stock;
  else if (!absl::IsNotFound(stock.status()))
    return stock.status();
  return BuildAnnualReport(in);
}

absl::StatusOr<std::pair<AnnualReport, Checkpoint>> Reporting::Report(
    const auth::Caller& caller, const std::string& prefix, int year) {
  if (year < 2000 || year > 2099)
    return absl::InvalidArgumentError("year must be 2000..2099");
  if (caller.role == auth::Role::kAgencyOperator &&
      caller.agency_prefix != prefix) {
    return absl::PermissionDeniedError(
        "an agency sees only its own annual report");
  }
  GORANK_ASSIGN_OR_RETURN(registry::Agency agency,
                          registry_->GetAgency(prefix));
  GORANK_ASSIGN_OR_RETURN(Checkpoint cp, trail_->SignCheckpointNow());
  GORANK_ASSIGN_OR_RETURN(AnnualReport report, Build(agency, year));
  return std::make_pair(std::move(report), std::move(cp));
}

absl::StatusOr<std::pair<std::vector<AnnualReport>, Checkpoint>>
Reporting::NationalSummary(int year) {
  if (year < 2000 || year > 2099)
    return absl::InvalidArgumentError("year must be 2000..2099");
  GORANK_ASSIGN_OR_RETURN(Checkpoint cp, trail_->SignCheckpointNow());
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Agency> agencies,
                          registry_->ListAgencies());
  std::vector<AnnualReport> out;
  for (const registry::Agency& a : agencies) {
    GORANK_ASSIGN_OR_RETURN(AnnualReport r, Build(a, year));
    out.push_back(std::move(r));
  }
  return std::make_pair(std::move(out), std::move(cp));
}

}  // namespace gorank::audit
