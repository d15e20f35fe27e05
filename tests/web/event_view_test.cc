// The tournament pages' rendering (event_view.h) from hand-made answers:
// place texts for every place state, EGF cells for every kind of result,
// escaping, the links to registered players only, a double round robin's
// two results in one cell, the list's next-page link keeping the filters.
#include "services/web/event_view.h"

#include <string>

#include "gtest/gtest.h"

namespace gorank::web {
namespace {

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

v1::StandingRow* Row(v1::Standings& s, int id, int place, v1::PlaceState st) {
  v1::StandingRow* r = s.add_rows();
  r->set_id(id);
  r->set_place(place);
  r->set_state(st);
  r->set_name("P" + std::to_string(id));
  return r;
}

TEST(EventViewTest, PlaceTextForEveryState) {
  v1::Standings s;
  Row(s, 1, 1, v1::PLACE_STATE_ALONE);
  Row(s, 2, 2, v1::PLACE_STATE_SHARED);
  Row(s, 3, 2, v1::PLACE_STATE_SHARED);
  Row(s, 4, 2, v1::PLACE_STATE_SHARED);
  Row(s, 5, 5, v1::PLACE_STATE_PENDING_PLAYOFF);
  Row(s, 6, 5, v1::PLACE_STATE_PENDING_PLAYOFF);
  Row(s, 7, 7, v1::PLACE_STATE_BY_PLAYOFF);
  Row(s, 8, 8, v1::PLACE_STATE_BY_LOTS);
  EXPECT_EQ(PlaceText(Lang::kZh, s, 0), "1");
  EXPECT_EQ(PlaceText(Lang::kZh, s, 2), "2–4（并列）");
  EXPECT_EQ(PlaceText(Lang::kEn, s, 3), "2–4 (shared)");
  EXPECT_EQ(PlaceText(Lang::kZh, s, 4), "待加赛（5–6）");
  EXPECT_EQ(PlaceText(Lang::kEn, s, 5), "play-off pending (5–6)");
  EXPECT_EQ(PlaceText(Lang::kEn, s, 6), "7 (by play-off)");
  EXPECT_EQ(PlaceText(Lang::kZh, s, 7), "8（抽签决定）");
}

v1::Game* AddGame(v1::EventResults& r, int round, int black, int white,
                  v1::GameOutcome o) {
  v1::Game* g = r.add_games();
  g->set_round(round);
  g->set_black_entrant_id(black);
  g->set_white_entrant_id(white);
  g->set_colours_known(true);
  g->set_outcome(o);
  return g;
}

TEST(EventViewTest, EgfCells) {
  v1::EventResults r;
  AddGame(r, 1, 1, 2, v1::GAME_OUTCOME_WHITE_WINS)->set_handicap(3);
  AddGame(r, 2, 1, 3, v1::GAME_OUTCOME_DRAW)->set_colours_known(false);
  AddGame(r, 3, 1, 4, v1::GAME_OUTCOME_BLACK_WINS)->set_forfeit(true);
  AddGame(r, 4, 1, 2, v1::GAME_OUTCOME_UNSPECIFIED);
  AddGame(r, 5, 1, 3, v1::GAME_OUTCOME_BOTH_LOSE)->set_forfeit(true);
  v1::Bye* b = r.add_byes();
  b->set_round(6);
  b->set_entrant_id(1);
  b->set_points(2);
  b = r.add_byes();
  b->set_round(7);
  b->set_entrant_id(1);
  b->set_points(1);
  // Row numbers: entrant 2 is row 12, 3 is 5, 4 is 7, 1 is 1.
  const std::map<int, int> rows = {{1, 1}, {2, 12}, {3, 5}, {4, 7}};
  EXPECT_EQ(EgfCell(r, 1, 1, rows), "12-/b3");
  EXPECT_EQ(EgfCell(r, 2, 1, rows), "1+/w3");
  EXPECT_EQ(EgfCell(r, 1, 2, rows), "5=/?");
  EXPECT_EQ(EgfCell(r, 1, 3, rows), "7+!");
  EXPECT_EQ(EgfCell(r, 4, 3, rows), "1-!");
  EXPECT_EQ(EgfCell(r, 1, 4, rows), "12?/b");
  EXPECT_EQ(EgfCell(r, 3, 5, rows), "1-!");
  EXPECT_EQ(EgfCell(r, 1, 6, rows), "0+");
  EXPECT_EQ(EgfCell(r, 1, 7, rows), "0=");
  EXPECT_EQ(EgfCell(r, 1, 8, rows), "0-");
}

TEST(EventViewTest, EventPageEscapesAndLinksOnlyRegisteredPlayers) {
  v1::Event e;
  e.set_id(9);
  e.set_name("<script>x</script> Cup");
  e.mutable_format()->set_kind(v1::FORMAT_KIND_ROUND_ROBIN);
  e.mutable_format()->set_cycles(2);
  v1::EventResults r;
  v1::Entrant* a = r.add_entrants();
  a->set_id(1);
  a->set_family_name("Ann & Co");
  a->set_player_id(77);
  v1::Entrant* g = r.add_entrants();
  g->set_id(2);
  g->set_family_name("<b>Guest</b>");
  AddGame(r, 1, 1, 2, v1::GAME_OUTCOME_BLACK_WINS);
  AddGame(r, 2, 2, 1, v1::GAME_OUTCOME_DRAW);
  v1::Standings s;
  s.set_status(v1::STANDINGS_STATUS_FINAL);
  s.add_criteria_names("points");
  s.add_criteria_names("A");
  v1::StandingRow* row = Row(s, 1, 1, v1::PLACE_STATE_ALONE);
  row->set_name("Ann & Co");
  row->add_criteria()->set_display("3");
  row->add_criteria()->set_display("5");
  row = Row(s, 2, 2, v1::PLACE_STATE_ALONE);
  row->set_name("<b>Guest</b>");
  row->add_criteria()->set_display("1");
  row->add_criteria()->set_display("1");
  const std::string body = EventBody(Lang::kEn, e, r, s, EventDirectory{});
  EXPECT_FALSE(Has(body, "<script>")) << body;
  EXPECT_FALSE(Has(body, "<b>")) << body;
  EXPECT_TRUE(Has(body, "&lt;script&gt;x&lt;/script&gt; Cup")) << body;
  EXPECT_TRUE(Has(body, "href=\"/players/77?lang=en\">Ann &amp; Co</a>"))
      << body;
  EXPECT_EQ(body.find("href=\"/players/0"), std::string::npos) << body;
  EXPECT_TRUE(Has(body, "double round robin")) << body;
  // Both games of the double round robin in one cell, in round order.
  EXPECT_TRUE(Has(body, "data-vs=\"2\">1 ½</td>")) << body;
  EXPECT_TRUE(Has(body, "data-vs=\"1\">0 ½</td>")) << body;
  EXPECT_TRUE(Has(body,
                  "<th scope=\"col\" class=\"criterion\" "
                  "data-criterion=\"A\">A</th>"))
      << body;
  // Every table scrolls inside a focusable, labelled wrapper.
  EXPECT_TRUE(Has(body, "tabindex=\"0\" role=\"region\" aria-label=")) << body;
}

TEST(EventViewTest, NextPageKeepsTheFilters) {
  v1::ListEventsResponse page;
  v1::Event* e = page.add_events();
  e->set_id(5);
  e->set_name("Open");
  e->set_organiser_prefix("110");
  page.set_next_page_token("tok/+=");
  EventListQuery q;
  q.agency = "110";
  q.year = "2024";
  q.page_size = 2;
  EventDirectory names;
  v1::Agency* a = names.agencies.add_agencies();
  a->set_prefix("110");
  a->set_name("北京市围棋协会");
  a->set_name_en("Beijing");
  const std::string zh = EventListBody(Lang::kZh, q, page, names);
  EXPECT_TRUE(Has(zh, "北京市围棋协会 (110)")) << zh;
  EXPECT_TRUE(Has(zh,
                  "href=\"/events?page=tok%2F%2B%3D&amp;agency=110&amp;"
                  "year=2024&amp;page_size=2&amp;lang=zh\""))
      << zh;
  const std::string en = EventListBody(Lang::kEn, q, page, names);
  EXPECT_TRUE(Has(en, "Beijing (110)")) << en;
  EXPECT_TRUE(Has(en, "page_size=2&amp;lang=en\"")) << en;
  EXPECT_TRUE(Has(en, "name=\"lang\" value=\"en\"")) << en;
  EXPECT_TRUE(Has(en, "value=\"110\"")) << en;
}

}  // namespace
}  // namespace gorank::web
