// Certificates anyone can check (issue #21 item 5), a page module of the web
// page (site.h):
//   GET /verify?s=GR1...[&name=NAME]   the statement the printed QR code
//       carries (certificate_statement.h): its signature checked against the
//       federation key, the issuance's inclusion proof against the latest
//       signed checkpoint, the signed revocation list, and with the holder's
//       name the current state from VerifyCertificate (the old answer)
//   GET /api/v1/verify?s=...            its JSON twin
//   GET /.well-known/gorank/federation.pub   the federation key (PEM)
//   GET /.well-known/gorank/checkpoint.json  the latest signed checkpoint
//       (also /api/v1/checkpoint)            (the JSON auditors keep)
//   GET /.well-known/gorank/revocations.json the signed revocation list
//       (also /api/v1/revocations)           (the file verify-offline reads)
// Everything comes from public AuditService and CertificateService calls for
// the visitor: the page shows what the statement says (the visitor holds it),
// never the holder's name or any other certificate of the holder.
#ifndef GORANK_SERVICES_WEB_STATEMENT_PAGE_H_
#define GORANK_SERVICES_WEB_STATEMENT_PAGE_H_

#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>

#include "gorank/v1/certificates.pb.h"
#include "services/audit/certificate_statement.h"
#include "services/web/html.h"
#include "services/web/site.h"

namespace gorank::web {

// What the checks found, for rendering. Value type.
struct StatementView {
  audit::CertificateStatement statement;
  audit::StatementCheck signature = audit::StatementCheck::kBadSignature;
  std::string federation_key_id;
  // The inclusion proof of the issuance entry (only for a valid signature
  // and a statement that names its entry).
  bool proof_checked = false;
  bool proof_ok = false;
  std::string proof_reason;  // why not, when !proof_ok
  int64_t tree_size = 0;
  std::string root_hex;
  int64_t checkpoint_unix = 0;
  // The signed revocation list (valid signature only).
  bool revocations_checked = false;
  bool revoked = false;
  int64_t revoked_unix = 0;
  int64_t revocations_tree_size = 0;
  // With ?name=: the digest comparison and VerifyCertificate's answer.
  bool name_given = false;
  bool name_matches = false;
  std::optional<v1::VerifyCertificateResponse> verify;
};

// The page body (escaped HTML): #statement-signature (data-signature
// "valid", "invalid" or "wrong-key"), #statement (table), #inclusion,
// #revocation (data-revoked; #revoked-date), #state (with a name:
// #name-check with data-matches, and #outcome), and the name form.
std::string StatementBody(Lang lang, const StatementView& v,
                          const std::string& statement_text);
// The JSON twin's object.
std::string StatementJson(const StatementView& v);

// Serves /verify and /api/v1/verify when the request has an "s" parameter;
// false (nothing done) otherwise. Called by WebServer's /verify routes.
bool ServeStatementVerify(const httplib::Request& req, httplib::Response& res,
                          const Site& site);

// When `number` was revoked, from the signed revocation list
// (AuditService.GetRevocationList for the visitor); nullopt when the list
// cannot be read or does not name `number`.
std::optional<int64_t> RevokedUnix(const httplib::Request& req,
                                   const Site& site, const std::string& number);

// The JSON twin of the verify answer by number and name (GET
// /api/v1/verify?number=&name=): VerifyCertificateResponse as protobuf JSON
// (proto field names) and, for the outcome REVOKED, "revoked_unix" and
// "revoked_date" (YYYY-MM-DD, Asia/Shanghai) from RevokedUnix; those two are
// absent when the list cannot be read.
std::string VerifyJson(const httplib::Request& req, const Site& site,
                       const v1::VerifyCertificateResponse& resp);

// For the verify page's answer REVOKED (number and name, no statement):
// "revoked on DATE" (#revoked-date) from the signed revocation list, as
// escaped HTML; "" when the list cannot be read or does not name `number`.
std::string RevokedDateNote(const httplib::Request& req, const Site& site,
                            const std::string& number);

// Registers the key, checkpoint and revocation routes; `site` must outlive
// `http`.
void InstallStatementPages(httplib::Server& http, Site& site);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_STATEMENT_PAGE_H_
