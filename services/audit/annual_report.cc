#include "services/audit/annual_report.h"

#include <set>

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"

namespace gorank::audit {

using certificates::Certificate;
using certificates::CertificateState;

int AnnualReport::AnomalyCount() const {
  return static_cast<int>(missing_serials.size() + duplicate_serials.size() +
                          incomplete_holders.size() + revocations.size() +
                          inactive_months.size()) +
         appraisals_under_18 + (stock_exceeded ? 1 : 0);
}

namespace {

void CountSerials(const ReportInputs& in, AnnualReport& r) {
  std::map<int, int> seen;
  for (const Certificate& c : in.certificates) {
    r.max_serial = std::max(r.max_serial, c.number.serial);
    ++seen[c.number.serial];
  }
  for (int s = 1; s <= r.max_serial; ++s) {
    auto it = seen.find(s);
    if (it == seen.end()) r.missing_serials.push_back(s);
    else if (it->second > 1) r.duplicate_serials.push_back(s);
  }
}

std::string NoticeOutcome(const Certificate& c, int64_t now) {
  switch (certificates::StateAt(c, now)) {
    case CertificateState::kUnderNotice:
      return c.has_open_objection ? "under notice, objection open" : "under notice";
    case CertificateState::kEffective:
      return "notice ended, effective";
    case CertificateState::kRevoked:
      return "revoked: " + c.revoke_reason;
  }
  return "";
}

void NoteCertificates(const ReportInputs& in, AnnualReport& r) {
  const registry::Rank four_dan = registry::Rank::FromString("4d");
  for (const Certificate& c : in.certificates) {
    ++r.by_grade[c.grade.ToString()];
    ++r.by_basis[certificates::BasisName(c.basis)];
    const std::string number = c.number.ToString();
    if (c.grade >= four_dan) {
      r.high_grades.push_back({number, c.grade.ToString(), NoticeOutcome(c, in.now_unix)});
    }
    auto holder = in.holders.find(c.player_id.value);
    if (holder != in.holders.end()) {
      std::string missing;
      for (const auto& f : certificates::MissingHolderFields(holder->second, c.grade)) {
        missing += (missing.empty() ? "missing " : ", ") + f;
      }
      if (!missing.empty()) r.incomplete_holders.push_back({number, c.grade.ToString(), missing});
    } else if (c.grade >= registry::Rank::FromString("1d")) {
      r.incomplete_holders.push_back({number, c.grade.ToString(), "holder record missing"});
    }
    if (c.revoked_unix != 0) {
      r.revocations.push_back({number, c.grade.ToString(), c.revoke_reason});
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
  CountSerials(in, r);
  NoteCertificates(in, r);
  NoteAppraisals(in, r);
  if (in.stock) {
    r.stock_ordered = in.stock->quantity;
    r.stock_released = in.stock->released_unix != 0;
  }
  r.stock_used = r.issued;
  r.stock_exceeded = in.prefix != registry::kNationalPrefix &&
                     r.issued > (in.stock && r.stock_released ? *r.stock_ordered : 0);
  const Date today = ShanghaiDate(in.now_unix);
  const int last_month = today.year > in.year ? 12 : today.year == in.year ? today.month : 0;
  std::set<int> active;
  for (const Certificate& c : in.certificates) active.insert(c.issue_date.month);
  for (int m = 1; m <= last_month; ++m) {
    if (!active.count(m)) r.inactive_months.push_back(m);
  }
  for (const registry::RankHistoryEntry& e : in.awards) {
    auto holder = in.holders.find(e.player_id.value);
    const std::string who = "player " + std::to_string(e.player_id.value) +
                            (holder != in.holders.end() ? " " + holder->second.name : "");
    const std::string game = e.discipline == registry::Discipline::kGomoku ? "gomoku " : "";
    r.awards.push_back(CertificateNote{
        "", e.to_rank ? game + e.to_rank->ToString() : "-",
        who + ": " + (e.from_rank ? game + e.from_rank->ToString() : "unranked") + " -> " +
            (e.to_rank ? game + e.to_rank->ToString() : "-") + " on " +
            e.effective_date.ToString() + ", " + e.basis + " (by " + e.actor + ")"});
  }
  return r;
}

absl::StatusOr<AnnualReport> Reporting::Build(const registry::Agency& agency, int year) {
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
  GORANK_ASSIGN_OR_RETURN(in.appraisals, certs_->ListAppraisals(agency.prefix, false));
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
  if (stock.ok()) in.stock = *stock;
  else if (!absl::IsNotFound(stock.status())) return stock.status();
  return BuildAnnualReport(in);
}

absl::StatusOr<std::pair<AnnualReport, Checkpoint>> Reporting::Report(
    const auth::Caller& caller, const std::string& prefix, int year) {
  if (year < 2000 || year > 2099) return absl::InvalidArgumentError("year must be 2000..2099");
  if (caller.role == auth::Role::kAgencyOperator && caller.agency_prefix != prefix) {
    return absl::PermissionDeniedError("an agency sees only its own annual report");
  }
  GORANK_ASSIGN_OR_RETURN(registry::Agency agency, registry_->GetAgency(prefix));
  GORANK_ASSIGN_OR_RETURN(Checkpoint cp, trail_->SignCheckpointNow());
  GORANK_ASSIGN_OR_RETURN(AnnualReport report, Build(agency, year));
  return std::make_pair(std::move(report), std::move(cp));
}

absl::StatusOr<std::pair<std::vector<AnnualReport>, Checkpoint>> Reporting::NationalSummary(
    int year) {
  if (year < 2000 || year > 2099) return absl::InvalidArgumentError("year must be 2000..2099");
  GORANK_ASSIGN_OR_RETURN(Checkpoint cp, trail_->SignCheckpointNow());
  GORANK_ASSIGN_OR_RETURN(std::vector<registry::Agency> agencies, registry_->ListAgencies());
  std::vector<AnnualReport> out;
  for (const registry::Agency& a : agencies) {
    GORANK_ASSIGN_OR_RETURN(AnnualReport r, Build(a, year));
    out.push_back(std::move(r));
  }
  return std::make_pair(std::move(out), std::move(cp));
}

}  // namespace gorank::audit
