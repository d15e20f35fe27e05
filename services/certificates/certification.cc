#include "services/certificates/certification.h"

#include <algorithm>
#include <limits>

#include "services/certificates/certificate_json.h"
#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"
#include "services/registry/player_registry.h"

namespace gorank::certificates {

using registry::Rank;
using registry::RankChangeReason;
using registry::RankHistoryEntry;

namespace {

constexpr size_t kMaxTextBytes = 500;

absl::Status CheckText(const std::string& field, const std::string& text,
                       bool required) {
  if (required && text.empty())
    return absl::InvalidArgumentError(field + " is required");
  if (text.size() > kMaxTextBytes) {
    return absl::InvalidArgumentError(field + " is longer than 500 bytes");
  }
  return absl::OkStatus();
}

// "Gomoku " before Gomoku grades in messages, "" for Go.
std::string Game(const Rank& r) { return r.IsGomoku() ? "Gomoku " : ""; }

}  // namespace

absl::StatusOr<Certificate> Certification::Issue(const auth::Caller& caller,
                                                 const IssueRequest& request) {
  if (request.basis == Basis::kAppraisal) {
    return absl::InvalidArgumentError(
        "appraisal certificates are issued by approving the appraisal "
        "(DecideAppraisal)");
  }
  return IssueWithPlan(caller, request, std::nullopt, "");
}

// Judges the request alone here; the rules on stored state (agency, holder,
// stock, serial, retries) are judged by the write transaction on what it
// reads (CertificateRepository::IssueCertificate), so none can go stale.
absl::StatusOr<Certificate> Certification::IssueWithPlan(
    const auth::Caller& caller, const IssueRequest& r,
    std::optional<int64_t> appraisal_id, const std::string& appraisal_note) {
  if (!r.grade) return absl::InvalidArgumentError("grade is required");
  if (r.request_id.size() > 128) {
    return absl::InvalidArgumentError("request_id is longer than 128 bytes");
  }
  GORANK_RETURN_IF_ERROR(CheckText("basis_reference", r.basis_reference, true));
  GORANK_RETURN_IF_ERROR(
      CheckText("correction_reason", r.correction_reason, r.correction));
  const Date today = clock_->Today();
  const Date date = r.issue_date.value_or(today);
  if (!date.IsValid() || date > today || date.year < 2000) {
    return absl::InvalidArgumentError(
        "issue_date must be a date from 2000 up to today");
  }
  const std::string prefix = !r.agency_prefix.empty() ? r.agency_prefix
                             : caller.IsNational()
                                 ? std::string(registry::kNationalPrefix)
                                 : caller.agency_prefix;
  GORANK_RETURN_IF_ERROR(
      CheckIssuerAuthority(caller, prefix, *r.grade, r.basis));

  const int64_t now = clock_->NowSeconds();
  IssuePlan plan;
  Certificate& c = plan.draft;
  c.number.prefix = prefix;
  c.number.yy = date.year % 100;
  c.year = date.year;
  c.player_id = r.player_id;
  c.grade = *r.grade;
  c.issue_date = date;
  c.basis = r.basis;
  c.basis_reference = r.basis_reference;
  c.issued_by = caller.Describe();
  c.issued_unix = now;
  c.correction_reason = r.correction ? r.correction_reason : "";
  c.request_id = r.request_id;
  // Request ids are the caller's agency's own namespace ("000": the
  // national admin's), so nobody can occupy another agency's ids.
  c.request_scope = caller.IsNational() ? std::string(registry::kNationalPrefix)
                                        : caller.agency_prefix;
  c.request_hash = IssueFingerprint(c);
  // The notice runs from the issue date: a back-dated certificate whose
  // notice period is already over is effective at once (its notice_until
  // records when the notice ended).
  c.notice_until_unix =
      NoticeUntil(*r.grade, date, today, now, options_.notice_days);
  plan.issue_date_defaulted = !r.issue_date.has_value();
  plan.holder_agency = caller.IsNational() ? "" : caller.agency_prefix;
  plan.apply_rank_now = c.notice_until_unix <= now;
  plan.uses_stock = prefix != registry::kNationalPrefix;
  plan.appraisal_id = appraisal_id;
  plan.appraisal_note = appraisal_note;
  GORANK_ASSIGN_OR_RETURN(Certificate issued, certs_->IssueCertificate(plan));
  if (issued.notice_until_unix > now)
    NoteNoticeChange(issued.notice_until_unix);
  return issued;
}

absl::StatusOr<Certificate> Certification::Get(const auth::Caller& caller,
                                               const std::string& number) {
  GORANK_ASSIGN_OR_RETURN(CertificateNumber n,
                          CertificateNumber::Parse(number));
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  // Another agency's certificate is answered exactly as an unknown number,
  // so an operator cannot tell which of another prefix's numbers exist.
  const absl::Status unknown = absl::NotFoundError(
      "no certificate " + n.ToString() +
      " that this caller may read (an agency reads "
      "its own prefix's certificates and those of its own players)");
  auto c = certs_->GetCertificate(n);
  if (absl::IsNotFound(c.status())) return unknown;
  if (!c.ok()) return c.status();
  if (caller.role == auth::Role::kAgencyOperator &&
      caller.agency_prefix != n.prefix) {
    GORANK_ASSIGN_OR_RETURN(registry::Player p,
                            registry_->GetPlayer(c->player_id));
    if (p.agency_prefix != caller.agency_prefix) return unknown;
  }
  return *c;
}

absl::StatusOr<Page<Certificate>> Certification::List(
    const auth::Caller& caller, const CertificateFilter& filter,
    const PageArgs& page) {
  CertificateFilter f = filter;
  if (caller.role == auth::Role::kAgencyOperator) {
    if (!f.agency_prefix.empty() && f.agency_prefix != caller.agency_prefix) {
      return absl::PermissionDeniedError(
          "an agency lists only its own certificates");
    }
    f.agency_prefix = caller.agency_prefix;
  }
  f.only_pending_notice = false;
  const PageQuery query =
      PageQuery("ListCertificates")
          .With("agency_prefix", f.agency_prefix)
          .With("year", f.year)
          .With("player_id", f.player_id ? f.player_id->value : 0);
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kCertificatePage, query, "s", page));
  f.after_number = request.after ? request.after->Text(0) : "";
  f.limit = request.FetchLimit();
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> found,
                          certs_->ListCertificates(f));
  return CutPage(std::move(found), request, query, [](const Certificate& c) {
    return PageKey().Add(c.number.ToString());
  });
}

