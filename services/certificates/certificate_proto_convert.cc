#include "services/certificates/certificate_proto_convert.h"

#include "services/certificates/certificate_rules.h"
#include "services/common/common_proto_convert.h"
#include "services/registry/common_proto_convert.h"

namespace gorank::certificates {

using gorank::DateToProto;
using registry::DisciplineToProto;
using registry::RankToProto;

absl::StatusOr<Basis> BasisFromProto(v1::CertificateBasis b) {
  switch (b) {
    case v1::CERTIFICATE_BASIS_TOURNAMENT:
      return Basis::kTournament;
    case v1::CERTIFICATE_BASIS_APPRAISAL:
      return Basis::kAppraisal;
    case v1::CERTIFICATE_BASIS_RATING_PROMOTION:
      return Basis::kRatingPromotion;
    case v1::CERTIFICATE_BASIS_HONORARY_AWARD:
      return Basis::kHonoraryAward;
    default:
      return absl::InvalidArgumentError(
          "basis is required: TOURNAMENT, RATING_PROMOTION or HONORARY_AWARD "
          "(APPRAISAL comes from DecideAppraisal)");
  }
}

void CertificateToProto(const Certificate& c, CertificateState state,
                        v1::Certificate* out) {
  out->set_number(c.number.ToString());
  out->set_player_id(c.player_id.value);
  RankToProto(c.grade, out->mutable_grade());
  DateToProto(c.issue_date, out->mutable_issue_date());
  out->set_basis(static_cast<v1::CertificateBasis>(static_cast<int>(c.basis)));
  out->set_basis_reference(c.basis_reference);
  out->set_agency_prefix(c.number.prefix);
  out->set_state(static_cast<v1::CertificateState>(static_cast<int>(state)));
  out->set_notice_until_unix(c.notice_until_unix);
  out->set_revoked_unix(c.revoked_unix);
  out->set_revoke_reason(c.revoke_reason);
  out->set_correction_reason(c.correction_reason);
  out->set_issued_by(c.issued_by);
  out->set_issued_unix(c.issued_unix);
  out->set_request_id(c.request_id);
  out->set_discipline(DisciplineToProto(c.grade.discipline()));
  out->set_imported(c.imported);
}

void ObjectionToProto(const auth::Caller& caller, const Objection& o,
                      v1::Objection* out) {
  out->set_id(o.id);
  out->set_number(o.number.ToString());
  out->set_text(o.text);
  if (caller.IsNational() || caller.IsAuditor()) out->set_contact(o.contact);
  out->set_lodged_unix(o.lodged_unix);
  out->set_state(static_cast<v1::ObjectionState>(static_cast<int>(o.state)));
  out->set_decision_note(o.decision_note);
  out->set_decided_unix(o.decided_unix);
  out->set_holder_name(o.holder_name);
  out->set_holder_agency_prefix(o.holder_agency_prefix);
  if (o.grade) RankToProto(*o.grade, out->mutable_grade());
}

void AppraisalToProto(const Appraisal& a, v1::Appraisal* out) {
  out->set_id(a.id);
  out->set_player_id(a.player_id.value);
  RankToProto(a.grade, out->mutable_grade());
  out->set_agency_prefix(a.agency_prefix);
  out->set_note(a.note);
  out->set_state(static_cast<v1::AppraisalState>(static_cast<int>(a.state)));
  out->set_decision_note(a.decision_note);
  out->set_certificate_number(a.certificate_number);
  out->set_recommended_unix(a.recommended_unix);
}

void StockToProto(const StockOrder& s, v1::StockOrder* out) {
  out->set_agency_prefix(s.agency_prefix);
  out->set_year(s.year);
  out->set_quantity(s.quantity);
  out->set_ordered_unix(s.ordered_unix);
  out->set_released_unix(s.released_unix);
  out->set_used(s.used);
}

void VerifyToProto(const VerifyResult& r, v1::VerifyCertificateResponse* out) {
  switch (r.outcome) {
    case VerifyOutcome::kNotValid:
      out->set_outcome(v1::VERIFY_OUTCOME_NOT_VALID);
      return;
    case VerifyOutcome::kValid:
      out->set_outcome(v1::VERIFY_OUTCOME_VALID);
      break;
    case VerifyOutcome::kUnderNotice:
      out->set_outcome(v1::VERIFY_OUTCOME_UNDER_NOTICE);
      break;
    case VerifyOutcome::kRevoked:
      out->set_outcome(v1::VERIFY_OUTCOME_REVOKED);
      break;
  }
  out->set_number(r.number);
  if (r.grade) RankToProto(*r.grade, out->mutable_grade());
  if (r.issue_date) DateToProto(*r.issue_date, out->mutable_issue_date());
  out->set_agency_prefix(r.agency_prefix);
  out->set_agency_name(r.agency_name);
  out->set_masked_holder_name(r.masked_holder);
  out->set_notice_until_unix(r.notice_until_unix);
  if (r.grade) out->set_discipline(DisciplineToProto(r.grade->discipline()));
}

void PublicEntryToProto(const PublicRankEntry& e, int64_t now,
                        v1::PublicRankEntry* out) {
  out->set_name(e.name);
  out->set_latin_name(e.latin_name);
  out->set_agency_prefix(e.agency_prefix);
  out->set_region(e.region);
  if (e.rank) RankToProto(*e.rank, out->mutable_rank());
  if (e.gomoku_rank) RankToProto(*e.gomoku_rank, out->mutable_gomoku_rank());
  for (const auto* list : {&e.effective, &e.under_notice}) {
    for (const Certificate& c : *list) {
      auto* pc = out->add_certificates();
      pc->set_number(e.numbers_masked ? MaskNumber(c.number)
                                      : c.number.ToString());
      RankToProto(c.grade, pc->mutable_grade());
      DateToProto(c.issue_date, pc->mutable_issue_date());
      pc->set_state(
          static_cast<v1::CertificateState>(static_cast<int>(StateAt(c, now))));
      pc->set_notice_until_unix(c.notice_until_unix);
      pc->set_discipline(DisciplineToProto(c.grade.discipline()));
    }
  }
}

void HolderToProto(const HolderRow& row, v1::HolderRecord* out) {
  CertificateToProto(row.certificate, row.state, out->mutable_certificate());
  out->set_name(row.holder.name);
  out->set_latin_name(row.holder.latin_name);
  out->set_gender(static_cast<v1::Gender>(static_cast<int>(row.holder.gender)));
  if (row.holder.birth_date)
    DateToProto(*row.holder.birth_date, out->mutable_birth_date());
  out->set_home_agency_prefix(row.holder.agency_prefix);
  out->set_resident_id(row.holder.resident_id);
}

}  // namespace gorank::certificates
