#include "services/web/web_pages.h"

#include <cstdio>

namespace gorank::web {
namespace {

std::string E(const std::string& s) { return HtmlEscape(s); }
std::string E(const char* s) { return HtmlEscape(s); }

std::string Row(const char* label, const std::string& value_html) {
  return "<tr><th>" + E(label) + "</th><td>" + value_html + "</td></tr>";
}

std::string Rank(Lang lang, const v1::Rank& r) {
  return E(RankLabel(lang, r.ladder(), r.level(), r.notation()));
}

std::string Day(const v1::Date& d) {
  return IsoDay(d.year(), d.month(), d.day());
}

std::string BasisLabel(Lang lang, v1::CertificateBasis b) {
  const bool zh = lang == Lang::kZh;
  switch (b) {
    case v1::CERTIFICATE_BASIS_TOURNAMENT:
      return zh ? "比赛成绩" : "tournament result";
    case v1::CERTIFICATE_BASIS_APPRAISAL:
      return zh ? "鉴定" : "appraisal";
    case v1::CERTIFICATE_BASIS_RATING_PROMOTION:
      return zh ? "等级分晋升" : "rating promotion";
    case v1::CERTIFICATE_BASIS_HONORARY_AWARD:
      return zh ? "荣誉授予" : "honorary award";
    default:
      return zh ? "未注明" : "not stated";
  }
}

std::string HiddenLang(Lang lang) {
  return std::string("<input type=\"hidden\" name=\"lang\" value=\"") +
         LangCode(lang) + "\">";
}

std::string VerifyForm(Lang lang, const std::string& number,
                       const std::string& name) {
  const Texts& t = TextsFor(lang);
  return "<section><h2>" + E(t.verify_heading) + "</h2><p>" + E(t.verify_hint) +
         "</p><form id=\"verify-form\" method=\"get\" action=\"/verify\">" +
         HiddenLang(lang) + "<label>" + E(t.number_label) +
         " <input name=\"number\" inputmode=\"numeric\" maxlength=\"9\" "
         "value=\"" +
         E(number) + "\"></label><label>" + E(t.name_label) +
         " <input name=\"name\" maxlength=\"60\" value=\"" + E(name) +
         "\"></label><button type=\"submit\">" + E(t.verify_button) +
         "</button></form></section>";
}

std::string LookupForm(Lang lang, const std::string& name) {
  const Texts& t = TextsFor(lang);
  return "<section><h2>" + E(t.lookup_heading) + "</h2><p>" + E(t.lookup_hint) +
         "</p><form id=\"lookup-form\" method=\"get\" action=\"/lookup\">" +
         HiddenLang(lang) + "<label>" + E(t.name_label) +
         " <input name=\"name\" maxlength=\"60\" value=\"" + E(name) +
         "\"></label><button type=\"submit\">" + E(t.lookup_button) +
         "</button></form></section>";
}

}  // namespace

std::string HomeBody(Lang lang, const std::string& number,
                     const std::string& name) {
  const Texts& t = TextsFor(lang);
  return VerifyForm(lang, number, name) + LookupForm(lang, "") +
         "<p><a href=\"" + E(WithLang("/notices", lang)) + "\">" +
         E(t.notices_link) + "</a></p>";
}

std::string VerifyBody(Lang lang, const v1::VerifyCertificateResponse& a) {
  const Texts& t = TextsFor(lang);
  const char* text = t.outcome_not_valid;
  const char* css = "bad";
  const char* code = "NOT_VALID";
  switch (a.outcome()) {
    case v1::VERIFY_OUTCOME_VALID:
      text = t.outcome_valid, css = "ok", code = "VALID";
      break;
    case v1::VERIFY_OUTCOME_UNDER_NOTICE:
      text = t.outcome_under_notice, css = "warn", code = "UNDER_NOTICE";
      break;
    case v1::VERIFY_OUTCOME_REVOKED:
      text = t.outcome_revoked, css = "bad", code = "REVOKED";
      break;
    default:
      break;
  }
  std::string body = "<section id=\"verify-result\"><h2>" +
                     E(t.verify_heading) + "</h2><p id=\"outcome\" class=\"" +
                     css + "\" data-outcome=\"" + code + "\">" + E(text) +
                     "</p>";
  if (a.outcome() != v1::VERIFY_OUTCOME_NOT_VALID &&
      a.outcome() != v1::VERIFY_OUTCOME_UNSPECIFIED) {
    body += "<table id=\"certificate\">";
    body += Row(t.certificate_number, E(a.number()));
    body += Row(t.holder, E(a.masked_holder_name()));
    body += Row(t.grade, Rank(lang, a.grade()));
    body += Row(t.issue_date, Day(a.issue_date()));
    body +=
        Row(t.agency, E(a.agency_name()) + " (" + E(a.agency_prefix()) + ")");
    if (a.notice_until_unix() > 0) {
      body += Row(t.notice_until, E(ShanghaiDay(a.notice_until_unix())));
    }
    body += "</table>";
  }
  body += "</section>";
  return body + VerifyForm(lang, "", "");
}

std::string LookupBody(Lang lang, const std::string& name,
                       const v1::LookupRankResponse& a) {
  const Texts& t = TextsFor(lang);
  std::string body = "<section id=\"lookup-result\"><h2>" +
                     E(t.lookup_result_heading) + ": " + E(name) + "</h2>";
  if (a.players_size() == 0)
    body += "<p id=\"lookup-none\">" + E(t.lookup_none) + "</p>";
  for (const v1::PublicRankEntry& p : a.players()) {
    body += "<table class=\"player\">";
    std::string shown = E(p.name());
    if (!p.latin_name().empty()) shown += " (" + E(p.latin_name()) + ")";
    body += Row(t.holder, shown);
    body += Row(t.region, E(p.region()) + " (" + E(p.agency_prefix()) + ")");
    body += Row(t.rank, Rank(lang, p.rank()));
    std::string certs;
    for (const v1::PublicCertificate& c : p.certificates()) {
      const bool notice = c.state() == v1::CERTIFICATE_STATE_UNDER_NOTICE;
      certs += E(c.number()) + " " + Rank(lang, c.grade()) + " " +
               Day(c.issue_date()) + " (" +
               E(notice ? t.state_under_notice : t.state_effective) + ")<br>";
    }
    body += Row(t.certificates, certs.empty() ? "-" : certs);
    body += "</table>";
  }
  if (a.players_size() > 0) {
    body += "<p id=\"numbers-masked\">" + E(t.numbers_masked) + "</p>";
  }
  return body + "</section>" + LookupForm(lang, name);
}

std::string NoticesBody(Lang lang, const v1::ListNoticesResponse& a,
                        int max_shown, const std::string& form_token) {
  const Texts& t = TextsFor(lang);
  std::string body = "<section id=\"notices\"><h2>" + E(t.notices_heading) +
                     "</h2><p>" + E(t.notices_intro) + "</p>";
  if (a.notices_size() == 0)
    body += "<p id=\"notices-none\">" + E(t.notices_none) + "</p>";
  int shown = 0;
  for (const v1::NoticeEntry& n : a.notices()) {
    if (shown++ == max_shown) {
      body += "<p>" + E(t.notices_truncated) + "</p>";
      break;
    }
    const v1::Certificate& c = n.certificate();
    body += "<article class=\"notice\"><table>";
    body += Row(t.certificate_number, E(c.number()));
    body += Row(t.holder, E(n.holder_name()));
    body += Row(t.holder_agency, E(n.holder_agency_name()) + " (" +
                                     E(n.holder_agency_prefix()) + ")");
    body += Row(t.grade, Rank(lang, c.grade()));
    body +=
        Row(t.basis, "<span class=\"basis\">" + E(BasisLabel(lang, c.basis())) +
                         ": " + E(c.basis_reference()) + "</span>");
    body += Row(t.issue_date, Day(c.issue_date()));
    body +=
        Row(t.agency, E(n.agency_name()) + " (" + E(c.agency_prefix()) + ")");
    body += Row(t.notice_until, E(ShanghaiDay(c.notice_until_unix())));
    body += Row(t.open_objections, std::to_string(n.open_objections()));
    body +=
        "</table><form class=\"objection\" method=\"post\" "
        "action=\"/objections\">" +
        HiddenLang(lang) +
        "<input type=\"hidden\" name=\"form_token\" value=\"" + E(form_token) +
        "\"><input type=\"hidden\" name=\"number\" value=\"" + E(c.number()) +
        "\"><label>" + E(t.objection_text) +
        " <textarea name=\"text\" rows=\"3\" cols=\"50\" "
        "maxlength=\"2000\"></textarea></label>"
        "<label>" +
        E(t.objection_contact) +
        " <input name=\"contact\" maxlength=\"200\"></label><button "
        "type=\"submit\">" +
        E(t.objection_button) + "</button></form></article>";
  }
  return body + "</section>";
}

std::string ObjectionBody(Lang lang, const v1::LodgeObjectionResponse& a) {
  const Texts& t = TextsFor(lang);
  const v1::Objection& o = a.objection();
  return "<section id=\"objection-result\"><h2>" + E(t.objection_heading) +
         "</h2><p class=\"ok\">" + E(t.objection_lodged) + "</p><table>" +
         Row(t.certificate_number, E(o.number())) +
         Row(t.objection_id, "<span id=\"objection-id\">" +
                                 std::to_string(o.id()) + "</span>") +
         "</table><p><a href=\"" + E(WithLang("/notices", lang)) + "\">" +
         E(t.nav_notices) + "</a></p></section>";
}

std::string ErrorBody(Lang lang, const std::string& code_name,
                      const std::string& message) {
  const Texts& t = TextsFor(lang);
  return "<section id=\"error\"><h2>" + E(t.error_heading) +
         "</h2><p class=\"bad\" id=\"error-message\" data-code=\"" +
         E(code_name) + "\">" + E(message) + "</p><p><a href=\"" +
         E(WithLang("/", lang)) + "\">" + E(t.nav_home) + "</a></p></section>";
}

}  // namespace gorank::web