absl::StatusOr<Certificate> Certification::Revoke(const auth::Caller& caller,
                                                  const std::string& number,
                                                  const std::string& reason) {
  GORANK_ASSIGN_OR_RETURN(CertificateNumber n,
                          CertificateNumber::Parse(number));
  GORANK_RETURN_IF_ERROR(CheckText("reason", reason, true));
  // Decided from the number alone, before any read: the answer for another
  // prefix is the same whether the number exists or not.
  if (!caller.IsNational() && caller.agency_prefix != n.prefix) {
    return absl::PermissionDeniedError(
        "rule: an agency revokes only certificates issued under its own "
        "prefix");
  }
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  GORANK_ASSIGN_OR_RETURN(Certificate c, certs_->GetCertificate(n));
  if (c.revoked_unix != 0) {
    return absl::FailedPreconditionError("certificate " + number +
                                         " is already revoked");
  }
  const int64_t now = clock_->NowSeconds();
  GORANK_ASSIGN_OR_RETURN(registry::Player player,
                          registry_->GetPlayer(c.player_id));
  CertificateFilter by_player;
  by_player.player_id = c.player_id;
  GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> others,
                          certs_->ListCertificates(by_player));
  // Fallback within the revoked certificate's discipline only.
  const registry::Discipline discipline = c.grade.discipline();
  const std::optional<Rank> held = player.RankIn(discipline);
  std::vector<Rank> effective;
  std::vector<Certificate> revoked_before;
  for (const Certificate& o : others) {
    if (o.number == c.number || !o.rank_applied) continue;
    if (o.grade.discipline() != discipline) continue;
    if (StateAt(o, now) == CertificateState::kEffective)
      effective.push_back(o.grade);
    if (o.revoked_unix != 0) revoked_before.push_back(o);
  }
  const std::optional<Rank> fallback =
      FallbackRank(c, held, effective, revoked_before);
  std::optional<RankHistoryEntry> change;
  if (fallback != held) {
    change = RankHistoryEntry{0,
                              c.player_id,
                              held,
                              fallback,
                              clock_->Today(),
                              RankChangeReason::kRevocation,
                              "certificate " + number + " revoked: " + reason,
                              caller.Describe(),
                              now,
                              discipline};
  }
  const std::string before = CertificateJson(c);
  c.revoked_unix = now;
  c.revoke_reason = reason;
  GORANK_RETURN_IF_ERROR(certs_->Revoke(
      n, now, reason, change,
      ChangeRecord{now, caller.Describe(), "certificate.revoke",
                   "certificate:" + number, before, CertificateJson(c)}));
  return c;
}

