#include "services/certificates/certificate_rules.h"

#include <algorithm>
#include <cstdio>

#include "services/certificates/certificate_json.h"
#include "services/registry/gomoku_rank.h"

namespace gorank::certificates {

using registry::Rank;

std::string CertificateNumber::ToString() const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%02d%04d", prefix.c_str(), yy, serial);
  return buf;
}

absl::StatusOr<CertificateNumber> CertificateNumber::Parse(
    const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
    } else if (c != ' ' && c != '-') {
      return absl::InvalidArgumentError(
          "a certificate number has nine digits PPPYYSSSS, e.g. 610140001");
    }
  }
  if (digits.size() != 9 || digits.substr(5) == "0000") {
    return absl::InvalidArgumentError(
        "a certificate number has nine digits PPPYYSSSS with serial "
        "0001..9999");
  }
  return CertificateNumber{digits.substr(0, 3), std::stoi(digits.substr(3, 2)),
                           std::stoi(digits.substr(5))};
}

const char* BasisName(Basis b) {
  switch (b) {
    case Basis::kTournament:
      return "tournament";
    case Basis::kAppraisal:
      return "appraisal";
    case Basis::kRatingPromotion:
      return "rating_promotion";
    case Basis::kHonoraryAward:
      return "honorary_award";
  }
  return "unknown";
}

const char* StateName(CertificateState s) {
  switch (s) {
    case CertificateState::kUnderNotice:
      return "under_notice";
    case CertificateState::kEffective:
      return "effective";
    case CertificateState::kRevoked:
      return "revoked";
  }
  return "unknown";
}

absl::StatusOr<CertificateNumber> NextNumber(const std::string& prefix,
                                             int year, int last_serial) {
  if (last_serial >= kMaxSerial) {
    return absl::ResourceExhaustedError(
        "prefix " + prefix + " has used all 9999 certificate numbers of " +
        std::to_string(year) +
        "; no further certificate can be issued under it this year");
  }
  return CertificateNumber{prefix, year % 100, last_serial + 1};
}

bool IsCertifiableGrade(const Rank& grade) {
  if (grade.IsGomoku()) {
    return !grade.IsGomokuDan() ||
           grade.level() <= registry::GomokuRank::kInitialHighestDan;
  }
  return (grade.IsKyu() && grade.level() <= 10) || grade.IsAmateurDan();
}

bool NeedsPublicNotice(const Rank& grade) {
  if (grade.IsGomokuDan()) return grade.level() >= 4;
  return grade.IsAmateurDan() && grade.level() >= 4 && grade.level() <= 7;
}

int64_t NoticeUntil(const Rank& grade, const Date& issue_date,
                    const Date& today, int64_t now_unix, int notice_days) {
  if (!NeedsPublicNotice(grade)) return 0;
  const int64_t days_since_issue = today.ToDays() - issue_date.ToDays();
  return now_unix + (int64_t{notice_days} - days_since_issue) * 86400;
}

bool NeedsNationalBody(const Rank& grade) {
  return (grade.IsAmateurDan() || grade.IsGomokuDan()) && grade.level() >= 4;
}

