// The rating lists (/ratings, /api/v1/ratings, /api/v1/ratings/months,
// /ratings.csv, /ratings.xlsx; services/web/ratings_page.h) against a real
// in-process rankd (tests/web/web_fixture.h). Players are registered through
// gRPC; their ratings are stored straight into the rating table through the
// SQL repository (as a recompute would), so that the list has known
// ratings, ranks, agencies and last rated dates:
//   - the page: caption with the places, one row per player in the list's
//     order, each linked to /players/{id}; the GoR and the pro list;
//   - the filters narrow the rows as RatingService.ListRatings does, the
//     form shows them, the next-page link keeps them and the places go on;
//   - the CSV (UTF-8 BOM, header, one row per player of the filtered list)
//     and the .xlsx (a zip, its Content-Type and Content-Disposition);
//   - refusals: discipline=gomoku (a clear 400 in the page's language),
//     malformed list/active/month (400), a month not kept (404);
//   - a kept month: listed in /api/v1/ratings/months and the form, the same
//     after later rating writes;
//   - the JSON twin equals the gRPC answer.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/ratings/rating_repository.h"
#include "services/web/html.h"
#include "storage/sql_rating_repository.h"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The data-player ids of the table's rows, in page order.
std::vector<int64_t> RowIds(const std::string& page) {
  std::vector<int64_t> out;
  const std::string marker = "<tr class=\"rating-row\" data-player=\"";
  for (size_t at = page.find(marker); at != std::string::npos;
       at = page.find(marker, at + 1)) {
    out.push_back(std::stoll(page.substr(at + marker.size())));
  }
  return out;
}

// The href of the element with id `id` ("" when absent), &amp; undone.
std::string Href(const std::string& page, const std::string& id) {
  const std::string marker = "id=\"" + id + "\" ";
  size_t at = page.find(marker);
  if (at == std::string::npos) return "";
  at = page.find("href=\"", at);
  if (at == std::string::npos) return "";
  at += 6;
  std::string href = page.substr(at, page.find('"', at) - at);
  for (size_t amp = href.find("&amp;"); amp != std::string::npos;
       amp = href.find("&amp;", amp + 1)) {
    href.replace(amp, 5, "&");
  }
  return href;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t from = 0;
  while (from < text.size()) {
    const size_t nl = text.find('\n', from);
    out.push_back(text.substr(from, nl - from));
    if (nl == std::string::npos) break;
    from = nl + 1;
  }
  return out;
}

struct Who {
  std::string name;
  std::string latin;
  std::string agency;
  std::string rank;
  double gor;
  std::optional<double> pro;
  std::optional<Date> last;  // the last rated event; none: an import
};

const ratings::EventKey kSep{Date{2025, 9, 1}, 1, "e-sep"};
const ratings::EventKey kNov{Date{2025, 11, 20}, 1, "e-nov"};
const ratings::EventKey kDec{Date{2025, 12, 5}, 1, "e-dec"};

