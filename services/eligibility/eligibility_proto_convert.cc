#include "services/eligibility/eligibility_proto_convert.h"

#include "services/common/common_proto_convert.h"
#include "services/common/status_macros.h"
#include "services/registry/common_proto_convert.h"
#include "services/tournaments/tournament_proto_convert.h"

namespace gorank::eligibility {
namespace {

v1::AthleteGrade GradeToProto(Grade g) {
  return static_cast<v1::AthleteGrade>(g);
}

void PlacingToProto(const EventPlacing& p, v1::EventPlacing* out) {
  out->set_event_id(p.event_id.value);
  out->set_event_name(p.event_name);
  out->set_competition(p.competition);
  out->set_group(p.group);
  out->set_highest_group(p.highest_group);
  out->set_sub_event(tournaments::SubEventToProto(p.sub_event));
  if (p.end.IsValid()) gorank::DateToProto(p.end, out->mutable_end());
  out->set_place(p.place);
  out->set_shared(p.shared);
  out->set_pending(p.pending);
  out->set_entrants_played(p.entrants_played);
}

void BasisToProto(const Basis& b, v1::GradeBasis* out) {
  if (b.placing) PlacingToProto(*b.placing, out->mutable_placing());
  if (b.certificate) {
    v1::DanCertificate* c = out->mutable_certificate();
    c->set_number(b.certificate->number);
    registry::RankToProto(b.certificate->rank, c->mutable_rank());
    c->set_by_appraisal(b.certificate->by_appraisal);
    c->set_effective(b.certificate->effective);
  }
}

void GrantToProto(const GradeStandard& standard, const GradeGrant& g,
                  v1::GradeGrant* out) {
  out->set_grade(GradeToProto(g.grade));
  const GradeInfo& info = standard.Info(g.grade);
  out->set_grade_name_en(info.name_en);
  out->set_grade_name_zh(info.name_zh);
  out->set_clause(g.clause);
  BasisToProto(g.basis, out->mutable_basis());
  out->set_explanation(g.explanation);
}

}  // namespace

absl::StatusOr<EventPlacing> PlacingFromProto(const v1::EventPlacing& p) {
  EventPlacing out;
  out.event_id = tournaments::EventId{p.event_id()};
  out.event_name = p.event_name();
  out.competition = p.competition();
  out.group = p.group();
  out.highest_group = p.highest_group();
  if (!v1::SubEvent_IsValid(p.sub_event())) {
    return absl::InvalidArgumentError(
        "extra_placings.sub_event: unknown value");
  }
  out.sub_event = static_cast<tournaments::SubEvent>(p.sub_event());
  GORANK_ASSIGN_OR_RETURN(auto end,
                          gorank::DateFromProto(p.end(), "extra_placings.end"));
  out.end = end.value_or(Date{});
  if (p.place() < 1)
    return absl::InvalidArgumentError("extra_placings.place must be 1 or more");
  if (p.entrants_played() < 0) {
    return absl::InvalidArgumentError(
        "extra_placings.entrants_played must not be negative");
  }
  out.place = p.place();
  out.shared = p.shared();
  out.pending = p.pending();
  out.entrants_played = p.entrants_played();
  return out;
}

void EvaluationToProto(const GradeStandard& standard, const PlayerEvaluation& e,
                       v1::EvaluatePlayerResponse* out) {
  for (const GradeGrant& g : e.grants)
    GrantToProto(standard, g, out->add_grants());
  for (const NearMiss& m : e.near_misses) {
    v1::NearMiss* p = out->add_near_misses();
    p->set_grade(m.grade ? GradeToProto(*m.grade)
                         : v1::ATHLETE_GRADE_UNSPECIFIED);
    p->set_clause(m.clause);
    BasisToProto(m.basis, p->mutable_basis());
    p->set_reason(m.reason);
    for (const std::string& r : m.reasons) p->add_reasons(r);
  }
}

void EventEvaluationToProto(const GradeStandard& standard,
                            const EventEvaluation& e,
                            v1::EvaluateEventResponse* out) {
  for (const EntrantGrants& q : e.qualifying) {
    v1::EntrantGrants* p = out->add_qualifying();
    p->set_id(q.id);
    p->set_name(q.name);
    for (registry::PlayerId id : q.player_ids) p->add_player_ids(id.value);
    p->set_place(q.place);
    for (const GradeGrant& g : q.grants)
      GrantToProto(standard, g, p->add_grants());
  }
  for (const std::string& b : e.blockers) out->add_blockers(b);
}

}  // namespace gorank::eligibility
