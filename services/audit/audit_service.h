// gRPC handlers of audit.proto (AuditService): checkpoints, entries and
// proofs, the table check, annual reports and reviews, and backups.
#ifndef GORANK_SERVICES_AUDIT_AUDIT_SERVICE_H_
#define GORANK_SERVICES_AUDIT_AUDIT_SERVICE_H_

#include <string>

#include "gorank/v1/audit.grpc.pb.h"
#include "services/audit/annual_report.h"
#include "services/audit/audit_trail.h"
#include "services/audit/statement_desk.h"
#include "services/auth/call_gate.h"
#include "services/common/rpc_method.h"

namespace gorank::audit {

// Does not own its collaborators. Backups are written to `scratch_dir`
// (beside the database) and removed once sent.
class AuditServiceImpl final : public v1::AuditService::Service {
 public:
  AuditServiceImpl(CallGate* gate, AuditTrail* trail, Reporting* reporting,
                   std::string scratch_dir)
      : gate_(gate),
        trail_(trail),
        reporting_(reporting),
        scratch_dir_(std::move(scratch_dir)) {}

  // The statements and the revocation list (not owned; outlives this).
  void SetStatementDesk(StatementDesk* desk) { statements_ = desk; }

  GORANK_RPC(GetCheckpoint);
  GORANK_RPC(GetEntries);
  GORANK_RPC(GetInclusionProof);
  GORANK_RPC(GetConsistencyProof);
  GORANK_RPC(VerifyTables);
  GORANK_RPC(GetAnnualReport);
  GORANK_RPC(GetNationalSummary);
  GORANK_RPC(RecordReview);
  GORANK_RPC(ListReviews);
  // FAILED_PRECONDITION until SetStatementDesk was called.
  GORANK_RPC(GetCertificateStatement);
  GORANK_RPC(GetRevocationList);
  grpc::Status Backup(grpc::ServerContext* ctx, const v1::BackupRequest* req,
                      grpc::ServerWriter<v1::BackupChunk>* writer) override;

 private:
  CallGate* gate_;
  AuditTrail* trail_;
  Reporting* reporting_;
  std::string scratch_dir_;
  StatementDesk* statements_ = nullptr;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_AUDIT_SERVICE_H_