class WebRatingsTest : public WebFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartServer());
    ratings_ = v1::RatingService::NewStub(channel_);
    repo_ = std::make_unique<storage::SqlRatingRepository>(server_->database());
    // Agency 110: four players (one an import), 120 and 130 one each.
    who_ = {
        {"李雷", "Li Lei", "110", "3d", 2350.5, 2480.0, kDec.date},
        {"韩梅梅", "Han, Meimei", "120", "1d", 2150.0, std::nullopt, kNov.date},
        {"王芳", "Wang Fang", "110", "5k", 1550.0, std::nullopt, kSep.date},
        {"赵强", "Zhao Qiang", "130", "2d", 2200.0, 2450.0, kDec.date},
        {"孙丽", "", "110", "1k", 2050.0, std::nullopt, std::nullopt},
        {"周杰", "Zhou Jie", "110", "2d", 2200.0, std::nullopt, kNov.date},
    };
    for (const Who& w : who_) ids_.push_back(Register(w));
  }

  int64_t Register(const Who& w) {
    v1::RegisterPlayerRequest req;
    req.set_name(w.name);
    req.set_latin_name(w.latin);
    req.set_agency_prefix(w.agency);
    req.set_gender(v1::GENDER_FEMALE);
    req.mutable_birth_date()->set_year(1995);
    req.mutable_birth_date()->set_month(3);
    req.mutable_birth_date()->set_day(4);
    req.mutable_initial_rank()->set_notation(w.rank);
    v1::RegisterPlayerResponse resp;
    const grpc::Status s =
        players_->RegisterPlayer(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }

  // Stores the ratings of who_ (ids_) and of `more` as one recompute.
  void StoreRatings(const std::vector<std::pair<int64_t, Who>>& more = {}) {
    std::vector<std::pair<int64_t, Who>> all = more;
    for (size_t i = 0; i < who_.size(); ++i) all.push_back({ids_[i], who_[i]});
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    ratings::RatingSnapshot s;
    s.events = {kSep, kNov, kDec};
    for (const auto& [id, w] : all) {
      ratings::PlayerRating r;
      r.player = ratings::PlayerId{id};
      r.gor = w.gor;
      r.rated_games = w.last ? 5 : 0;
      r.rated_events = w.last ? 1 : 0;
      r.pro_elo = w.pro;
      r.pro_games = w.pro ? 2 : 0;
      s.players.push_back(r);
      if (!w.last) continue;
      ratings::RatingChange c;
      c.event = *w.last == kSep.date   ? kSep
                : *w.last == kNov.date ? kNov
                                       : kDec;
      c.gor_before = w.gor - 20;
      c.gor_after = w.gor;
      c.games = 5;
      s.history.push_back({r.player, c});
    }
    s.table_sha256 = "seeded-" + std::to_string(all.size());
    const absl::Status stored = repo_->ReplaceAll(
        s, ChangeRecord{1765339200, "test", "ratings.recompute", "ratings", "",
                        "{}"});
    ASSERT_TRUE(stored.ok()) << stored;
  }

  v1::ListRatingsResponse Listed(v1::ListRatingsRequest req) {
    v1::ListRatingsResponse resp;
    const grpc::Status s = ratings_->ListRatings(Context("").get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }
  static std::vector<int64_t> IdsOf(const v1::ListRatingsResponse& r) {
    std::vector<int64_t> out;
    for (const v1::PlayerRating& p : r.ratings()) out.push_back(p.player_id());
    return out;
  }
  int64_t Id(const std::string& name) const {
    for (size_t i = 0; i < who_.size(); ++i) {
      if (who_[i].name == name) return ids_[i];
    }
    ADD_FAILURE() << name;
    return 0;
  }

  std::unique_ptr<v1::RatingService::Stub> ratings_;
  std::unique_ptr<storage::SqlRatingRepository> repo_;
  std::vector<Who> who_;
  std::vector<int64_t> ids_;
};

TEST_F(WebRatingsTest, PageShowsTheListWithPlacesAndPlayerLinks) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto r = Get("/ratings");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  const std::string& page = r->body;
  // 2350.5, 2200 twice (by id), 2150, 2050, 1550; the fixture's 张三 has no
  // rating.
  const std::vector<int64_t> order = {Id("李雷"),   Id("赵强"), Id("周杰"),
                                      Id("韩梅梅"), Id("孙丽"), Id("王芳")};
  EXPECT_EQ(RowIds(page), order);
  EXPECT_EQ(RowIds(page), IdsOf(Listed(v1::ListRatingsRequest())));
  EXPECT_TRUE(Has(page, "<title>等级分排名")) << page;
  EXPECT_TRUE(Has(page, "<caption>等级分排名 (名次 1–6)</caption>")) << page;
  EXPECT_TRUE(Has(page, "data-list=\"gor\"")) << page;
  EXPECT_TRUE(Has(page, "五子棋没有等级分")) << page;  // the note
  const std::string first = std::to_string(Id("李雷"));
  EXPECT_TRUE(Has(page, "<tr class=\"rating-row\" data-player=\"" + first +
                            "\"><td>1</td><td><a href=\"/players/" + first +
                            "?lang=zh\">李雷</a></td>"))
      << page;
  EXPECT_TRUE(Has(page, "<td>业余3段</td><td class=\"rating\">2350.5</td>"))
      << page;
  EXPECT_TRUE(Has(page, "<td>2025-12-05</td></tr>")) << page;
  const std::string last = std::to_string(Id("王芳"));
  EXPECT_TRUE(Has(page, "data-player=\"" + last + "\"><td>6</td>")) << page;
  for (int64_t id : order) {
    EXPECT_TRUE(
        Has(page, "href=\"/players/" + std::to_string(id) + "?lang=zh\""));
  }
  EXPECT_FALSE(Has(page, "id=\"next-page\"")) << page;
  EXPECT_FALSE(Has(page, kResidentId));
  EXPECT_EQ(Href(page, "download-csv"), "/ratings.csv?lang=zh");
  EXPECT_EQ(Href(page, "download-xlsx"), "/ratings.xlsx?lang=zh");

  // English: Latin names where there is one, links keep the language.
  auto en = Get("/ratings?lang=en");
  ASSERT_TRUE(en);
  EXPECT_EQ(en->status, 200);
  EXPECT_TRUE(Has(en->body, "<caption>Rating list (places 1–6)</caption>"))
      << en->body;
  EXPECT_TRUE(Has(en->body, "href=\"/players/" + first + "?lang=en\">Li Lei"))
      << en->body;
  EXPECT_TRUE(Has(en->body, ">孙丽</a>")) << en->body;  // no Latin name
  EXPECT_TRUE(Has(en->body, "<td>3 dan</td>")) << en->body;

  // The pro list: only players with a pro rating, by it.
  auto pro = Get("/ratings?list=pro");
  ASSERT_TRUE(pro);
  EXPECT_EQ(pro->status, 200);
  EXPECT_EQ(RowIds(pro->body), (std::vector<int64_t>{Id("李雷"), Id("赵强")}));
  EXPECT_TRUE(Has(pro->body, "<caption>职业等级分排名 (名次 1–2)</caption>"))
      << pro->body;
  EXPECT_TRUE(Has(pro->body, "<td class=\"rating\">2480.0</td>"));
  EXPECT_TRUE(Has(pro->body, "<option value=\"pro\" selected>"));
}

