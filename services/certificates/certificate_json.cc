#include "services/certificates/certificate_json.h"

#include "nlohmann/json.hpp"
#include "services/certificates/certificate_rules.h"

namespace gorank::certificates {

std::string CertificateJson(const Certificate& c) {
  nlohmann::json j{{"number", c.number.ToString()},
                   {"player_id", c.player_id.value},
                   {"grade", c.grade.ToString()},
                   {"issue_date", c.issue_date.ToString()},
                   {"basis", BasisName(c.basis)},
                   {"basis_reference", c.basis_reference},
                   {"notice_until_unix", c.notice_until_unix},
                   {"rank_applied", c.rank_applied},
                   {"revoked_unix", c.revoked_unix},
                   {"revoke_reason", c.revoke_reason},
                   {"correction_reason", c.correction_reason},
                   {"request_id", c.request_id}};
  // Go certificates keep the shape they had before Gomoku existed.
  if (c.grade.IsGomoku())
    j["discipline"] = registry::DisciplineName(c.grade.discipline());
  return j.dump();
}

std::string ObjectionJson(const Objection& o) {
  return nlohmann::json{{"id", o.id},
                        {"number", o.number.ToString()},
                        {"text", o.text},
                        {"contact", o.contact},
                        {"state", static_cast<int>(o.state)},
                        {"decision_note", o.decision_note}}
      .dump();
}

std::string AppraisalJson(const Appraisal& a) {
  return nlohmann::json{{"id", a.id},
                        {"player_id", a.player_id.value},
                        {"grade", a.grade.ToString()},
                        {"agency_prefix", a.agency_prefix},
                        {"note", a.note},
                        {"state", static_cast<int>(a.state)},
                        {"decision_note", a.decision_note},
                        {"certificate_number", a.certificate_number}}
      .dump();
}

std::string StockOrderJson(const StockOrder& s) {
  return nlohmann::json{{"agency_prefix", s.agency_prefix},
                        {"year", s.year},
                        {"quantity", s.quantity},
                        {"released_unix", s.released_unix}}
      .dump();
}

}  // namespace gorank::certificates
