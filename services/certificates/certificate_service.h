// gRPC handlers of certificates.proto (CertificateService): convert, one
// Certification call through the CallGate, convert back.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_

#include "gorank/v1/certificates.grpc.pb.h"
#include "services/certificates/certification.h"
#include "services/common/call_gate.h"

namespace gorank::certificates {

// Does not own its collaborators.
class CertificateServiceImpl final : public v1::CertificateService::Service {
 public:
  CertificateServiceImpl(CallGate* gate, Certification* office, const Clock* clock)
      : gate_(gate), office_(office), clock_(clock) {}

#define GORANK_RPC(name)                                              \
  grpc::Status name(grpc::ServerContext* ctx, const v1::name##Request* req, \
                    v1::name##Response* resp) override
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
#undef GORANK_RPC

 private:
  CallGate* gate_;
  Certification* office_;
  const Clock* clock_;
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_SERVICE_H_