TEST_F(WebRatingsTest, FiltersNarrowTheRowsAndTheFormShowsThem) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  // Agency 110, 1k..3d, a rated event in the last 3 months (since
  // 2025-09-10): 李雷 and 周杰; 孙丽 (1k) has no rated event, 王芳 (5k) is
  // below and last rated on 2025-09-01.
  auto r = Get("/ratings?agency=110&min_rank=1k&max_rank=3d&active=3");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(RowIds(r->body), (std::vector<int64_t>{Id("李雷"), Id("周杰")}));
  v1::ListRatingsRequest req;
  req.set_agency_prefix("110");
  req.mutable_min_rank()->set_notation("1k");
  req.mutable_max_rank()->set_notation("3d");
  req.set_active_months(3);
  EXPECT_EQ(RowIds(r->body), IdsOf(Listed(req)));
  EXPECT_TRUE(Has(r->body, "<option value=\"110\" selected>")) << r->body;
  EXPECT_TRUE(Has(r->body, "name=\"min_rank\" size=\"6\" value=\"1k\""));
  EXPECT_TRUE(Has(r->body, "name=\"max_rank\" size=\"6\" value=\"3d\""));
  EXPECT_TRUE(Has(r->body, "value=\"3\"></p>")) << r->body;
  EXPECT_TRUE(Has(r->body, "<label for=\"f-agency\">")) << r->body;
  EXPECT_EQ(Href(r->body, "download-csv"),
            "/ratings.csv?agency=110&min_rank=1k&max_rank=3d&active=3&lang=zh");

  // Chinese rank notation, one filter at a time.
  auto dan = Get("/ratings?min_rank=" + UrlEncode("业余2段"));
  ASSERT_TRUE(dan);
  ASSERT_EQ(dan->status, 200) << dan->body;
  EXPECT_EQ(RowIds(dan->body),
            (std::vector<int64_t>{Id("李雷"), Id("赵强"), Id("周杰")}));
  auto active = Get("/ratings?active=1");
  ASSERT_TRUE(active);
  EXPECT_EQ(
      RowIds(active->body),
      (std::vector<int64_t>{Id("李雷"), Id("赵强"), Id("周杰"), Id("韩梅梅")}));
  auto none = Get("/ratings?agency=120&list=pro");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 200);
  EXPECT_TRUE(RowIds(none->body).empty());
  EXPECT_TRUE(Has(none->body, "<p id=\"rating-none\">没有符合条件的棋手。</p>"))
      << none->body;
}

