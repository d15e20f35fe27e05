#include "services/eligibility/eligibility_service.h"

#include "services/common/status_macros.h"
#include "services/eligibility/eligibility_proto_convert.h"
#include "services/registry/player_registry.h"

namespace gorank::eligibility {
namespace {

std::string M(const char* method) {
  return MethodName(v1::EligibilityService::service_full_name(), method);
}

// Public-data policy (README): the public sees a holder's certificate
// numbers as prefix and year only (PPPYY****), here as in LookupRank.
void MaskForThePublic(v1::GradeBasis* b, std::string* text) {
  if (b->has_certificate()) {
    b->mutable_certificate()->set_number(
        registry::MaskCertificateNumbers(b->certificate().number()));
  }
  *text = registry::MaskCertificateNumbers(*text);
}

void MaskForThePublic(v1::EvaluatePlayerResponse* resp) {
  for (v1::GradeGrant& g : *resp->mutable_grants()) {
    MaskForThePublic(g.mutable_basis(), g.mutable_explanation());
  }
  for (v1::NearMiss& m : *resp->mutable_near_misses()) {
    MaskForThePublic(m.mutable_basis(), m.mutable_reason());
    for (std::string& r : *m.mutable_reasons())
      r = registry::MaskCertificateNumbers(r);
  }
}

}  // namespace

using auth::Caller;

grpc::Status EligibilityServiceImpl::EvaluatePlayer(
    grpc::ServerContext* ctx, const v1::EvaluatePlayerRequest* req,
    v1::EvaluatePlayerResponse* resp) {
  return gate_->Run(
      ctx, M("EvaluatePlayer"), *req,
      [&](const Caller& caller) -> absl::Status {
        std::vector<EventPlacing> extra;
        for (const v1::EventPlacing& p : req->extra_placings()) {
          GORANK_ASSIGN_OR_RETURN(EventPlacing placing, PlacingFromProto(p));
          extra.push_back(placing);
        }
        GORANK_ASSIGN_OR_RETURN(
            PlayerEvaluation e,
            desk_->EvaluatePlayer(registry::PlayerId{req->player_id()}, extra));
        EvaluationToProto(desk_->standard(), e, resp);
        if (caller.role == auth::Role::kPublic) MaskForThePublic(resp);
        return absl::OkStatus();
      });
}

grpc::Status EligibilityServiceImpl::EvaluateEvent(
    grpc::ServerContext* ctx, const v1::EvaluateEventRequest* req,
    v1::EvaluateEventResponse* resp) {
  return gate_->Run(
      ctx, M("EvaluateEvent"), *req, [&](const Caller&) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            EventEvaluation e,
            desk_->EvaluateEvent(tournaments::EventId{req->event_id()}));
        EventEvaluationToProto(desk_->standard(), e, resp);
        return absl::OkStatus();
      });
}

grpc::Status EligibilityServiceImpl::GetGradeStandard(
    grpc::ServerContext* ctx, const v1::GetGradeStandardRequest* req,
    v1::GetGradeStandardResponse* resp) {
  return gate_->Run(ctx, M("GetGradeStandard"), *req,
                    [&](const Caller&) -> absl::Status {
                      resp->set_standard_tsv(GradeStandard::DefaultText());
                      return absl::OkStatus();
                    });
}

}  // namespace gorank::eligibility
