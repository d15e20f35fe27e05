// The pure side of the player page, the rating graph and the search page:
// proto answers in, escaped HTML / SVG / JSON out (no server).
#include "services/web/player_page.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/web/rating_graph.h"
#include "services/web/search_page.h"

namespace gorank::web {
namespace {

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

v1::RatingChange Change(int y, int m, int d, double before, double after,
                        const std::string& event) {
  v1::RatingChange c;
  c.set_event_id(event);
  c.mutable_event_date()->set_year(y);
  c.mutable_event_date()->set_month(m);
  c.mutable_event_date()->set_day(d);
  c.set_gor_before(before);
  c.set_gor_after(after);
  c.set_games(3);
  return c;
}

v1::Rank Rank(int ladder, int level, const std::string& notation) {
  v1::Rank r;
  r.set_ladder(static_cast<v1::RankLadder>(ladder));
  r.set_level(level);
  r.set_notation(notation);
  return r;
}

TEST(RatingGraphTest, GradesOfRatingsFollowTheEgfBands) {
  struct Case {
    double gor;
    int ladder, level;
  };
  for (const Case& c :
       {Case{2050, 2, 1}, Case{2149.9, 2, 1}, Case{2150, 2, 2},
        Case{2700, 2, 7}, Case{2049.9, 1, 1}, Case{1950, 1, 1},
        Case{1949.9, 1, 2}, Case{-900, 1, 30}, Case{-2000, 1, 30}}) {
    SCOPED_TRACE(c.gor);
    EXPECT_EQ(GradeOfRating(c.gor).ladder, c.ladder);
    EXPECT_EQ(GradeOfRating(c.gor).level, c.level);
  }
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(2025, 12, 10) - DaysFromCivil(2025, 11, 30), 10);
}

TEST(RatingGraphTest, DrawsAxesDatesBandsAndOnePointPerEvent) {
  const std::vector<v1::RatingChange> changes = {
      Change(2025, 1, 5, 2100, 2120, "3"), Change(2025, 6, 1, 2120, 2190, "7"),
      Change(2025, 11, 30, 2190, 2160, "9")};
  const std::string svg = RatingGraphSvg(Lang::kZh, changes);
  EXPECT_EQ(svg.rfind("<svg id=\"rating-graph\"", 0), 0u) << svg;
  EXPECT_TRUE(Has(svg, "viewBox=\"0 0 400.0 240.0\"")) << svg;
  EXPECT_TRUE(Has(svg, "width=\"100%\"")) << svg;
  EXPECT_TRUE(Has(svg, "role=\"img\"")) << svg;
  EXPECT_TRUE(Has(svg, "aria-label=\"")) << svg;
  EXPECT_TRUE(Has(svg, "<title id=\"rating-graph-title\">")) << svg;
  EXPECT_EQ(Count(svg, "class=\"point\""), 3u) << svg;
  EXPECT_TRUE(Has(svg, "data-gor=\"2190.0\"")) << svg;
  EXPECT_TRUE(Has(svg, "<polyline class=\"rating-line\"")) << svg;
  // Bands 2050..2250: 1d and 2d, edges labelled.
  EXPECT_EQ(Count(svg, "class=\"band\""), 2u) << svg;
  EXPECT_TRUE(Has(svg, ">业余1段</text>")) << svg;
  EXPECT_TRUE(Has(svg, ">业余2段</text>")) << svg;
  EXPECT_TRUE(Has(svg, ">2050</text>")) << svg;
  EXPECT_TRUE(Has(svg, ">2250</text>")) << svg;
  // First, last and a date between.
  EXPECT_TRUE(Has(svg, ">2025-01-05</text>")) << svg;
  EXPECT_TRUE(Has(svg, ">2025-11-30</text>")) << svg;
  EXPECT_EQ(Count(svg, "class=\"x-tick\""), 3u) << svg;
  EXPECT_FALSE(Has(svg, "<script")) << svg;
  const std::string en = RatingGraphSvg(Lang::kEn, changes);
  EXPECT_TRUE(Has(en, ">2 dan</text>")) << en;
  EXPECT_TRUE(Has(en, "GoR rating over time")) << en;
  EXPECT_EQ(RatingGraphSvg(Lang::kZh, {}), "");
}

TEST(RatingGraphTest, OneEventAndWideRangesStayReadable) {
  const std::string one =
      RatingGraphSvg(Lang::kEn, {Change(2025, 3, 1, 1000, 1020, "1")});
  EXPECT_EQ(Count(one, "class=\"point\""), 1u) << one;
  EXPECT_EQ(Count(one, "class=\"x-tick\""), 1u) << one;
  EXPECT_TRUE(Has(one, ">11 kyu</text>")) << one;
  // 30k to 7d: 36 bands, at most 10 labels.
  const std::string wide =
      RatingGraphSvg(Lang::kEn, {Change(2020, 1, 1, -900, -900, "1"),
                                 Change(2025, 1, 1, -900, 2700, "2")});
  EXPECT_EQ(Count(wide, "class=\"band\""), 37u) << wide;
  EXPECT_LE(Count(wide, "class=\"band-label\""), 10u) << wide;
}

PlayerView SampleView() {
  PlayerView v;
  v.player.set_id(12);
  v.player.set_name("柯<洁>");
  v.player.set_latin_name("Ke Jie");
  v.player.set_agency_prefix("110");
  v.player.set_has_resident_id(true);
  *v.player.mutable_rank() = Rank(2, 2, "2d");
  v.agency.set_prefix("110");
  v.agency.set_name("北京市");
  v.agency.set_name_en("Beijing");
  v1::RankHistoryEntry h;
  h.mutable_effective_date()->set_year(2025);
  h.mutable_effective_date()->set_month(12);
  h.mutable_effective_date()->set_day(10);
  *h.mutable_from_rank() = Rank(1, 1, "1k");
  *h.mutable_to_rank() = Rank(2, 1, "1d");
  h.set_reason(v1::RANK_CHANGE_REASON_CERTIFICATE);
  h.set_basis("certificate 11025****");
  v.history.push_back(h);
  h.set_reason(v1::RANK_CHANGE_REASON_PROMOTION);
  *h.mutable_from_rank() = Rank(2, 1, "1d");
  *h.mutable_to_rank() = Rank(2, 2, "2d");
  h.set_basis("promotion 4 (am.rating)");
  v.history.push_back(h);
  v.has_rating = true;
  v.rating.set_gor(2163.25);
  *v.rating.mutable_grade() = Rank(2, 2, "2d");
  v.rating.set_rated_games(3);
  v.rating.set_rated_events(1);
  v.rating_history = {Change(2025, 12, 1, 2100, 2163.25, "5")};
  v1::Event e;
  e.set_id(5);
  e.set_name("Club & Open");
  e.mutable_start()->set_year(2025);
  e.mutable_start()->set_month(12);
  e.mutable_start()->set_day(1);
  v.events.push_back(e);
  e.set_id(4);
  e.set_name("Autumn Cup");
  v.events.push_back(e);
  v1::PlayerPlace p;
  p.set_event_id(5);
  p.set_place(1);
  p.set_state(v1::PLACE_STATE_SHARED);
  v.places.push_back(p);
  return v;
}

TEST(PlayerPageTest, BodyShowsRanksHistoryRatingAndEvents) {
  const PlayerView v = SampleView();
  const std::string zh = PlayerBody(Lang::kZh, v);
  EXPECT_TRUE(Has(zh, "data-player=\"12\"")) << zh;
  EXPECT_TRUE(Has(zh, "柯&lt;洁&gt;")) << zh;
  EXPECT_FALSE(Has(zh, "柯<洁>")) << zh;
  EXPECT_TRUE(Has(zh, "<span id=\"latin-name\" lang=\"zh-Latn\">Ke Jie")) << zh;
  EXPECT_TRUE(Has(zh, "北京市 (110)")) << zh;
  EXPECT_TRUE(Has(zh, "<span id=\"go-rank\">业余2段</span>")) << zh;
  EXPECT_TRUE(Has(zh, "<span id=\"gomoku-rank\">无</span>")) << zh;
  EXPECT_EQ(Count(zh, "class=\"rank-change\""), 2u) << zh;
  EXPECT_TRUE(Has(zh, "certificate 11025****")) << zh;
  EXPECT_TRUE(Has(zh, "<td>证书</td>")) << zh;
  EXPECT_TRUE(Has(zh, "<td>晋升</td>")) << zh;
  EXPECT_TRUE(Has(zh, "id=\"numbers-masked\"")) << zh;
  EXPECT_TRUE(Has(zh, "<span id=\"gor\">2163.2</span>") ||
              Has(zh, "<span id=\"gor\">2163.3</span>"))
      << zh;
  EXPECT_TRUE(Has(zh, "id=\"rating-graph\"")) << zh;
  EXPECT_EQ(Count(zh, "class=\"rating-point\""), 1u) << zh;
  // The rating table names the event and links to it.
  EXPECT_TRUE(Has(zh, "<a href=\"/events/5?lang=zh\">Club &amp; Open</a>"))
      << zh;
  EXPECT_TRUE(Has(zh, "data-event=\"5\" data-place=\"1\"")) << zh;
  EXPECT_TRUE(Has(zh, "并列第1名")) << zh;
  EXPECT_TRUE(Has(zh, "data-event=\"4\"><td>")) << zh;
  EXPECT_TRUE(Has(zh, "<caption>")) << zh;
  EXPECT_TRUE(Has(zh, "tabindex=\"0\"")) << zh;
  const std::string en = PlayerBody(Lang::kEn, v);
  EXPECT_TRUE(Has(en, "Beijing (110)")) << en;
  EXPECT_TRUE(Has(en, "<td>promotion</td>")) << en;
  EXPECT_TRUE(Has(en, "1= (shared)")) << en;
  EXPECT_TRUE(Has(en, "/events/4?lang=en")) << en;
}

TEST(PlayerPageTest, NoRatingNoHistoryNoEvents) {
  PlayerView v;
  v.player.set_id(3);
  v.player.set_name("新人");
  const std::string zh = PlayerBody(Lang::kZh, v);
  EXPECT_TRUE(Has(zh, "id=\"rating-none\"")) << zh;
  EXPECT_TRUE(Has(zh, "id=\"history-none\"")) << zh;
  EXPECT_TRUE(Has(zh, "id=\"events-none\"")) << zh;
  EXPECT_FALSE(Has(zh, "<svg")) << zh;
}

TEST(PlayerPageTest, JsonHasEveryPartAndNoResidentIdFlag) {
  const std::string text = PlayerJson(SampleView());
  EXPECT_FALSE(Has(text, "resident_id")) << text;
  EXPECT_FALSE(Has(text, "birth_date")) << text;
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["player"]["id"], "12");  // int64 in proto JSON: a string
  EXPECT_EQ(j["agency"]["name_en"], "Beijing");
  EXPECT_EQ(j["rank_history"].size(), 2u);
  EXPECT_EQ(j["rating"]["rated_games"], "3");
  EXPECT_EQ(j["rating_history"].size(), 1u);
  ASSERT_EQ(j["events"].size(), 2u);
  EXPECT_EQ(j["events"][0]["place"]["place"], 1);
  EXPECT_FALSE(j["events"][1].contains("place"));
  EXPECT_EQ(j["more_events"], false);
}