// 60 more players in agency 140: the first page has 50, the next-page link
// keeps the filters and the second page goes on from place 51.
TEST_F(WebRatingsTest, NextPageLinkKeepsTheFiltersAndThePlaces) {
  std::vector<std::pair<int64_t, Who>> more;
  for (int i = 0; i < 60; ++i) {
    Who w{
        "选手" + std::to_string(i), "",           "140",    i % 2 ? "2k" : "4d",
        1000.0 + (i % 7) * 10,      std::nullopt, kDec.date};
    more.push_back({Register(w), w});
  }
  ASSERT_NO_FATAL_FAILURE(StoreRatings(more));
  v1::ListRatingsRequest all;
  all.set_agency_prefix("140");
  all.mutable_min_rank()->set_notation("5k");
  all.set_page_size(500);
  const std::vector<int64_t> want = IdsOf(Listed(all));
  ASSERT_EQ(want.size(), 60u);

  const std::string query = "?agency=140&min_rank=5k&active=2";
  auto one = Get("/ratings" + query);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->status, 200) << one->body;
  const std::vector<int64_t> first = RowIds(one->body);
  ASSERT_EQ(first.size(), 50u);
  EXPECT_TRUE(Has(one->body, "(名次 1–50)")) << one->body;
  EXPECT_FALSE(Has(one->body, "id=\"first-page\""));
  const std::string next = Href(one->body, "next-page");
  ASSERT_EQ(next.rfind("/ratings" + query + "&page_token=", 0), 0u) << next;

  auto two = Get(next);
  ASSERT_TRUE(two);
  ASSERT_EQ(two->status, 200) << two->body;
  const std::vector<int64_t> second = RowIds(two->body);
  ASSERT_EQ(second.size(), 10u);
  EXPECT_TRUE(Has(two->body, "(名次 51–60)")) << two->body;
  EXPECT_TRUE(Has(two->body, "data-player=\"" + std::to_string(second[0]) +
                                 "\"><td>51</td>"));
  EXPECT_TRUE(Has(two->body, "<option value=\"140\" selected>"));
  EXPECT_EQ(Href(two->body, "first-page"), "/ratings" + query + "&lang=zh");
  EXPECT_EQ(Href(two->body, "next-page"), "");
  std::vector<int64_t> seen = first;
  seen.insert(seen.end(), second.begin(), second.end());
  EXPECT_EQ(seen, want);

  // The token is bound to its filters: with another agency it is refused.
  const std::string token = next.substr(next.find("page_token="));
  auto other = Get("/ratings?agency=110&" + token);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 400);
}

TEST_F(WebRatingsTest, CsvHasTheBomAHeaderAndOneRowPerPlayer) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto r = Get("/ratings.csv?agency=110");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/csv; charset=utf-8");
  EXPECT_EQ(r->get_header_value("Content-Disposition"),
            "attachment; filename=\"ratings-gor.csv\"");
  ASSERT_EQ(r->body.rfind("\xEF\xBB\xBF", 0), 0u) << "no UTF-8 BOM";
  const std::vector<std::string> lines = Lines(r->body.substr(3));
  v1::ListRatingsRequest req;
  req.set_agency_prefix("110");
  const std::vector<int64_t> want = IdsOf(Listed(req));
  ASSERT_EQ(want.size(), 4u);
  ASSERT_EQ(lines.size(), want.size() + 1) << r->body;
  EXPECT_EQ(lines[0],
            "名次,棋手编号,棋手,拼音姓名,单位代码,单位,段位,等级分,"
            "对应段位,对局数,最近对局");
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(
        lines[i + 1].rfind(
            std::to_string(i + 1) + "," + std::to_string(want[i]) + ",", 0),
        0u)
        << lines[i + 1];
  }
  EXPECT_EQ(lines[1].rfind(",2025-12-05"), lines[1].size() - 11) << lines[1];
  EXPECT_TRUE(Has(lines[1], ",李雷,Li Lei,110,")) << lines[1];
  EXPECT_TRUE(Has(lines[1], ",2350.5,")) << lines[1];

  // A Latin name with a comma is quoted; English headers with lang=en.
  auto en = Get("/ratings.csv?agency=120&lang=en");
  ASSERT_TRUE(en);
  ASSERT_EQ(en->status, 200);
  const std::vector<std::string> en_lines = Lines(en->body.substr(3));
  ASSERT_EQ(en_lines.size(), 2u) << en->body;
  EXPECT_EQ(en_lines[0].rfind("Place,Player id,Player,Latin name,", 0), 0u);
  EXPECT_TRUE(Has(en_lines[1], ",\"Han, Meimei\",")) << en_lines[1];
}

