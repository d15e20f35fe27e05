// Conversions between the eligibility domain and gorank.v1 messages
// (eligibility.proto). Request-side conversions validate and return
// INVALID_ARGUMENT naming the field; answer-side conversions cannot fail.
#ifndef GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_PROTO_CONVERT_H_
#define GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/eligibility.pb.h"
#include "services/eligibility/eligibility.h"

namespace gorank::eligibility {

absl::StatusOr<EventPlacing> PlacingFromProto(const v1::EventPlacing& p);
void EvaluationToProto(const GradeStandard& standard, const PlayerEvaluation& e,
                       v1::EvaluatePlayerResponse* out);
void EventEvaluationToProto(const GradeStandard& standard,
                            const EventEvaluation& e,
                            v1::EvaluateEventResponse* out);

}  // namespace gorank::eligibility

#endif  // GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_PROTO_CONVERT_H_
