// gRPC handlers of certificates.proto (CertificateService): convert, one
// Certification call through the CallGate, convert back.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_

#include "gorank/v1/certificates.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/certificates/certification.h"
#include "services/common/rpc_method.h"

namespace gorank::certificates {

// Does not own its collaborators.
class CertificateServiceImpl final : public v1::CertificateService::Service {
 public:
  CertificateServiceImpl(CallGate* gate, Certification* office,
                         const Clock* clock)
      : gate_(gate), office_(office), clock_(clock) {}

  GORANK_RPC(IssueCertificate);
  GORANK_RPC(GetCertificate);
  GORANK_RPC(ListCertificates);
  GORANK_RPC(RevokeCertificate);
  GORANK_RPC(LodgeObjection);
  GORANK_RPC(DecideObjection);
  GORANK_RPC(ListNotices);
  GORANK_RPC(ListObjections);
  GORANK_RPC(RecommendAppraisal);
  GORANK_RPC(DecideAppraisal);
  GORANK_RPC(ListAppraisals);
  GORANK_RPC(OrderStock);
  GORANK_RPC(ReleaseStock);
  GORANK_RPC(GetStock);
  GORANK_RPC(VerifyCertificate);
  GORANK_RPC(LookupRank);
  GORANK_RPC(ExportHolders);
  // The file's rows in messages of at most 1,000 (options in the first
  // message only: INVALID_ARGUMENT in a later one); each message passes the
  // request limits; more than 200,000 rows is RESOURCE_EXHAUSTED.
  grpc::Status ImportCertificates(
      grpc::ServerContext* ctx,
      grpc::ServerReader<v1::ImportCertificatesRequest>* reader,
      v1::ImportCertificatesResponse* resp) override;

 private:
  CallGate* gate_;
  Certification* office_;
  const Clock* clock_;
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_