namespace {

// The Gomoku part of CheckIssueAuthority's grade checks.
absl::Status CheckGomokuGrade(const Rank& grade, Basis basis) {
  if (grade.IsGomokuDan() &&
      grade.level() > registry::GomokuRank::kInitialHighestDan) {
    return absl::FailedPreconditionError(
        "rule: the highest Gomoku dan awarded for now is 6d (SPEC section 7: "
        "7d..9d are on "
        "the ladder but not awarded yet); not Gomoku " +
        grade.ToString());
  }
  if (basis == Basis::kHonoraryAward) {
    return absl::InvalidArgumentError(
        "the honorary-award basis is for Go 8d only; Gomoku has no honorary "
        "grade");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckIssuerAuthority(const auth::Caller& caller,
                                  const std::string& prefix, const Rank& grade,
                                  Basis basis) {
  if (grade.IsGomoku()) {
    if (absl::Status s = CheckGomokuGrade(grade, basis); !s.ok()) return s;
  } else if (!IsCertifiableGrade(grade)) {
    return absl::InvalidArgumentError(
        "certificates are issued for 10k..1k and 1d..7d (8d honorary); not "
        "for " +
        grade.ToString());
  }
  const bool honorary = grade == Rank::FromString("8d");
  if (!grade.IsGomoku() && honorary != (basis == Basis::kHonoraryAward)) {
    return absl::InvalidArgumentError(
        honorary ? "8d is honorary only: its basis must be HONORARY_AWARD"
                 : "the honorary-award basis is for 8d only");
  }
  if (caller.role != auth::Role::kNationalAdmin &&
      caller.role != auth::Role::kAgencyOperator) {
    return absl::PermissionDeniedError("only agencies issue certificates");
  }
  if (!caller.ActsFor(prefix)) {
    return absl::PermissionDeniedError(
        "rule: an agency issues only under its own prefix (" +
        caller.agency_prefix + "), not under " + prefix);
  }
  if (NeedsNationalBody(grade) &&
      (prefix != registry::kNationalPrefix || !caller.IsNational())) {
    return absl::PermissionDeniedError(
        grade.IsGomoku() ? "rule: Gomoku 4d..6d are issued by the national "
                           "body (prefix 000) only; an "
                           "agency issues Gomoku 10k..1k and 1d..3d"
                         : "rule: 4d..7d and honorary 8d are issued by the "
                           "national body (prefix 000) only");
  }
  return absl::OkStatus();
}

absl::Status CheckAgencyMayIssue(const registry::Agency& agency) {
  if (agency.status == registry::AgencyStatus::kSuspended) {
    return absl::FailedPreconditionError(
        "rule: a suspended agency issues nothing (agency " + agency.prefix +
        ": " + agency.status_reason + ")");
  }
  return absl::OkStatus();
}

absl::Status CheckIssueAuthority(const auth::Caller& caller,
                                 const registry::Agency& agency,
                                 const Rank& grade, Basis basis) {
  if (absl::Status s =
          CheckIssuerAuthority(caller, agency.prefix, grade, basis);
      !s.ok()) {
    return s;
  }
  return CheckAgencyMayIssue(agency);
}

CertificateState StateAt(const Certificate& cert, int64_t now_unix) {
  if (cert.revoked_unix != 0) return CertificateState::kRevoked;
  if (now_unix < cert.notice_until_unix || cert.has_open_objection) {
    return CertificateState::kUnderNotice;
  }
  return CertificateState::kEffective;
}

absl::Status CheckStockWindow(int year, const Date& today) {
  if (today.year == year - 1 && today.month == 12) return absl::OkStatus();
  return absl::FailedPreconditionError(
      "stock for " + std::to_string(year) + " is ordered between " +
      std::to_string(year - 1) + "-12-01 and " + std::to_string(year - 1) +
      "-12-31; today is " + today.ToString());
}

absl::Status CheckAppraisalAge(const std::optional<Date>& birth,
                               const Date& on) {
  if (!birth) {
    return absl::FailedPreconditionError(
        "appraisal needs the player's birth date (the holder must be 18 or "
        "older)");
  }
  const int age = AgeOn(*birth, on);
  if (age < 18) {
    return absl::FailedPreconditionError(
        "rule: appraisal needs a holder aged 18 or older; the player is " +
        std::to_string(age) + " on " + on.ToString());
  }
  return absl::OkStatus();
}

std::vector<std::string> MissingHolderFields(const registry::Player& p,
                                             const Rank& grade) {
  std::vector<std::string> missing;
  if (grade.IsGomoku() ? !grade.IsGomokuDan()
                       : grade < Rank::FromString("1d")) {
    return missing;
  }
  if (p.name.empty()) missing.push_back("name");
  if (p.gender == registry::Gender::kUnspecified) missing.push_back("gender");
  if (!p.birth_date) missing.push_back("birth date");
  if (p.agency_prefix.empty()) missing.push_back("agency");
  return missing;
}

std::optional<Rank> FallbackRank(
    const Certificate& revoked, const std::optional<Rank>& current,
    const std::vector<Rank>& other_effective_grades,
    const std::vector<Certificate>& revoked_before) {
  if (!revoked.rank_applied || current != revoked.grade) return current;
  std::optional<Rank> best = revoked.rank_before;
  // Walk back past earlier ranks that rested on certificates since revoked
  // (each step strictly lowers the rank, so the walk ends).
  for (bool moved = true; moved && best;) {
    moved = false;
    for (const Certificate& r : revoked_before) {
      if (r.rank_applied && r.grade == *best && r.rank_before != best &&
          (!r.rank_before || *r.rank_before < *best)) {
        best = r.rank_before;
        moved = true;
        break;
      }
    }
  }
  for (const Rank& g : other_effective_grades) {
    if (!best || g > *best) best = g;
  }
  return best;
}

absl::Status CheckHolder(const Certificate& draft,
                         const registry::Player& holder,
                         const std::string& holder_agency) {
  if (!holder_agency.empty() && holder.agency_prefix != holder_agency) {
    return absl::PermissionDeniedError(
        "an agency issues certificates to its own players only");
  }
  const std::vector<std::string> missing =
      MissingHolderFields(holder, draft.grade);
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    return absl::FailedPreconditionError(
        "rule: a certificate of 1d and above needs a complete holder record; "
        "missing: " +
        list);
  }
  // A certificate changes the rank of its own discipline only.
  const std::optional<Rank>& held = holder.RankIn(draft.grade.discipline());
  if (held && draft.grade < *held && draft.correction_reason.empty()) {
    const std::string game = draft.grade.IsGomoku() ? "Gomoku " : "";
    return absl::FailedPreconditionError(
        "rule: issuing " + game + draft.grade.ToString() +
        " below the player's current " + game + "rank " + held->ToString() +
        " needs the correction flag and a reason");
  }
  return absl::OkStatus();
}

absl::Status CheckStock(const std::string& prefix, int year,
                        const std::optional<StockOrder>& order) {
  if (!order || order->released_unix == 0) {
    return absl::FailedPreconditionError(
        "rule: agency " + prefix + " has no released certificate stock for " +
        std::to_string(year) +
        " (order it 1-31 December, then the national body releases it)");
  }
  if (order->used >= order->quantity) {
    return absl::FailedPreconditionError(
        "rule: agency " + prefix + " has issued " +
        std::to_string(order->used) + " certificates in " +
        std::to_string(year) + ", all of its released stock of " +
        std::to_string(order->quantity));
  }
  return absl::OkStatus();
}

std::string IssueFingerprint(const Certificate& d) {
  // The form stored since the first release: Go requests unmarked.
  return std::to_string(d.player_id.value) + "|" + d.grade.ToString() + "|" +
         d.issue_date.ToString() + "|" + BasisName(d.basis) + "|" +
         d.basis_reference + "|" + d.number.prefix + "|" +
         (d.correction_reason.empty() ? "" : "c:" + d.correction_reason) +
         (d.grade.IsGomoku() ? "|gomoku" : "");
}

absl::Status CheckReplay(const Certificate& draft, bool issue_date_defaulted,
                         const Certificate& prior) {
  if (prior.request_hash == draft.request_hash) return absl::OkStatus();
  if (issue_date_defaulted) {
    Certificate on_prior_date = draft;
    on_prior_date.issue_date = prior.issue_date;
    if (prior.request_hash == IssueFingerprint(on_prior_date))
      return absl::OkStatus();
  }
  return absl::AlreadyExistsError("request id " + draft.request_id +
                                  " was already used for a different "
                                  "issuance");
}

registry::RankHistoryEntry IssueHistoryEntry(const Certificate& issued) {
  return registry::RankHistoryEntry{
      0,
      issued.player_id,
      issued.rank_before,
      issued.grade,
      issued.notice_until_unix != 0 ? ShanghaiDate(issued.notice_until_unix)
                                    : issued.issue_date,
      issued.basis == Basis::kAppraisal
          ? registry::RankChangeReason::kAppraisal
          : registry::RankChangeReason::kCertificate,
      "certificate " + issued.number.ToString(),
      issued.issued_by,
      issued.issued_unix,
      issued.grade.discipline()};
}

ChangeRecord IssueAuditRecord(const Certificate& issued) {
  return ChangeRecord{issued.issued_unix,
                      issued.issued_by,
                      "certificate.issue",
                      "certificate:" + issued.number.ToString(),
                      "",
                      CertificateJson(issued)};
}

std::string MaskNumber(const CertificateNumber& n) {
  return n.ToString().substr(0, 5) + "****";
}

std::string MaskName(const std::string& name) {
  std::string out;
  bool first = true;
  for (size_t i = 0; i < name.size();) {
    const unsigned char c = name[i];
    const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (first) {
      out += name.substr(i, len);
      first = false;
    } else {
      out += '*';
    }
    i += len;
  }
  return out;
}

}  // namespace gorank::certificates
