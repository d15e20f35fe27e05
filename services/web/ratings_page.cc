#include "services/web/ratings_page.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"

namespace gorank::web {
namespace {

std::string E(const std::string& s) { return HtmlEscape(s); }

struct RatingTexts {
  const char* title;
  const char* title_pro;
  // A kept month's title: zh "MONTH TITLE（月度排名）", en "TITLE of MONTH".
  const char* month_suffix;
  const char* note;  // Go ratings only
  const char* filters;
  const char* list_label;
  const char* list_gor;
  const char* list_pro;
  const char* agency_label;
  const char* agency_all;
  const char* min_rank_label;
  const char* max_rank_label;
  const char* active_label;
  const char* month_label;
  const char* month_current;
  const char* apply;
  const char* place;
  const char* player_id;
  const char* player;
  const char* latin_name;
  const char* agency_code;
  const char* agency;
  const char* rank;
  const char* gor;
  const char* pro;
  const char* grade;
  const char* games;
  const char* last_rated;
  const char* none;
  const char* first_page;
  const char* next_page;
  const char* pages;
  const char* downloads;
  const char* csv;
  const char* xlsx;
  const char* table_label;
  const char* places;  // "places a-b"
  const char* gomoku;  // the refusal of discipline=gomoku
  const char* bad_active;
  const char* bad_list;
  const char* too_many;  // a download of more than kMaxDownloadRows
};

constexpr RatingTexts kZh = {
    "等级分排名",
    "职业等级分排名",
    "月度排名",
    "此处为围棋等级分（EGF GoR 与职业等级分）。五子棋没有等级分，"
    "因此没有五子棋排名。",
    "筛选",
    "榜单",
    "等级分（GoR）",
    "职业等级分",
    "单位（省区）",
    "全部单位",
    "最低段位（如 5级、3d）",
    "最高段位",
    "最近几个月内有对局（0 为不限）",
    "月份",
    "当前",
    "筛选",
    "名次",
    "棋手编号",
    "棋手",
    "拼音姓名",
    "单位代码",
    "单位",
    "段位",
    "等级分",
    "职业等级分",
    "对应段位",
    "对局数",
    "最近对局",
    "没有符合条件的棋手。",
    "第一页",
    "下一页",
    "分页",
    "下载",
    "下载 CSV 文件",
    "下载 Excel 文件（.xlsx）",
    "等级分排名表（可横向滚动）",
    "名次",
    "五子棋没有等级分：等级分排名只有围棋。",
    "“最近几个月”须为 0 到 600 的整数。",
    "榜单须为 gor 或 pro。",
    "该榜单超过 50000 行，请先用单位、段位或最近对局筛选后再下载。",
};
constexpr RatingTexts kEn = {
    "Rating list",
    "Professional rating list",
    " of ",
    "These are Go ratings (EGF GoR and the professional list). Gomoku has "
    "no rating system, so there is no Gomoku list.",
    "Filters",
    "List",
    "GoR",
    "Professional rating",
    "Agency (province)",
    "All agencies",
    "Lowest rank (e.g. 5k, 3d)",
    "Highest rank",
    "Played in the last N months (0: any)",
    "Month",
    "Current",
    "Apply",
    "Place",
    "Player id",
    "Player",
    "Latin name",
    "Agency code",
    "Agency",
    "Rank",
    "GoR",
    "Pro rating",
    "Grade",
    "Games",
    "Last rated",
    "No player matches.",
    "First page",
    "Next page",
    "Pages",
    "Downloads",
    "Download as CSV",
    "Download as Excel (.xlsx)",
    "Rating list table (scrolls sideways)",
    "places",
    "Gomoku has no rating system: the rating lists are Go only.",
    "active must be a whole number of months from 0 to 600.",
    "list must be gor or pro.",
    "The list has more than 50,000 rows; narrow it (agency, rank, active "
    "months) before downloading.",
};

const RatingTexts& T(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

constexpr int kMaxDownloadRows = 50000;

std::string Rating1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string DateText(const v1::Date& d) {
  if (d.year() == 0) return "";
  return IsoDay(d.year(), d.month(), d.day());
}

std::string RankText(Lang lang, const v1::Rank& r) {
  if (r.ladder() == 0 && r.notation().empty()) return "";
  return RankLabel(lang, r.ladder(), r.level(), r.notation());
}

std::string AgencyName(Lang lang, const std::string& prefix,
                       const std::vector<v1::Agency>& agencies) {
  for (const v1::Agency& a : agencies) {
    if (a.prefix() != prefix) continue;
    if (lang == Lang::kEn && !a.name_en().empty()) return a.name_en();
    return a.name();
  }
  return prefix;
}

std::string PlayerName(Lang lang, const v1::PlayerRating& r) {
  if (lang == Lang::kEn && !r.latin_name().empty()) return r.latin_name();
  return r.name();
}

std::string Param(const RatingsQuery& q) { return RatingsQueryString(q); }

std::string Option(const std::string& value, const std::string& label,
                   bool selected) {
  return "<option value=\"" + E(value) + "\"" + (selected ? " selected" : "") +
         ">" + E(label) + "</option>";
}

std::string FilterForm(Lang lang, const RatingsView& v) {
  const RatingTexts& t = T(lang);
  const RatingsQuery& q = v.query;
  std::string f =
      "<form id=\"rating-filters\" method=\"get\" "
      "action=\"/ratings\"><fieldset><legend>" +
      E(t.filters) + "</legend>";
  f += "<p><label for=\"f-list\">" + E(t.list_label) +
       "</label> <select id=\"f-list\" name=\"list\">" +
       Option("gor", t.list_gor, !q.pro_list) +
       Option("pro", t.list_pro, q.pro_list) + "</select></p>";
  f += "<p><label for=\"f-agency\">" + E(t.agency_label) +
       "</label> <select id=\"f-agency\" name=\"agency\">" +
       Option("", t.agency_all, q.agency.empty());
  for (const v1::Agency& a : v.agencies) {
    if (a.prefix() == "000") continue;  // the national body: no players
    f += Option(a.prefix(),
                a.prefix() + " " + AgencyName(lang, a.prefix(), v.agencies),
                a.prefix() == q.agency);
  }
  f += "</select></p>";
  f += "<p><label for=\"f-min\">" + E(t.min_rank_label) +
       "</label> <input id=\"f-min\" name=\"min_rank\" size=\"6\" value=\"" +
       E(q.min_rank) + "\"></p>";
  f += "<p><label for=\"f-max\">" + E(t.max_rank_label) +
       "</label> <input id=\"f-max\" name=\"max_rank\" size=\"6\" value=\"" +
       E(q.max_rank) + "\"></p>";
  f += "<p><label for=\"f-active\">" + E(t.active_label) +
       "</label> <input id=\"f-active\" name=\"active\" type=\"number\" "
       "min=\"0\" max=\"600\" value=\"" +
       std::to_string(q.active_months) + "\"></p>";
  f += "<p><label for=\"f-month\">" + E(t.month_label) +
       "</label> <select id=\"f-month\" name=\"month\">" +
       Option("", t.month_current, q.month.empty());
  for (const v1::RatingSnapshotMonth& m : v.months) {
    f += Option(m.month(), m.month(), m.month() == q.month);
  }
  f += "</select></p>";
  if (lang == Lang::kEn) {
    f += "<input type=\"hidden\" name=\"lang\" value=\"en\">";
  }
  f += "<p><button type=\"submit\">" + E(t.apply) +
       "</button></p></fieldset></form>";
  return f;
}

std::string Table(Lang lang, const RatingsView& v) {
  const RatingTexts& t = T(lang);
  const bool pro = v.query.pro_list;
  std::string caption = RatingsTitle(lang, v.query);
  if (!v.list.ratings().empty()) {
    caption +=
        " (" + std::string(t.places) + " " +
        std::to_string(v.list.first_position()) + "–" +
        std::to_string(v.list.first_position() + v.list.ratings_size() - 1) +
        ")";
  }
  std::string out =
      "<div class=\"scroll\" tabindex=\"0\" role=\"region\" "
      "aria-label=\"" +
      E(t.table_label) + "\"><table id=\"rating-list\"><caption>" + E(caption) +
      "</caption><thead><tr>";
  for (const char* h : {t.place, t.player, t.agency, t.rank,
                        pro ? t.pro : t.gor, t.grade, t.games, t.last_rated}) {
    out += "<th scope=\"col\">" + E(h) + "</th>";
  }
  out += "</tr></thead><tbody>";
  int64_t place = v.list.first_position();
  for (const v1::PlayerRating& r : v.list.ratings()) {
    const std::string id = std::to_string(r.player_id());
    out += "<tr class=\"rating-row\" data-player=\"" + id + "\"><td>" +
           std::to_string(place++) + "</td><td><a href=\"" +
           E(WithLang("/players/" + id, lang)) + "\">" +
           E(PlayerName(lang, r)) + "</a></td><td>" +
           E(AgencyName(lang, r.agency_prefix(), v.agencies)) + "</td><td>" +
           E(RankText(lang, r.rank())) + "</td><td class=\"rating\">" +
           Rating1(pro ? r.pro_rating() : r.gor()) + "</td><td>" +
           E(RankText(lang, r.grade())) + "</td><td>" +
           std::to_string(pro ? r.pro_games() : r.rated_games()) + "</td><td>" +
           E(DateText(r.last_rated())) + "</td></tr>";
  }
  out += "</tbody></table></div>";
  if (v.list.ratings().empty()) {
    out += "<p id=\"rating-none\">" + E(t.none) + "</p>";
  }
  return out;
}

std::string Links(Lang lang, const RatingsView& v) {
  const RatingTexts& t = T(lang);
  const std::string base = "/ratings" + Param(v.query);
  std::string out;
  if (!v.query.page_token.empty() || !v.list.next_page_token().empty()) {
    out += "<nav id=\"rating-pages\" aria-label=\"" + E(t.pages) + "\"><ul>";
    if (!v.query.page_token.empty()) {
      out += "<li><a id=\"first-page\" href=\"" + E(WithLang(base, lang)) +
             "\">" + E(t.first_page) + "</a></li>";
    }
    if (!v.list.next_page_token().empty()) {
      const std::string next =
          base + (base.find('?') == std::string::npos ? "?" : "&") +
          "page_token=" + UrlEncode(v.list.next_page_token());
      out += "<li><a id=\"next-page\" rel=\"next\" href=\"" +
             E(WithLang(next, lang)) + "\">" + E(t.next_page) + "</a></li>";
    }
    out += "</ul></nav>";
  }
  out += "<p id=\"downloads\">" + E(t.downloads) +
         ": <a id=\"download-csv\" "
         "href=\"" +
         E(WithLang("/ratings.csv" + Param(v.query), lang)) + "\">" + E(t.csv) +
         "</a> · <a id=\"download-xlsx\" href=\"" +
         E(WithLang("/ratings.xlsx" + Param(v.query), lang)) + "\">" +
         E(t.xlsx) + "</a></p>";
  return out;
}

// The query from the request's parameters; a refusal for a malformed one.
Refusal ReadQuery(const httplib::Request& req, RatingsQuery* q) {
  const Lang lang = LangOf(req);
  const RatingTexts& t = T(lang);
  const auto bad = [&](const char* text) {
    return Refusal{absl::StatusCode::kInvalidArgument, text, 0, 0,
                   /*localized=*/true};
  };
  const std::string list = req.get_param_value("list");
  if (list == "pro") {
    q->pro_list = true;
  } else if (!list.empty() && list != "gor") {
    return bad(t.bad_list);
  }
  const std::string discipline = req.get_param_value("discipline");
  if (discipline == "gomoku" || discipline == "五子棋") return bad(t.gomoku);
  q->agency = req.get_param_value("agency");
  q->min_rank = req.get_param_value("min_rank");
  q->max_rank = req.get_param_value("max_rank");
  q->month = req.get_param_value("month");
  q->page_token = req.get_param_value("page_token");
  const std::string active = req.get_param_value("active");
  if (!active.empty()) {
    auto [end, ec] = std::from_chars(
        active.data(), active.data() + active.size(), q->active_months);
    if (ec != std::errc() || end != active.data() + active.size() ||
        q->active_months < 0 || q->active_months > 600) {
      return bad(t.bad_active);
    }
  }
  return Refusal{};
}

v1::ListRatingsRequest RequestOf(const RatingsQuery& q, int page_size) {
  v1::ListRatingsRequest r;
  r.set_pro_list(q.pro_list);
  r.set_agency_prefix(q.agency);
  if (!q.min_rank.empty()) r.mutable_min_rank()->set_notation(q.min_rank);
  if (!q.max_rank.empty()) r.mutable_max_rank()->set_notation(q.max_rank);
  r.set_active_months(q.active_months);
  r.set_month(q.month);
  r.set_page_token(q.page_token);
  r.set_page_size(page_size);
  return r;
}

// The xlsx bytes of `sheet` (libxlsxwriter writes files only: a private
// temporary file, removed at once). "" in *error when written.
std::string XlsxBytes(const cli::Sheet& sheet, std::string* error) {
  const char* dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/rankd-ratings-XXXXXX.xlsx";
  const int fd = ::mkstemps(path.data(), 5);
  if (fd < 0) {
    *error = "cannot create a temporary file for the workbook";
    return "";
  }
  ::close(fd);
  *error = cli::WriteXlsx(path, {sheet});
  std::string bytes;
  if (error->empty()) {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ::unlink(path.c_str());
  return bytes;
}

}  // namespace

std::string RatingsQueryString(const RatingsQuery& q) {
  std::string out;
  const auto add = [&](const char* key, const std::string& value) {
    if (value.empty()) return;
    out +=
        (out.empty() ? "?" : "&") + std::string(key) + "=" + UrlEncode(value);
  };
  add("list", q.pro_list ? "pro" : "");
  add("agency", q.agency);
  add("min_rank", q.min_rank);
  add("max_rank", q.max_rank);
  add("active", q.active_months > 0 ? std::to_string(q.active_months) : "");
  add("month", q.month);
  return out;
}

std::string RatingsTitle(Lang lang, const RatingsQuery& q) {
  const RatingTexts& t = T(lang);
  std::string title = q.pro_list ? t.title_pro : t.title;
  if (!q.month.empty()) {
    title = lang == Lang::kEn
                ? title + t.month_suffix + q.month
                : q.month + " " + title + "（" + t.month_suffix + "）";
  }
  return title;
}

std::string RatingsBody(Lang lang, const RatingsView& view) {
  const RatingTexts& t = T(lang);
  return "<section id=\"ratings\" data-list=\"" +
         std::string(view.query.pro_list ? "pro" : "gor") + "\" data-month=\"" +
         E(view.query.month) + "\"><h2>" + E(RatingsTitle(lang, view.query)) +
         "</h2><p class=\"note\">" + E(t.note) + "</p>" +
         FilterForm(lang, view) + Table(lang, view) + Links(lang, view) +
         "</section>";
}

cli::Sheet RatingsSheet(Lang lang, bool pro_list,
                        const std::vector<v1::PlayerRating>& rows,
                        int64_t first_position,
                        const std::vector<v1::Agency>& agencies) {
  const RatingTexts& t = T(lang);
  cli::Sheet sheet;
  sheet.name = pro_list ? "pro" : "GoR";
  sheet.header = {
      t.place,       t.player_id, t.player,    t.latin_name,
      t.agency_code, t.agency,    t.rank,      pro_list ? t.pro : t.gor,
      t.grade,       t.games,     t.last_rated};
  int64_t place = first_position;
  for (const v1::PlayerRating& r : rows) {
    const double rating = pro_list ? r.pro_rating() : r.gor();
    const v1::Date& d = r.last_rated();
    sheet.rows.push_back(
        {cli::Cell::Int(place++), cli::Cell::Int(r.player_id()),
         cli::Cell::Text(r.name()), cli::Cell::Text(r.latin_name()),
         cli::Cell::Text(r.agency_prefix()),
         cli::Cell::Text(AgencyName(lang, r.agency_prefix(), agencies)),
         cli::Cell::Text(RankText(lang, r.rank())),
         cli::Cell::Number(rating, Rating1(rating), "0.0"),
         cli::Cell::Text(RankText(lang, r.grade())),
         cli::Cell::Int(pro_list ? r.pro_games() : r.rated_games()),
         cli::Cell::Date(d.year(), d.month(), d.day())});
  }
  return sheet;
}

void InstallRatingsPages(httplib::Server& http, Site& site) {
  using httplib::Request;
  using httplib::Response;
  using v1::AgencyService;
  using v1::RatingService;
  std::shared_ptr<RatingService::Stub> ratings =
      RatingService::NewStub(site.channel());
  std::shared_ptr<AgencyService::Stub> agencies =
      AgencyService::NewStub(site.channel());

  const auto agency_list = [&site, agencies](const Request& req,
                                             std::vector<v1::Agency>* out) {
    v1::ListAgenciesResponse resp;
    Refusal r =
        site.Call(req, agencies.get(), &AgencyService::Stub::ListAgencies,
                  v1::ListAgenciesRequest(), &resp);
    out->assign(resp.agencies().begin(), resp.agencies().end());
    return r;
  };

  const auto page = [&site, ratings, agency_list](const Request& req,
                                                  Response& res) {
    RatingsView view;
    if (Refusal r = ReadQuery(req, &view.query); !r.ok()) {
      return site.Refuse(req, res, r);
    }
    if (Refusal r =
            site.Call(req, ratings.get(), &RatingService::Stub::ListRatings,
                      RequestOf(view.query, 0), &view.list);
        !r.ok()) {
      return site.Refuse(req, res, r);
    }
    if (IsApi(req)) return site.Json(res, view.list);
    v1::ListRatingSnapshotsResponse months;
    if (Refusal r = site.Call(req, ratings.get(),
                              &RatingService::Stub::ListRatingSnapshots,
                              v1::ListRatingSnapshotsRequest(), &months);
        !r.ok()) {
      return site.Refuse(req, res, r);
    }
    view.months.assign(months.months().begin(), months.months().end());
    if (Refusal r = agency_list(req, &view.agencies); !r.ok()) {
      return site.Refuse(req, res, r);
    }
    const Lang lang = LangOf(req);
    site.Html(req, res, 200, RatingsTitle(lang, view.query),
              RatingsBody(lang, view));
  };
  http.Get("/ratings", page);
  http.Get("/api/v1/ratings", page);
  http.Get("/api/v1/ratings/months", [&site, ratings](const Request& req,
                                                      Response& res) {
    v1::ListRatingSnapshotsResponse months;
    if (Refusal r = site.Call(req, ratings.get(),
                              &RatingService::Stub::ListRatingSnapshots,
                              v1::ListRatingSnapshotsRequest(), &months);
        !r.ok()) {
      return site.Refuse(req, res, r);
    }
    site.Json(res, months);
  });

  // The downloads: every row of the filtered list, in pages of 500.
  const auto download = [&site, ratings, agency_list](
                            const Request& req, Response& res, bool xlsx) {
    RatingsQuery q;
    if (Refusal r = ReadQuery(req, &q); !r.ok())
      return site.Refuse(req, res, r);
    q.page_token.clear();
    const Lang lang = LangOf(req);
    std::vector<v1::PlayerRating> rows;
    while (true) {
      v1::ListRatingsResponse part;
      if (Refusal r =
              site.Call(req, ratings.get(), &RatingService::Stub::ListRatings,
                        RequestOf(q, 500), &part);
          !r.ok()) {
        return site.Refuse(req, res, r);
      }
      rows.insert(rows.end(), part.ratings().begin(), part.ratings().end());
      if (rows.size() > static_cast<size_t>(kMaxDownloadRows)) {
        return site.Refuse(req, res,
                           Refusal{absl::StatusCode::kResourceExhausted,
                                   T(lang).too_many, 0, 413});
      }
      if (part.next_page_token().empty()) break;
      q.page_token = part.next_page_token();
    }
    std::vector<v1::Agency> agencies;
    if (Refusal r = agency_list(req, &agencies); !r.ok()) {
      return site.Refuse(req, res, r);
    }
    const cli::Sheet sheet = RatingsSheet(lang, q.pro_list, rows, 1, agencies);
    std::string name = std::string("ratings-") + (q.pro_list ? "pro" : "gor") +
                       (q.month.empty() ? "" : "-" + q.month);
    if (!xlsx) {
      res.set_header("Content-Disposition",
                     "attachment; filename=\"" + name + ".csv\"");
      res.status = 200;
      res.set_content(cli::CsvText(sheet), "text/csv; charset=utf-8");
      return;
    }
    std::string error;
    std::string bytes = XlsxBytes(sheet, &error);
    if (!error.empty()) {
      return site.Refuse(req, res,
                         Refusal{absl::StatusCode::kInternal, error, 0, 0});
    }
    res.set_header("Content-Disposition",
                   "attachment; filename=\"" + name + ".xlsx\"");
    res.status = 200;
    res.set_content(std::move(bytes),
                    "application/vnd.openxmlformats-officedocument."
                    "spreadsheetml.sheet");
  };
  http.Get("/ratings.csv", [download](const Request& req, Response& res) {
    download(req, res, false);
  });
  http.Get("/ratings.xlsx", [download](const Request& req, Response& res) {
    download(req, res, true);
  });
}

}  // namespace gorank::web