TEST_F(WebRatingsTest, XlsxIsAWorkbookDownload) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto r = Get("/ratings.xlsx?list=pro");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"),
            "application/vnd.openxmlformats-officedocument.spreadsheetml."
            "sheet");
  EXPECT_EQ(r->get_header_value("Content-Disposition"),
            "attachment; filename=\"ratings-pro.xlsx\"");
  ASSERT_GT(r->body.size(), 100u);
  EXPECT_EQ(r->body.substr(0, 4), std::string("PK\x03\x04", 4));
  EXPECT_TRUE(Has(r->body, "xl/worksheets/sheet1.xml"));
}

TEST_F(WebRatingsTest, GomokuAndMalformedQueriesAreRefused) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  for (const char* path :
       {"/ratings?discipline=gomoku", "/ratings.csv?discipline=gomoku",
        "/ratings.xlsx?discipline=gomoku"}) {
    auto r = Get(path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << path;
    EXPECT_TRUE(Has(r->body, "五子棋没有等级分：等级分排名只有围棋。"))
        << path << r->body;
  }
  auto en = Get("/ratings?discipline=gomoku&lang=en");
  ASSERT_TRUE(en);
  EXPECT_EQ(en->status, 400);
  EXPECT_TRUE(Has(en->body,
                  "Gomoku has no rating system: the rating lists are Go only."))
      << en->body;
  auto api = Get("/api/v1/ratings?discipline=gomoku&lang=en");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 400);
  const nlohmann::json j = nlohmann::json::parse(api->body);
  EXPECT_EQ(j["code"], "INVALID_ARGUMENT");
  EXPECT_TRUE(Has(j["message"].get<std::string>(), "Gomoku has no rating"));
  // gRPC says so too.
  v1::ListRatingsRequest gomoku;
  gomoku.set_discipline(v1::DISCIPLINE_GOMOKU);
  v1::ListRatingsResponse resp;
  const grpc::Status s =
      ratings_->ListRatings(Context("").get(), gomoku, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(Has(s.error_message(), "Gomoku has no rating system"))
      << s.error_message();
  auto go = Get("/ratings?discipline=go");
  ASSERT_TRUE(go);
  EXPECT_EQ(go->status, 200);

  auto list = Get("/ratings?list=elo");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->status, 400);
  EXPECT_TRUE(Has(list->body, "榜单须为 gor 或 pro。")) << list->body;
  for (const char* bad : {"abc", "-1", "601", "3x"}) {
    auto r = Get(std::string("/ratings?active=") + bad);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
    EXPECT_TRUE(Has(r->body, "须为 0 到 600 的整数")) << bad;
  }
  for (const char* bad : {"2025-13", "2025-1", "dec-2025", "2025-12-01"}) {
    auto r = Get(std::string("/ratings?month=") + bad + "&lang=en");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
    EXPECT_TRUE(Has(r->body, "month must be a month as YYYY-MM")) << r->body;
    auto zh = Get(std::string("/ratings?month=") + bad);
    ASSERT_TRUE(zh);
    EXPECT_EQ(zh->status, 400) << bad;
  }
  auto rank = Get("/ratings?min_rank=5d&max_rank=1k");
  ASSERT_TRUE(rank);
  EXPECT_EQ(rank->status, 400);
  auto agency = Get("/ratings?agency=11");
  ASSERT_TRUE(agency);
  EXPECT_EQ(agency->status, 400);
}

