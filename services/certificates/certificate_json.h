// JSON texts of certificate-module values for the audit log.
#ifndef GORANK_SERVICES_CERTIFICATES_CERTIFICATE_JSON_H_
#define GORANK_SERVICES_CERTIFICATES_CERTIFICATE_JSON_H_

#include <string>

#include "services/certificates/certificate.h"

namespace gorank::certificates {

std::string CertificateJson(const Certificate& c);
std::string ObjectionJson(const Objection& o);
std::string AppraisalJson(const Appraisal& a);
std::string StockOrderJson(const StockOrder& s);

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_CERTIFICATE_JSON_H_