absl::Status Certification::SettleOne(const Certificate& c) {
  const int64_t now = clock_->NowSeconds();
  GORANK_ASSIGN_OR_RETURN(registry::Player player,
                          registry_->GetPlayer(c.player_id));
  const std::optional<Rank> held = player.RankIn(c.grade.discipline());
  std::optional<RankHistoryEntry> change;
  if (!held || *held < c.grade) {
    change = RankHistoryEntry{
        0,
        c.player_id,
        held,
        c.grade,
        ShanghaiDate(c.notice_until_unix),
        c.basis == Basis::kAppraisal ? RankChangeReason::kAppraisal
                                     : RankChangeReason::kCertificate,
        "certificate " + c.number.ToString() + " (public notice ended)",
        "system",
        now,
        c.grade.discipline()};
  }
  Certificate after = c;
  after.rank_applied = true;
  after.rank_before = held;
  return certs_->SettleNotice(
      c.number, change, held,
      ChangeRecord{now, "system", "certificate.notice_ended",
                   "certificate:" + c.number.ToString(), CertificateJson(c),
                   CertificateJson(after)});
}

void Certification::NoteNoticeChange(int64_t until) {
  std::lock_guard<std::mutex> lock(due_mu_);
  ++notice_changes_;
  const int64_t due = next_due_unix_.load();
  if (until == 0 || (due != 0 && until < due)) next_due_unix_.store(until);
}

absl::Status Certification::SettleDueNotices() {
  const int64_t now = clock_->NowSeconds();
  const int64_t due = next_due_unix_.load();
  if (!options_.shared_database && due != 0 && now < due)
    return absl::OkStatus();
  int64_t changes_before = 0;
  {
    std::lock_guard<std::mutex> lock(due_mu_);
    changes_before = notice_changes_;
  }
  CertificateFilter f;
  f.only_pending_notice = true;
  GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> pending,
                          certs_->ListCertificates(f));
  int64_t next = std::numeric_limits<int64_t>::max();
  for (const Certificate& c : pending) {
    if (StateAt(c, now) == CertificateState::kEffective) {
      absl::Status s = SettleOne(c);
      // Another thread may have settled it, or the rank moved: both fine,
      // the next pass sees the new state.
      if (!s.ok() && !absl::IsFailedPrecondition(s) && !absl::IsAborted(s))
        return s;
      if (absl::IsAborted(s)) next = 0;
    } else if (!c.has_open_objection) {
      next = std::min(next, c.notice_until_unix);
    }
  }
  // A notice issued or released after the list was read may be missing
  // from `pending`: then the due time stays unknown and the next read looks.
  std::lock_guard<std::mutex> lock(due_mu_);
  next_due_unix_.store(notice_changes_ != changes_before ? 0 : next);
  return absl::OkStatus();
}

absl::StatusOr<std::string> Certification::AwardCertificateBasis(
    const registry::Player& holder, const std::string& number) {
  GORANK_ASSIGN_OR_RETURN(CertificateNumber n,
                          CertificateNumber::Parse(number));
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  GORANK_ASSIGN_OR_RETURN(Certificate c, certs_->GetCertificate(n));
  if (c.player_id != holder.id) {
    return absl::FailedPreconditionError(
        "certificate " + n.ToString() + " is not held by player " +
        std::to_string(holder.id.value) +
        "; an award rests on the player's own certificate");
  }
  const CertificateState state = StateAt(c, clock_->NowSeconds());
  if (state != CertificateState::kEffective) {
    return absl::FailedPreconditionError(
        "certificate " + n.ToString() + " is " + StateName(state) +
        "; an award rests on a certificate in force");
  }
  return "certificate " + n.ToString() + " (" + Game(c.grade) +
         c.grade.ToString() + ")";
}

absl::StatusOr<std::vector<HolderRow>> Certification::ExportHolders(
    const auth::Caller& caller, const std::string& prefix, int year) {
  if (caller.role == auth::Role::kAgencyOperator &&
      caller.agency_prefix != prefix) {
    return absl::PermissionDeniedError(
        "an agency exports only its own records");
  }
  if (year < 2000 || year > 2099)
    return absl::InvalidArgumentError("year must be 2000..2099");
  GORANK_RETURN_IF_ERROR(registry_->GetAgency(prefix).status());
  GORANK_RETURN_IF_ERROR(SettleDueNotices());
  CertificateFilter f;
  f.agency_prefix = prefix;
  f.year = year;
  f.limit = kMaxSerial;
  GORANK_ASSIGN_OR_RETURN(std::vector<Certificate> certs,
                          certs_->ListCertificates(f));
  std::vector<HolderRow> rows;
  const int64_t now = clock_->NowSeconds();
  for (Certificate& c : certs) {
    GORANK_ASSIGN_OR_RETURN(registry::Player p,
                            registry_->GetPlayer(c.player_id));
    const CertificateState state = StateAt(c, now);
    rows.push_back(HolderRow{std::move(c), state,
                             registry::PlayerRegistry::Redact(caller, p)});
  }
  return rows;
}

}  // namespace gorank::certificates