// The server started on 2025-12-10 (the first watched month); on
// 2026-01-05 the December list is kept, listed and served unchanged after
// the table changes; November (before the first watched month) and January
// (not ended) are 404.
TEST_F(WebRatingsTest, AKeptMonthIsListedAndStaysTheSame) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto early = Get("/ratings?month=2025-12&lang=en");
  ASSERT_TRUE(early);
  EXPECT_EQ(early->status, 404);
  EXPECT_TRUE(Has(early->body, "once the month has ended")) << early->body;

  s_->clock().SetDate(Date{2026, 1, 5});
  auto months = Get("/api/v1/ratings/months");
  ASSERT_TRUE(months);
  ASSERT_EQ(months->status, 200);
  const nlohmann::json m = nlohmann::json::parse(months->body);
  ASSERT_EQ(m["months"].size(), 1u) << months->body;
  EXPECT_EQ(m["months"][0]["month"], "2025-12");
  EXPECT_EQ(m["months"][0]["players"], "6");  // int64 as a JSON string
  EXPECT_EQ(m["months"][0]["pro_players"], "2");

  auto dec = Get("/ratings?month=2025-12");
  ASSERT_TRUE(dec);
  ASSERT_EQ(dec->status, 200) << dec->body;
  EXPECT_TRUE(Has(dec->body, "data-month=\"2025-12\"")) << dec->body;
  EXPECT_TRUE(
      Has(dec->body, "<caption>2025-12 等级分排名（月度排名） (名次 1–6)"))
      << dec->body;
  EXPECT_TRUE(Has(dec->body, "<option value=\"2025-12\" selected>"));
  const std::vector<int64_t> kept_rows = RowIds(dec->body);
  ASSERT_EQ(kept_rows.size(), 6u);
  auto dec_en = Get("/ratings?month=2025-12&lang=en");
  ASSERT_TRUE(dec_en);
  EXPECT_TRUE(Has(dec_en->body,
                  "<caption>Rating list of 2025-12 (places 1–6)</caption>"))
      << dec_en->body;
  EXPECT_TRUE(Has(dec_en->body, "<title>Rating list of 2025-12"))
      << dec_en->body;

  // Later: 王芳 rated far above everyone, 李雷 far below.
  who_[2].gor = 2900.0;
  who_[0].gor = 100.0;
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto now = Get("/ratings");
  ASSERT_TRUE(now);
  EXPECT_EQ(RowIds(now->body).front(), Id("王芳"));
  auto again = Get("/ratings?month=2025-12");
  ASSERT_TRUE(again);
  ASSERT_EQ(again->status, 200);
  EXPECT_EQ(RowIds(again->body), kept_rows);
  EXPECT_TRUE(Has(again->body, "<td class=\"rating\">2350.5</td>"));
  auto csv = Get("/ratings.csv?month=2025-12");
  ASSERT_TRUE(csv);
  ASSERT_EQ(csv->status, 200);
  EXPECT_EQ(csv->get_header_value("Content-Disposition"),
            "attachment; filename=\"ratings-gor-2025-12.csv\"");
  EXPECT_EQ(Lines(csv->body.substr(3)).size(), 7u);

  for (const char* month : {"2025-11", "2026-01"}) {
    auto r = Get(std::string("/ratings?month=") + month);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404) << month;
  }
}

TEST_F(WebRatingsTest, JsonTwinEqualsTheGrpcAnswer) {
  ASSERT_NO_FATAL_FAILURE(StoreRatings());
  auto api = Get("/api/v1/ratings?agency=110&active=6");
  ASSERT_TRUE(api);
  ASSERT_EQ(api->status, 200) << api->body;
  EXPECT_EQ(api->get_header_value("Content-Type"),
            "application/json; charset=utf-8");
  v1::ListRatingsRequest req;
  req.set_agency_prefix("110");
  req.set_active_months(6);
  const v1::ListRatingsResponse grpc_answer = Listed(req);
  ASSERT_EQ(grpc_answer.ratings_size(), 3);  // not the import
  std::string json;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  ASSERT_TRUE(
      google::protobuf::util::MessageToJsonString(grpc_answer, &json, opts)
          .ok());
  EXPECT_EQ(nlohmann::json::parse(api->body), nlohmann::json::parse(json));
  const nlohmann::json j = nlohmann::json::parse(api->body);
  EXPECT_EQ(j["first_position"], "1");
  EXPECT_EQ(j["ratings"][0]["name"], "李雷");
  EXPECT_EQ(j["ratings"][0]["agency_prefix"], "110");
  EXPECT_EQ(j["ratings"][0]["rank"]["notation"], "3d");
  EXPECT_EQ(j["ratings"][0]["last_rated"]["year"], 2025);
  EXPECT_FALSE(Has(api->body, "resident_id"));
  EXPECT_FALSE(Has(api->body, "birth_date"));
}

}  // namespace
}  // namespace gorank::web
