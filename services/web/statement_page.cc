#include "services/web/statement_page.h"

#include <memory>
#include <nlohmann/json.hpp>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "services/audit/checkpoint.h"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "services/audit/revocation_list.h"
#include "services/audit/signing_key.h"
#include "services/registry/rank.h"
#include "services/web/statement_texts.h"

namespace gorank::web {
namespace {

using httplib::Request;
using httplib::Response;

const StatementTexts& T(Lang lang) { return StatementTextsFor(lang); }

std::string E(const std::string& s) { return HtmlEscape(s); }

// `pattern` with %1.. replaced by the (already escaped) arguments.
std::string Fill(const char* pattern, std::initializer_list<std::string> args) {
  std::string out = pattern;
  int i = 1;
  for (const std::string& a : args) {
    const std::string mark = "%" + std::to_string(i++);
    const size_t at = out.find(mark);
    if (at != std::string::npos) out.replace(at, mark.size(), a);
  }
  return out;
}

std::string Row(const char* label, const std::string& value_html) {
  return "<tr><th scope=\"row\">" + E(label) + "</th><td>" + value_html +
         "</td></tr>";
}

const char* SignatureCode(audit::StatementCheck c) {
  switch (c) {
    case audit::StatementCheck::kValid:
      return "valid";
    case audit::StatementCheck::kWrongKey:
      return "wrong-key";
    case audit::StatementCheck::kBadSignature:
      break;
  }
  return "invalid";
}

std::string OutcomeText(Lang lang, v1::VerifyOutcome o) {
  const StatementTexts& t = T(lang);
  switch (o) {
    case v1::VERIFY_OUTCOME_VALID:
      return t.valid;
    case v1::VERIFY_OUTCOME_UNDER_NOTICE:
      return t.under_notice;
    case v1::VERIFY_OUTCOME_REVOKED:
      return t.state_revoked;
    default:
      return t.not_valid;
  }
}

std::string NameForm(Lang lang, const std::string& text) {
  const StatementTexts& t = T(lang);
  return "<form id=\"statement-name-form\" method=\"get\" action=\"/verify\">"
         "<input type=\"hidden\" name=\"lang\" value=\"" +
         std::string(LangCode(lang)) +
         "\"><input type=\"hidden\" name=\"s\" value=\"" + E(text) + "\"><p>" +
         E(t.name_hint) + "</p><label for=\"statement-name\">" +
         E(t.name_label) +
         "</label> <input id=\"statement-name\" name=\"name\" maxlength=\"60\" "
         "autocomplete=\"off\"> <button type=\"submit\">" +
         E(t.check) + "</button></form>";
}

// The checks behind the page and its JSON twin; a Refusal when a call fails
// or the statement is malformed.
Refusal Check(const Request& req, const Site& site, StatementView* v) {
  const Lang lang = LangOf(req);
  absl::StatusOr<audit::ParsedStatement> parsed =
      audit::ParseStatement(req.get_param_value("s"));
  if (!parsed.ok()) {
    return Refusal{
        absl::StatusCode::kInvalidArgument,
        std::string(T(lang).malformed) + std::string(parsed.status().message()),
        0};
  }
  v->statement = parsed->statement;
  auto audit_stub = v1::AuditService::NewStub(site.channel());
  v1::GetCheckpointResponse cp;
  if (Refusal r = site.Call(req, audit_stub.get(),
                            &v1::AuditService::Stub::GetCheckpoint,
                            v1::GetCheckpointRequest(), &cp);
      !r.ok()) {
    return r;
  }
  absl::StatusOr<audit::VerifyingKey> key =
      audit::VerifyingKey::FromRaw(cp.public_key());
  if (!key.ok()) return FromStatus(key.status());
  v->federation_key_id = key->KeyId();
  v->signature = audit::CheckStatement(*parsed, *key);
  const std::string name = req.get_param_value("name");
  v->name_given = !name.empty();
  v->name_matches = v->name_given && audit::NameMatches(v->statement, name);
  if (v->signature != audit::StatementCheck::kValid) return Refusal{};

  const v1::Checkpoint& c = cp.checkpoint();
  v->tree_size = c.tree_size();
  v->root_hex = audit::HexEncode(c.root_hash());
  v->checkpoint_unix = c.time_unix();
  const int64_t index = v->statement.log_index;
  if (index >= 0) {
    v->proof_checked = true;
    audit::Checkpoint checkpoint{c.tree_size(), c.root_hash(), c.time_unix(),
                                 c.signature(), c.key_id()};
    audit::Verdict signed_cp = audit::VerifyCheckpoint(checkpoint, *key);
    v1::GetInclusionProofRequest preq;
    preq.set_index(index);
    preq.set_tree_size(c.tree_size());
    v1::GetInclusionProofResponse proof;
    Refusal r = index < c.tree_size()
                    ? site.Call(req, audit_stub.get(),
                                &v1::AuditService::Stub::GetInclusionProof,
                                preq, &proof)
                    : Refusal{absl::StatusCode::kOutOfRange,
                              "entry " + std::to_string(index) +
                                  " is beyond the checkpoint",
                              0};
    if (!signed_cp.ok) {
      v->proof_reason = signed_cp.reason;
    } else if (!r.ok()) {
      v->proof_reason = r.message;
    } else {
      std::vector<std::string> path(proof.path().begin(), proof.path().end());
      audit::Verdict in = audit::VerifyInclusion(
          proof.leaf_hash(), index, c.tree_size(), path, c.root_hash());
      v->proof_ok = in.ok;
      v->proof_reason = in.reason;
    }
  }

  v1::GetRevocationListResponse list;
  if (Refusal r = site.Call(req, audit_stub.get(),
                            &v1::AuditService::Stub::GetRevocationList,
                            v1::GetRevocationListRequest(), &list);
      !r.ok()) {
    return r;
  }
  absl::StatusOr<audit::RevocationList> rl =
      audit::RevocationList::FromJson(list.json());
  if (rl.ok() && audit::VerifyRevocationList(*rl, *key).ok) {
    v->revocations_checked = true;
    v->revocations_tree_size = rl->tree_size;
    if (auto found = rl->Find(v->statement.number)) {
      v->revoked = true;
      v->revoked_unix = found->revoked_unix;
    }
  }

  if (v->name_given) {
    auto certs = v1::CertificateService::NewStub(site.channel());
    v1::VerifyCertificateRequest vreq;
    vreq.set_number(v->statement.number);
    vreq.set_holder_name(name);
    v1::VerifyCertificateResponse vresp;
    if (Refusal r = site.Call(req, certs.get(),
                              &v1::CertificateService::Stub::VerifyCertificate,
                              vreq, &vresp);
        !r.ok()) {
      return r;
    }
    v->verify = vresp;
  }
  return Refusal{};
}

// The statement's grade for people ("业余1段", "5 kyu"), read with the
// registry's rank notation; a grade it cannot read is shown as written.
std::string GradeLabel(Lang lang, const audit::CertificateStatement& s) {
  const absl::StatusOr<registry::Rank> rank = registry::Rank::Parse(
      s.grade, s.discipline == "gomoku" ? registry::Discipline::kGomoku
                                        : registry::Discipline::kGo);
  if (!rank.ok()) return s.grade;
  return RankLabel(lang, static_cast<int>(rank->ladder()), rank->level(),
                   s.grade);
}

}  // namespace

std::string StatementBody(Lang lang, const StatementView& v,
                          const std::string& statement_text) {
  const StatementTexts& t = T(lang);
  const bool valid = v.signature == audit::StatementCheck::kValid;
  const char* sig_text = valid ? t.sig_valid
                         : v.signature == audit::StatementCheck::kWrongKey
                             ? t.sig_wrong_key
                             : t.sig_invalid;
  std::string body = "<section id=\"statement-result\"><h2>" + E(t.title) +
                     "</h2><p id=\"statement-signature\" class=\"" +
                     (valid ? "ok" : "bad") + "\" data-signature=\"" +
                     SignatureCode(v.signature) + "\">" + E(sig_text) + "</p>";
  if (!valid) return body + "</section>";
  const audit::CertificateStatement& s = v.statement;
  body += "<div class=\"scroll\" tabindex=\"0\" aria-label=\"" + E(t.caption) +
          "\"><table id=\"statement\"><caption>" + E(t.caption) +
          "</caption><tr><th scope=\"col\">" + E(t.field) +
          "</th><th scope=\"col\">" + E(t.value) + "</th></tr>";
  body +=
      Row(t.number, "<span id=\"statement-number\">" + E(s.number) + "</span>");
  body +=
      Row(t.grade, "<span id=\"statement-grade\" data-grade=\"" + E(s.grade) +
                       "\">" + E(GradeLabel(lang, s)) + "</span>");
  body += Row(t.discipline, E(s.discipline == "gomoku" ? t.gomoku : t.go));
  body += Row(t.issue_date,
              "<span id=\"statement-date\">" + E(s.issue_date) + "</span>");
  body += Row(t.agency, E(s.agency_prefix));
  body += Row(t.key, "<code>" + E(s.key_id) + "</code>");
  body += Row(t.entry, s.log_index >= 0 ? E(std::to_string(s.log_index))
                                        : E(t.no_entry));
  body += "</table></div></section>";

  body += "<section id=\"inclusion\" data-included=\"" +
          std::string(v.proof_ok ? "true" : "false") + "\"><h2>" +
          E(t.inclusion) + "</h2><p>";
  if (!v.proof_checked) {
    body += E(t.no_entry);
  } else if (v.proof_ok) {
    body +=
        Fill(t.included,
             {E(std::to_string(s.log_index)), E(std::to_string(v.tree_size)),
              "<code class=\"hash\">" + E(v.root_hex) + "</code>",
              E(ShanghaiDay(v.checkpoint_unix))});
  } else {
    body += E(t.not_included) + E(v.proof_reason);
  }
  body += "</p></section>";

  body += "<section id=\"revocation\" data-revoked=\"" +
          std::string(v.revoked ? "true" : "false") + "\"><h2>" +
          E(t.revocation) + "</h2><p class=\"" + (v.revoked ? "bad" : "ok") +
          "\">";
  if (v.revoked) {
    body += Fill(t.revoked, {"<span id=\"revoked-date\">" +
                             E(ShanghaiDay(v.revoked_unix)) + "</span>"});
  } else if (v.revocations_checked) {
    body += Fill(t.not_revoked, {E(std::to_string(v.revocations_tree_size))});
  }
  body += "</p></section>";

  body += "<section id=\"state\"><h2>" + E(t.state) + "</h2>";
  if (v.name_given) {
    body += "<p id=\"name-check\" data-matches=\"" +
            std::string(v.name_matches ? "true" : "false") + "\" class=\"" +
            (v.name_matches ? "ok" : "bad") + "\">" +
            E(v.name_matches ? t.name_matches : t.name_differs) + "</p>";
  }
  if (v.verify) {
    const v1::VerifyCertificateResponse& a = *v.verify;
    body += "<p id=\"outcome\" data-outcome=\"" +
            E(v1::VerifyOutcome_Name(a.outcome()).substr(15)) + "\">" +
            E(OutcomeText(lang, a.outcome()));
    if (!a.masked_holder_name().empty()) {
      body += " · " + E(a.masked_holder_name());
    }
    if (a.notice_until_unix() > 0) {
      body += " · " + E(ShanghaiDay(a.notice_until_unix()));
    }
    body += "</p>";
  }
  body += NameForm(lang, statement_text) + "</section>";
  return body;
}

std::string StatementJson(const StatementView& v) {
  const audit::CertificateStatement& s = v.statement;
  nlohmann::json j = {{"statement",
                       {{"number", s.number},
                        {"discipline", s.discipline},
                        {"grade", s.grade},
                        {"issue_date", s.issue_date},
                        {"agency_prefix", s.agency_prefix},
                        {"key_id", s.key_id},
                        {"log_index", s.log_index}}},
                      {"signature", SignatureCode(v.signature)},
                      {"federation_key_id", v.federation_key_id}};
  if (v.signature == audit::StatementCheck::kValid) {
    j["inclusion"] = {{"checked", v.proof_checked},
                      {"included", v.proof_ok},
                      {"reason", v.proof_reason},
                      {"tree_size", v.tree_size},
                      {"root_hash", v.root_hex},
                      {"checkpoint_time_unix", v.checkpoint_unix}};
    j["revocation"] = {{"checked", v.revocations_checked},
                       {"revoked", v.revoked},
                       {"revoked_unix", v.revoked_unix},
                       {"as_of_tree_size", v.revocations_tree_size}};
  }
  if (v.name_given) j["name_matches"] = v.name_matches;
  if (v.verify) {
    j["outcome"] = v1::VerifyOutcome_Name(v.verify->outcome()).substr(15);
    j["masked_holder_name"] = v.verify->masked_holder_name();
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<int64_t> RevokedUnix(const Request& req, const Site& site,
                                   const std::string& number) {
  auto stub = v1::AuditService::NewStub(site.channel());
  v1::GetRevocationListResponse list;
  if (!site.Call(req, stub.get(), &v1::AuditService::Stub::GetRevocationList,
                 v1::GetRevocationListRequest(), &list)
           .ok()) {
    return std::nullopt;
  }
  for (const v1::RevokedCertificate& r : list.revoked()) {
    if (r.number() == number) return r.revoked_unix();
  }
  return std::nullopt;
}

std::string VerifyJson(const Request& req, const Site& site,
                       const v1::VerifyCertificateResponse& resp) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(resp, &out, opts);
  if (resp.outcome() != v1::VERIFY_OUTCOME_REVOKED) return out;
  const std::optional<int64_t> at = RevokedUnix(req, site, resp.number());
  if (!at) return out;
  nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
  if (j.is_discarded()) return out;
  j["revoked_unix"] = *at;
  j["revoked_date"] = ShanghaiDay(*at);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string RevokedDateNote(const Request& req, const Site& site,
                            const std::string& number) {
  const std::optional<int64_t> at = RevokedUnix(req, site, number);
  if (!at) return "";
  return "<p id=\"revocation\" class=\"bad\" data-revoked=\"true\">" +
         Fill(T(LangOf(req)).revoked, {"<span id=\"revoked-date\">" +
                                       E(ShanghaiDay(*at)) + "</span>"}) +
         "</p>";
}

bool ServeStatementVerify(const Request& req, Response& res, const Site& site) {
  if (!req.has_param("s")) return false;
  StatementView v;
  if (Refusal r = Check(req, site, &v); !r.ok()) {
    site.Refuse(req, res, r);
    return true;
  }
  if (IsApi(req)) {
    site.JsonText(res, StatementJson(v));
  } else {
    const Lang lang = LangOf(req);
    site.Html(req, res, 200, T(lang).title,
              StatementBody(lang, v, req.get_param_value("s")),
              /*cacheable=*/false);
  }
  return true;
}

namespace {

// The latest signed checkpoint (with the federation's public key).
Refusal LoadCheckpoint(const Site& site, const Request& req,
                       v1::GetCheckpointResponse* cp) {
  auto stub = v1::AuditService::NewStub(site.channel());
  return site.Call(req, stub.get(), &v1::AuditService::Stub::GetCheckpoint,
                   v1::GetCheckpointRequest(), cp);
}

void ServeKey(const Site& site, const Request& req, Response& res) {
  v1::GetCheckpointResponse cp;
  if (Refusal r = LoadCheckpoint(site, req, &cp); !r.ok())
    return site.Refuse(req, res, r);
  absl::StatusOr<audit::VerifyingKey> key =
      audit::VerifyingKey::FromRaw(cp.public_key());
  if (!key.ok()) return site.Refuse(req, res, FromStatus(key.status()));
  site.Cacheable(req, res, key->Pem(), "application/x-pem-file; charset=utf-8");
}

void ServeCheckpoint(const Site& site, const Request& req, Response& res) {
  v1::GetCheckpointResponse cp;
  if (Refusal r = LoadCheckpoint(site, req, &cp); !r.ok())
    return site.Refuse(req, res, r);
  site.JsonText(res, cp.checkpoint().json());
}

void ServeRevocations(const Site& site, const Request& req, Response& res) {
  auto stub = v1::AuditService::NewStub(site.channel());
  v1::GetRevocationListResponse list;
  if (Refusal r =
          site.Call(req, stub.get(), &v1::AuditService::Stub::GetRevocationList,
                    v1::GetRevocationListRequest(), &list);
      !r.ok()) {
    return site.Refuse(req, res, r);
  }
  site.JsonText(res, list.json());
}

}  // namespace

void InstallStatementPages(httplib::Server& http, Site& site) {
  using Handler = void (*)(const Site&, const Request&, Response&);
  // Each under /.well-known/gorank/ (the stable addresses verifiers keep)
  // and, for the JSON files, under /api/v1/ too.
  const std::pair<const char*, Handler> routes[] = {
      {"/.well-known/gorank/federation.pub", ServeKey},
      {"/.well-known/gorank/checkpoint.json", ServeCheckpoint},
      {"/api/v1/checkpoint", ServeCheckpoint},
      {"/.well-known/gorank/revocations.json", ServeRevocations},
      {"/api/v1/revocations", ServeRevocations},
  };
  for (const auto& [path, handler] : routes) {
    http.Get(path,
             [&site, handler = handler](const Request& req, Response& res) {
               handler(site, req, res);
             });
  }
}

}  // namespace gorank::web
