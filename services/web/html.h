// The pure side of the public web page: HTML and URL escaping, the two
// languages (Chinese, the default, and English) with every fixed text the
// pages show, and the page shell (UTF-8, inline style, no external assets).
// No gRPC, no protobuf, no I/O; thread-safe (constant tables only).
#ifndef GORANK_SERVICES_WEB_HTML_H_
#define GORANK_SERVICES_WEB_HTML_H_

#include <string>
#include <string_view>

namespace gorank::web {

enum class Lang { kZh, kEn };

// "en" -> kEn; anything else (absent, "zh", unknown) -> kZh.
Lang ParseLang(std::string_view value);
// "zh" or "en".
const char* LangCode(Lang lang);

// Escapes & < > " ' so that `text` is safe in element content and in
// double- or single-quoted attribute values.
std::string HtmlEscape(std::string_view text);
// Percent-encodes everything but unreserved characters (RFC 3986), for a
// query parameter value.
std::string UrlEncode(std::string_view text);

// Every fixed text of the pages, in one language. Values are plain text
// (escaped when rendered) unless the name ends in _html.
struct Texts {
  const char* site_title;
  const char* switch_label;  // the link to the other language
  const char* nav_home;
  const char* nav_notices;
  const char* verify_heading;
  const char* verify_hint;
  const char* number_label;
  const char* name_label;
  const char* verify_button;
  const char* lookup_heading;
  const char* lookup_hint;
  const char* lookup_button;
  const char* notices_link;
  const char* outcome_valid;
  const char* outcome_under_notice;
  const char* outcome_revoked;
  const char* outcome_not_valid;  // the one identical NOT_VALID answer
  const char* holder;
  const char* grade;
  const char* issue_date;
  const char* agency;
  const char* certificate_number;
  const char* notice_until;
  const char* lookup_result_heading;
  const char* lookup_none;
  const char* region;
  const char* rank;
  const char* certificates;
  const char* state_effective;
  const char* state_under_notice;
  const char* notices_heading;
  const char* notices_intro;
  const char* notices_none;
  const char* notices_truncated;
  const char* open_objections;
  const char* objection_heading;
  const char* objection_text;
  const char* objection_contact;
  const char* objection_button;
  const char* objection_lodged;
  const char* objection_id;
  const char* error_heading;
  const char* rate_limited;  // followed by the seconds to wait
  const char* seconds;
  const char* not_found_page;
  const char* footer;
  const char* basis;           // the basis of a certificate under notice
  const char* holder_agency;   // the holder's own agency (province)
  const char* numbers_masked;  // why lookup numbers end in ****
  const char* nav_players;     // the search page
  const char* nav_ratings;
  const char* nav_events;
  const char* skip_to_main;  // the keyboard user's first link
  const char* search_label;  // the header's search box
  const char* search_button;
  const char* logo_alt;  // "logo of <site title>" prefix
};
const Texts& TextsFor(Lang lang);

// A rank for people: zh "业余3段" / "5级" / "职业9段", en "3 dan" / "5 kyu" /
// "9 dan pro"; Gomoku zh "五子棋2段", en "2 dan (Gomoku)". `ladder` is the
// RankLadder enum value (1 kyu, 2 amateur dan, 3 pro dan, 4 Gomoku kyu, 5
// Gomoku dan); an unknown ladder shows `notation` as is.
std::string RankLabel(Lang lang, int ladder, int level,
                      std::string_view notation);

// "YYYY-MM-DD" of a calendar date (a v1::Date's fields).
std::string IsoDay(int year, int month, int day);

// "YYYY-MM-DD" of a Unix time in Asia/Shanghai.
std::string ShanghaiDay(long long unix_seconds);

// A federation's own face on its page (config web_title_zh and so on):
// empty strings leave the built-in texts.
struct Branding {
  std::string title_zh;
  std::string title_en;
  std::string footer_zh;
  std::string footer_en;
  bool logo = false;  // GET /logo serves the federation's logo
};

// The site's title in `lang`: the branding's, else the built-in one.
std::string SiteTitle(Lang lang, const Branding& branding);

// The whole document: doctype, <html lang>, UTF-8, the style, a link that
// skips to the main content, a header with the logo and site title,
// navigation, a search box and the language switch (a link to
// `path_and_query` with lang set to the other language; `path_and_query`
// must not carry lang itself), then `body_html` (already safe HTML) in
// <main id="main">, then the footer.
std::string RenderPage(Lang lang, std::string_view title,
                       std::string_view body_html,
                       std::string_view path_and_query,
                       const Branding& branding = {});

// A link target in `lang`: `path` + "?lang=xx" or "&lang=xx" after a query.
std::string WithLang(std::string_view path_and_query, Lang lang);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_HTML_H_
