// gRPC handlers of eligibility.proto (EligibilityService): convert, one
// GradeDesk call through the CallGate, convert back. Grades are public
// results (the standard is public, and so are the events and dan ranks they
// rest on), so every role may call these RPCs.
#ifndef GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_SERVICE_H_
#define GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_SERVICE_H_

#include "gorank/v1/eligibility.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/common/rpc_method.h"
#include "services/eligibility/grade_desk.h"

namespace gorank::eligibility {

// Thread-safe. Does not own its collaborators.
class EligibilityServiceImpl final : public v1::EligibilityService::Service {
 public:
  EligibilityServiceImpl(CallGate* gate, GradeDesk* desk)
      : gate_(gate), desk_(desk) {}

  GORANK_RPC(EvaluatePlayer);
  GORANK_RPC(EvaluateEvent);
  GORANK_RPC(GetGradeStandard);

 private:
  CallGate* gate_;
  GradeDesk* desk_;
};

}  // namespace gorank::eligibility

#endif  // GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_SERVICE_H_
