#include "services/web/html.h"

#include <cstdio>

#include "services/common/date.h"

namespace gorank::web {
namespace {

constexpr Texts kZh = {
    "中国围棋段位证书查询",
    "English",
    "首页",
    "公示",
    "证书验证",
    "输入证书编号（九位数字）和持证人姓名。",
    "证书编号",
    "持证人姓名",
    "验证",
    "段位查询",
    "输入棋手姓名，查询其当前段位和有效证书。",
    "查询",
    "查看当前公示的证书，并可提出异议",
    "证书有效",
    "证书公示中",
    "证书已撤销",
    "未找到与该编号和姓名相符的有效证书。",
    "持证人",
    "段位",
    "发证日期",
    "发证单位",
    "证书编号",
    "公示截止",
    "查询结果",
    "没有找到该姓名的棋手。",
    "地区",
    "段位",
    "证书",
    "有效",
    "公示中",
    "公示中的证书",
    "以下四至七段证书正在公示。公示期内任何人都可以提出异议。",
    "目前没有公示中的证书。",
    "只显示前面的部分证书。",
    "未决异议",
    "提出异议",
    "异议内容",
    "联系方式（仅供全国管理人员查看）",
    "提交异议",
    "异议已登记。",
    "异议编号",
    "无法完成请求",
    "请求过于频繁，请稍后再试。等待",
    "秒",
    "页面不存在。",
    "本页面只显示公开信息：不显示身份证号码和出生日期。",
    "授予依据",
    "持证人所属单位",
    "证书编号只显示发证单位代码和年份；验证证书请输入完整编号和持证人姓名。",
    "棋手",
    "等级分",
    "比赛",
    "跳到正文",
    "搜索棋手或比赛",
    "搜索",
    "标志：",
};

constexpr Texts kEn = {
    "Go rank certificate lookup",
    "中文",
    "Home",
    "Notices",
    "Verify a certificate",
    "Enter the certificate number (nine digits) and the holder's name.",
    "Certificate number",
    "Holder's name",
    "Verify",
    "Rank lookup",
    "Enter a player's name to see the current rank and effective certificates.",
    "Look up",
    "Certificates under public notice, and how to object",
    "Valid certificate",
    "Certificate under public notice",
    "Certificate revoked",
    "No valid certificate matches this number and name.",
    "Holder",
    "Grade",
    "Date of issue",
    "Issuing agency",
    "Certificate number",
    "Notice ends",
    "Result",
    "No player of this name was found.",
    "Region",
    "Rank",
    "Certificates",
    "effective",
    "under notice",
    "Certificates under public notice",
    "These 4 dan to 7 dan certificates are under public notice. Anyone may "
    "object "
    "while the notice runs.",
    "No certificate is under notice now.",
    "Only the first certificates are shown.",
    "Open objections",
    "Lodge an objection",
    "Objection",
    "Contact (seen only by the national administrators)",
    "Submit objection",
    "Your objection has been recorded.",
    "Objection number",
    "The request could not be completed",
    "Too many requests; please try again later. Wait",
    "seconds",
    "No such page.",
    "This page shows public information only: no ID numbers, no birth dates.",
    "Basis",
    "Holder's agency",
    "Certificate numbers show only the issuing agency's prefix and the year; "
    "to verify a certificate, enter its full number and the holder's name.",
    "Players",
    "Ratings",
    "Events",
    "Skip to the content",
    "Search players or events",
    "Search",
    "Logo: ",
};

const char kStyle[] =
    "body{font-family:'WenQuanYi Zen Hei','Noto Sans CJK "
    "SC',sans-serif;max-width:46em;"
    "margin:1em auto;padding:0 1em;color:#222;line-height:1.5}"
    "header{border-bottom:2px solid #8b0000;margin-bottom:1em}"
    "header a{margin-right:1em}h1{font-size:1.4em;color:#8b0000}"
    "h2{font-size:1.15em}form{margin:.5em 0 "
    "1.5em}label{display:block;margin:.3em 0}"
    "input,textarea{font-size:1em;padding:.2em}"
    ".ok{color:#0a6b0a;font-weight:bold}.warn{color:#8a4b00;font-weight:bold}"
    ".bad{color:#a00;font-weight:bold}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}"
    "footer{margin-top:2em;font-size:.85em;color:#555}"
    ".skip{position:absolute;left:-999em}.skip:focus{position:static}"
    "a:focus,input:focus,button:focus,textarea:focus{outline:3px solid "
    "#1a5fb4;outline-offset:2px}"
    "header nav,header form{display:flex;flex-wrap:wrap;gap:.3em 1em;"
    "align-items:center;margin:.3em 0}header form label{display:inline}"
    "header img{max-height:3em;vertical-align:middle;margin-right:.5em}"
    ".scroll{overflow-x:auto;max-width:100%}"
    // Hashes and keys are long words: they wrap anywhere on a phone.
    "code.hash,.hash{word-break:break-all;overflow-wrap:anywhere}";

}  // namespace

Lang ParseLang(std::string_view value) {
  return value == "en" ? Lang::kEn : Lang::kZh;
}

const char* LangCode(Lang lang) { return lang == Lang::kEn ? "en" : "zh"; }

const Texts& TextsFor(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string UrlEncode(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                            c == '.' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string RankLabel(Lang lang, int ladder, int level,
                      std::string_view notation) {
  const std::string n = std::to_string(level);
  const bool zh = lang == Lang::kZh;
  switch (ladder) {
    case 1:
      return zh ? n + "级" : n + " kyu";
    case 2:
      return zh ? "业余" + n + "段" : n + " dan";
    case 3:
      return zh ? "职业" + n + "段" : n + " dan pro";
    case 4:
      return zh ? "五子棋" + n + "级" : n + " kyu (Gomoku)";
    case 5:
      return zh ? "五子棋" + n + "段" : n + " dan (Gomoku)";
    default:
      return std::string(notation);
  }
}

std::string ShanghaiDay(long long unix_seconds) {
  return ShanghaiDate(unix_seconds).ToString();
}

std::string IsoDay(int year, int month, int day) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  return buf;
}

std::string WithLang(std::string_view path_and_query, Lang lang) {
  std::string out(path_and_query);
  out += out.find('?') == std::string::npos ? "?lang=" : "&lang=";
  out += LangCode(lang);
  return out;
}

std::string SiteTitle(Lang lang, const Branding& branding) {
  const std::string& own =
      lang == Lang::kEn ? branding.title_en : branding.title_zh;
  return own.empty() ? TextsFor(lang).site_title : own;
}

std::string RenderPage(Lang lang, std::string_view title,
                       std::string_view body_html,
                       std::string_view path_and_query,
                       const Branding& branding) {
  const Texts& t = TextsFor(lang);
  const Lang other = lang == Lang::kEn ? Lang::kZh : Lang::kEn;
  const std::string site = HtmlEscape(SiteTitle(lang, branding));
  const auto link = [&](std::string_view path, const char* text) {
    return "<a href=\"" + HtmlEscape(WithLang(path, lang)) + "\">" +
           HtmlEscape(text) + "</a>";
  };
  std::string page;
  page.reserve(body_html.size() + 4096);
  page += "<!DOCTYPE html>\n<html lang=\"";
  page += lang == Lang::kEn ? "en" : "zh-CN";
  page +=
      "\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\"><title>";
  page += HtmlEscape(title);
  page += " - ";
  page += site;
  page += "</title><style>";
  page += kStyle;
  page += "</style></head><body><a class=\"skip\" href=\"#main\">";
  page += HtmlEscape(t.skip_to_main);
  page += "</a><header><h1>";
  if (branding.logo) {
    page += "<img src=\"/logo\" alt=\"" + HtmlEscape(t.logo_alt) + site + "\">";
  }
  page += site;
  page += "</h1><nav aria-label=\"" + HtmlEscape(t.nav_home) + "\">";
  page += link("/", t.nav_home);
  page += link("/search", t.nav_players);
  page += link("/ratings", t.nav_ratings);
  page += link("/events", t.nav_events);
  page += link("/notices", t.nav_notices);
  page += "<a id=\"lang-switch\" href=\"" +
          HtmlEscape(WithLang(path_and_query, other)) + "\" hreflang=\"" +
          LangCode(other) + "\" lang=\"" + LangCode(other) + "\">" +
          HtmlEscape(t.switch_label) + "</a>";
  page += "</nav><form role=\"search\" action=\"/search\" method=\"get\">";
  page += "<label for=\"site-q\">" + HtmlEscape(t.search_label) + "</label>";
  page += "<input id=\"site-q\" name=\"q\" type=\"search\" maxlength=\"100\">";
  if (lang == Lang::kEn)
    page += "<input type=\"hidden\" name=\"lang\" value=\"en\">";
  page += "<button type=\"submit\">" + HtmlEscape(t.search_button) +
          "</button></form></header><main id=\"main\">";
  page += body_html;
  page += "</main><footer>";
  const std::string& footer =
      lang == Lang::kEn ? branding.footer_en : branding.footer_zh;
  if (!footer.empty()) page += "<p>" + HtmlEscape(footer) + "</p>";
  page += "<p>" + HtmlEscape(t.footer) + "</p>";
  page += "</footer></body></html>\n";
  return page;
}

}  // namespace gorank::web
