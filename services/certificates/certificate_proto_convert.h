// Conversions between certificate-module values and gorank.v1 messages.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_PROTO_CONVERT_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/certificates.pb.h"
#include "services/auth/caller.h"
#include "services/certificates/certificate.h"
#include "services/certificates/certification.h"

namespace gorank::certificates {

absl::StatusOr<Basis> BasisFromProto(v1::CertificateBasis b);
void CertificateToProto(const Certificate& c, CertificateState state,
                        v1::Certificate* out);
void ObjectionToProto(const auth::Caller& caller, const Objection& o,
                      v1::Objection* out);
void AppraisalToProto(const Appraisal& a, v1::Appraisal* out);
void StockToProto(const StockOrder& s, v1::StockOrder* out);
void VerifyToProto(const VerifyResult& r, v1::VerifyCertificateResponse* out);
void PublicEntryToProto(const PublicRankEntry& e, int64_t now,
                        v1::PublicRankEntry* out);
void HolderToProto(const HolderRow& row, v1::HolderRecord* out);

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_PROTO_CONVERT_H_