TEST(SearchPageTest, FormIsLabelledAndKeepsTheLanguage) {
  const std::string zh = SearchForm(Lang::kZh, "a\"b");
  EXPECT_TRUE(Has(zh, "role=\"search\"")) << zh;
  EXPECT_TRUE(Has(zh, "action=\"/search\"")) << zh;
  EXPECT_TRUE(Has(zh, "<label for=\"search-q\">")) << zh;
  EXPECT_TRUE(Has(zh, "id=\"search-q\" name=\"q\" value=\"a&quot;b\"")) << zh;
  EXPECT_FALSE(Has(zh, "name=\"lang\"")) << zh;
  const std::string en = SearchForm(Lang::kEn, "", "header-q");
  EXPECT_TRUE(Has(en, "<label for=\"header-q\">")) << en;
  EXPECT_TRUE(Has(en, "name=\"lang\" value=\"en\"")) << en;
}

TEST(SearchPageTest, BodyLinksPlayersAndEvents) {
  SearchView v;
  v.query = "ke jie";
  v1::Player p;
  p.set_id(7);
  p.set_name("柯洁");
  p.set_latin_name("Ke Jie");
  p.set_agency_prefix("110");
  p.set_has_resident_id(true);
  v.players.push_back(p);
  v1::Agency a;
  a.set_prefix("110");
  a.set_name("北京市");
  v.agencies.push_back(a);
  v1::Event e;
  e.set_id(9);
  e.set_name("Ke Jie Cup");
  e.set_organiser_prefix("110");
  v.events.push_back(e);
  const std::string zh = SearchBody(Lang::kZh, v);
  EXPECT_TRUE(Has(zh, "<a href=\"/players/7?lang=zh\">柯洁</a>")) << zh;
  EXPECT_TRUE(Has(zh, "北京市 (110)")) << zh;
  EXPECT_TRUE(Has(zh, "<a href=\"/events/9?lang=zh\">Ke Jie Cup</a>")) << zh;
  EXPECT_TRUE(Has(zh, "value=\"ke jie\"")) << zh;
  const std::string text = SearchJson(v);
  EXPECT_FALSE(Has(text, "resident_id")) << text;
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j["players"][0]["name"], "柯洁");
  EXPECT_EQ(j["events"][0]["id"], 9);
  // No query: the form and the hint only.
  const std::string empty = SearchBody(Lang::kEn, SearchView{});
  EXPECT_TRUE(Has(empty, "id=\"search-hint\"")) << empty;
  EXPECT_FALSE(Has(empty, "search-players")) << empty;
}

}  // namespace
}  // namespace gorank::web
