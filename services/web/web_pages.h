// The bodies of the public web page's HTML pages, rendered from the gRPC
// answers (gorank.v1 certificate messages) into escaped, UTF-8 HTML in one
// language. The caller wraps a body with RenderPage (html.h). Pure
// functions; thread-safe.
#ifndef GORANK_SERVICES_WEB_WEB_PAGES_H_
#define GORANK_SERVICES_WEB_WEB_PAGES_H_

#include <string>

#include "gorank/v1/certificates.pb.h"
#include "services/web/html.h"

namespace gorank::web {

// The verification form (with `number` and `name` filled in, escaped), the
// rank-lookup form and the link to the notices.
std::string HomeBody(Lang lang, const std::string& number,
                     const std::string& name);

// The VerifyCertificate answer: outcome, and for anything but NOT_VALID the
// masked holder, grade, date of issue, agency, number and notice end.
// NOT_VALID shows only the one NOT_VALID text. Followed by the form.
std::string VerifyBody(Lang lang, const v1::VerifyCertificateResponse& answer);

// The LookupRank answer for `name`: each player's name, region, rank and
// effective / under-notice certificates. Followed by the lookup form.
std::string LookupBody(Lang lang, const std::string& name,
                       const v1::LookupRankResponse& answer);

// The notices (at most `max_shown` of them, then a note), each with a form
// that POSTs an objection to /objections, carrying `form_token` (form_guard.h)
// in a hidden field.
std::string NoticesBody(Lang lang, const v1::ListNoticesResponse& answer,
                        int max_shown, const std::string& form_token);

// The LodgeObjection answer: number, objection id and state.
std::string ObjectionBody(Lang lang, const v1::LodgeObjectionResponse& answer);

// A refused request: the gRPC code name and the server's message.
std::string ErrorBody(Lang lang, const std::string& code_name,
                      const std::string& message);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_WEB_PAGES_H_
