// The public tournament pages (/events, /events/{id}, the result files and
// their /api/v1/ twins) against a real in-process rankd: a Swiss event's
// shared places and pending places as GetStandings gives them with every
// criterion as a column, the EGF cross table and the rounds, a round robin's
// player x player grid, a team event's boards, the EGF download equal to
// ExportResults, the list newest first, filtered and paged, precise errors
// in the page's language, and no personal data anywhere.
#include <string>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/web/html.h"
#include "tests/web/web_fixture.h"

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

// From `start` to the first `end` after it ("" when `start` is absent).
std::string Slice(const std::string& body, const std::string& start,
                  const std::string& end) {
  const size_t from = body.find(start);
  if (from == std::string::npos) return "";
  const size_t to = body.find(end, from);
  return body.substr(from, to == std::string::npos ? std::string::npos
                                                   : to + end.size() - from);
}

// The standings row of entrant (or team) `id`.
std::string StandingRow(const std::string& body, int id) {
  const std::string table = Slice(body, "id=\"standings-table\"", "</table>");
  const size_t at = table.find("data-id=\"" + std::to_string(id) + "\"");
  if (at == std::string::npos) return "";
  const size_t row = table.rfind("<tr", at);
  return Slice(table.substr(row == std::string::npos ? at : row), "<tr",
               "</tr>");
}

void ExpectNoPersonalData(const std::string& body) {
  EXPECT_FALSE(Has(body, kResidentId)) << body;
  EXPECT_FALSE(Has(body, "110105")) << body;
  for (const char* birth : {"1949-12-31", "19491231", "1949年12月", "1949/12"})
    EXPECT_FALSE(Has(body, birth)) << body;
  EXPECT_FALSE(Has(body, "resident_id")) << body;
  EXPECT_FALSE(Has(body, "birth_date")) << body;
}

class WebEventsTest : public WebFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartServer());
    events_ = v1::TournamentService::NewStub(channel_);
    zhang_id_ = cert_.player_id();
  }

  static v1::Event NewEvent(const std::string& name, v1::FormatKind kind,
                            const std::string& prefix = "000", int year = 2025,
                            int month = 11) {
    v1::Event e;
    e.set_name(name);
    e.mutable_start()->set_year(year);
    e.mutable_start()->set_month(month);
    e.mutable_start()->set_day(1);
    *e.mutable_end() = e.start();
    e.mutable_end()->set_day(2);
    e.set_organiser_prefix(prefix);
    e.set_city("杭州");
    e.set_country("CN");
    e.set_level(v1::EVENT_LEVEL_CITY);
    e.set_competition("club_event");
    e.set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e.set_highest_group(true);
    e.set_shared_places_allowed(true);
    e.mutable_format()->set_kind(kind);
    if (kind == v1::FORMAT_KIND_SWISS) e.mutable_format()->set_rounds(3);
    return e;
  }

  int64_t Create(const v1::Event& e) {
    v1::CreateEventRequest req;
    *req.mutable_event() = e;
    v1::CreateEventResponse resp;
    const grpc::Status s =
        events_->CreateEvent(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.event().id();
  }

  static v1::Entrant* AddEntrant(v1::EventResults& r, int id,
                                 const std::string& name,
                                 int64_t player_id = 0) {
    v1::Entrant* e = r.add_entrants();
    e->set_id(id);
    e->set_family_name(name);
    e->mutable_rank()->set_notation("1d");
    e->set_player_id(player_id);
    return e;
  }

  static void AddGame(v1::EventResults& r, int round, int black, int white,
                      v1::GameOutcome outcome = v1::GAME_OUTCOME_BLACK_WINS,
                      int board = 0) {
    v1::Game* g = r.add_games();
    g->set_round(round);
    g->set_board(board);
    g->set_black_entrant_id(black);
    g->set_white_entrant_id(white);
    g->set_colours_known(true);
    g->set_outcome(outcome);
  }

  v1::Standings Save(int64_t id, const v1::EventResults& r) {
    v1::SaveResultsRequest req;
    req.set_event_id(id);
    *req.mutable_results() = r;
    v1::SaveResultsResponse resp;
    const grpc::Status s =
        events_->SaveResults(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.standings();
  }

  // A Swiss of 2 rounds: 1 (张三, the seeded player) beats 2 and 3; 2 beats
  // 4 (a guest); 3 beats 4. 2 and 3 end equal on every criterion.
  int64_t Swiss(bool shared_allowed, v1::Standings* standings) {
    v1::Event e = NewEvent(shared_allowed ? "Shared Swiss" : "Pending Swiss",
                           v1::FORMAT_KIND_SWISS);
    e.set_shared_places_allowed(shared_allowed);
    e.mutable_format()->set_rounds(2);
    const int64_t id = Create(e);
    v1::EventResults r;
    AddEntrant(r, 1, "张三", zhang_id_);
    AddEntrant(r, 2, "李四", MustRegister("李四", "1d", "").id());
    AddEntrant(r, 3, "王五", MustRegister("王五", "1d", "").id());
    AddEntrant(r, 4, "Guest")->set_given_name("Gary");
    AddGame(r, 1, 1, 2);
    AddGame(r, 1, 3, 4);
    AddGame(r, 2, 3, 1, v1::GAME_OUTCOME_WHITE_WINS);
    AddGame(r, 2, 2, 4);
    *standings = Save(id, r);
    return id;
  }

  std::string Page(const std::string& path) {
    auto r = Get(path);
    EXPECT_TRUE(r);
    if (!r) return "";
    EXPECT_EQ(r->status, 200) << path << "\n" << r->body;
    ExpectNoPersonalData(r->body);
    return r->body;
  }

  std::unique_ptr<v1::TournamentService::Stub> events_;
  int64_t zhang_id_ = 0;  // the fixture's 张三, holder of cert_
};

TEST_F(WebEventsTest, SwissSharedPlacesAndEveryCriterion) {
  v1::Standings st;
  const int64_t id = Swiss(true, &st);
  ASSERT_EQ(st.status(), v1::STANDINGS_STATUS_FINAL);
  ASSERT_EQ(st.rows(1).state(), v1::PLACE_STATE_SHARED);
  const std::string body = Page("/events/" + std::to_string(id));
  EXPECT_TRUE(Has(body, "<html lang=\"zh-CN\">"));
  EXPECT_TRUE(Has(body, "id=\"event-name\">Shared Swiss</h2>")) << body;
  EXPECT_TRUE(Has(body, "2025-11-01 – 2025-11-02")) << body;
  EXPECT_TRUE(Has(body, "杭州, CN")) << body;
  EXPECT_TRUE(Has(body, "积分编排制")) << body;
  // Every criterion of the event's order is a column, as the domain names
  // it, with the value the domain gives.
  for (const std::string& c : st.criteria_names())
    EXPECT_TRUE(Has(body, "data-criterion=\"" + c + "\"")) << c;
  const std::string first = StandingRow(body, 1);
  EXPECT_TRUE(Has(first, "data-state=\"PLACE_STATE_ALONE\"")) << first;
  EXPECT_TRUE(Has(first, "href=\"/players/" + std::to_string(zhang_id_) +
                             "?lang=zh\">张三</a>"))
      << first;
  for (const v1::CriterionValue& v : st.rows(0).criteria())
    EXPECT_TRUE(Has(first, "<td class=\"criterion\">" + v.display() + "</td>"));
  for (int shared : {2, 3}) {
    const std::string row = StandingRow(body, shared);
    EXPECT_TRUE(Has(row, "class=\"row shared\"")) << row;
    EXPECT_TRUE(Has(row, "2–3（并列）")) << row;
  }
  // The guest is a plain name.
  const std::string guest = StandingRow(body, 4);
  EXPECT_TRUE(Has(guest, "Guest Gary")) << guest;
  EXPECT_FALSE(Has(guest, "href=")) << guest;

  // Cross table, EGF style: rows numbered in standings order (1 张三, 2 李四,
  // 3 王五, 4 Guest); rounds with each result.
  const std::string cross = Slice(body, "id=\"cross-rounds\"", "</table>");
  const std::string zhang = Slice(cross, "data-id=\"1\"", "</tr>");
  EXPECT_TRUE(Has(zhang, ">2+/b</td>")) << zhang;
  EXPECT_TRUE(Has(zhang, ">3+/w</td>")) << zhang;
  const std::string li = Slice(cross, "data-id=\"2\"", "</tr>");
  EXPECT_TRUE(Has(li, ">1-/w</td>")) << li;
  EXPECT_TRUE(Has(li, ">4+/b</td>")) << li;
  // Rounds: each round's boards, with links to the registered players.
  EXPECT_TRUE(Has(body, "id=\"boards-1\"")) << body;
  EXPECT_TRUE(Has(body, "id=\"boards-2\"")) << body;
  EXPECT_EQ(
      Count(Slice(body, "id=\"rounds\"", "id=\"teams\""), "class=\"board\""),
      4u);
  EXPECT_TRUE(Has(body, "href=\"/events/" + std::to_string(id) + ".egf\""));

  const std::string en = Page("/events/" + std::to_string(id) + "?lang=en");
  EXPECT_TRUE(Has(en, "<html lang=\"en\">"));
  EXPECT_TRUE(Has(StandingRow(en, 2), "2–3 (shared)")) << en;
  EXPECT_TRUE(
      Has(en, "href=\"/players/" + std::to_string(zhang_id_) + "?lang=en\""))
      << en;
}

TEST_F(WebEventsTest, SwissPendingPlacesAreMarked) {
  v1::Standings st;
  const int64_t id = Swiss(false, &st);
  ASSERT_EQ(st.status(), v1::STANDINGS_STATUS_PENDING_PLAYOFF);
  const std::string body = Page("/events/" + std::to_string(id));
  EXPECT_TRUE(Has(body, "data-status=\"STANDINGS_STATUS_PENDING_PLAYOFF\""));
  EXPECT_TRUE(Has(body, "id=\"standings-status\"")) << body;
  EXPECT_TRUE(Has(body, st.pending_reason())) << body;
  for (int pending : {2, 3}) {
    const std::string row = StandingRow(body, pending);
    EXPECT_TRUE(Has(row, "class=\"row pending\"")) << row;
    EXPECT_TRUE(Has(row, "待加赛（2–3）")) << row;
  }
  EXPECT_TRUE(Has(StandingRow(body, 1), ">1</td>"));
  const std::string en = Page("/events/" + std::to_string(id) + "?lang=en");
  EXPECT_TRUE(Has(StandingRow(en, 3), "play-off pending (2–3)")) << en;
}

TEST_F(WebEventsTest, EgfDownloadIsExportResults) {
  v1::Standings st;
  const int64_t id = Swiss(true, &st);
  v1::ExportResultsRequest ex;
  ex.set_event_id(id);
  ex.set_format(v1::RESULT_FILE_FORMAT_EGF);
  v1::ExportResultsResponse file;
  ASSERT_TRUE(events_->ExportResults(Context("").get(), ex, &file).ok());
  auto r = Get("/events/" + std::to_string(id) + ".egf");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, file.content());
  EXPECT_TRUE(Has(r->body, "张三")) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_EQ(r->get_header_value("Content-Disposition"),
            "attachment; filename=\"event-" + std::to_string(id) + ".egf\"");
  ExpectNoPersonalData(r->body);
  ex.set_format(v1::RESULT_FILE_FORMAT_CSV);
  ASSERT_TRUE(events_->ExportResults(Context("").get(), ex, &file).ok());
  r = Get("/events/" + std::to_string(id) + ".csv");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, file.content());
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/csv; charset=utf-8");
}

TEST_F(WebEventsTest, RoundRobinGrid) {
  const int64_t id =
      Create(NewEvent("City Round Robin", v1::FORMAT_KIND_ROUND_ROBIN));
  v1::EventResults r;
  AddEntrant(r, 1, "甲", zhang_id_);
  AddEntrant(r, 2, "乙");
  AddEntrant(r, 3, "丙");
  AddGame(r, 1, 1, 2);                         // 甲 beats 乙
  AddGame(r, 2, 2, 3);                         // 乙 beats 丙
  AddGame(r, 3, 3, 1, v1::GAME_OUTCOME_DRAW);  // 丙 and 甲 draw
  const v1::Standings st = Save(id, r);
  ASSERT_EQ(st.rows(0).id(), 1);
  const std::string body = Page("/events/" + std::to_string(id));
  const std::string grid = Slice(body, "id=\"cross-grid\"", "</table>");
  ASSERT_FALSE(grid.empty()) << body;
  const std::string first = Slice(grid, "<tr data-id=\"1\"", "</tr>");
  EXPECT_TRUE(Has(first, "<td class=\"self\">")) << first;
  EXPECT_TRUE(Has(first, "data-vs=\"2\">1</td>")) << first;
  EXPECT_TRUE(Has(first, "data-vs=\"3\">½</td>")) << first;
  const std::string second = Slice(grid, "<tr data-id=\"2\"", "</tr>");
  EXPECT_TRUE(Has(second, "data-vs=\"1\">0</td>")) << second;
  EXPECT_TRUE(Has(second, "data-vs=\"3\">1</td>")) << second;
  EXPECT_TRUE(Has(body, "data-criterion=\"A\"")) << body;
  EXPECT_FALSE(Has(body, "id=\"cross-rounds\""));
}

TEST_F(WebEventsTest, TeamEventBoards) {
  v1::Event e = NewEvent("Team RR", v1::FORMAT_KIND_TEAM_ROUND_ROBIN);
  e.set_competition("provincial_team_championship");
  e.set_level(v1::EVENT_LEVEL_PROVINCIAL);
  e.set_sub_event(v1::SUB_EVENT_MEN_TEAM);
  e.mutable_format()->set_boards(2);
  const int64_t id = Create(e);
  v1::EventResults r;
  for (int i = 1; i <= 6; ++i) {
    AddEntrant(r, i, "P" + std::to_string(i), i == 1 ? zhang_id_ : 0)
        ->set_team_id((i + 1) / 2);
  }
  for (int t = 1; t <= 3; ++t) {
    v1::Team* team = r.add_teams();
    team->set_id(t);
    team->set_name("T" + std::to_string(t));
    team->add_board_order(2 * t - 1);
    team->add_board_order(2 * t);
  }
  AddGame(r, 1, 1, 3, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 1, 2, 4, v1::GAME_OUTCOME_BLACK_WINS, 2);
  AddGame(r, 2, 1, 5, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 2, 2, 6, v1::GAME_OUTCOME_WHITE_WINS, 2);
  AddGame(r, 3, 5, 3, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 3, 6, 4, v1::GAME_OUTCOME_DRAW, 2);
  const v1::Standings st = Save(id, r);
  ASSERT_TRUE(st.teams());
  const std::string body = Page("/events/" + std::to_string(id));
  // Standings by team with the board criteria.
  EXPECT_TRUE(Has(body, "data-criterion=\"match points\"")) << body;
  EXPECT_TRUE(Has(body, "data-criterion=\"board 1\"")) << body;
  // Each match's boards: T1 – T2 in round 1, 4:0 on board points.
  const std::string match = Slice(
      body, "class=\"match\" data-round=\"1\" data-teams=\"1-2\"", "</table>");
  ASSERT_FALSE(match.empty()) << body;
  EXPECT_TRUE(Has(match, "T1 – T2 · 局分 4:0 · 场分 2:0")) << match;
  EXPECT_EQ(Count(match, "class=\"board\""), 2u);
  EXPECT_TRUE(Has(match, "href=\"/players/" + std::to_string(zhang_id_) +
                             "?lang=zh\">P1</a> (T1)"))
      << match;
  EXPECT_TRUE(Has(match, "黑胜")) << match;
  // Board orders.
  const std::string team =
      Slice(body, "class=\"team\" data-team=\"2\"", "</section>");
  EXPECT_TRUE(Has(team, "<li data-id=\"3\">P3")) << team;
  EXPECT_TRUE(Has(team, "<li data-id=\"4\">P4")) << team;
  // The team cross table.
  const std::string grid = Slice(body, "id=\"cross-teams\"", "</table>");
  EXPECT_TRUE(Has(grid, "4:0")) << grid;
  // No EGF file for a team event; the CSV one is there.
  EXPECT_FALSE(Has(body, "id=\"egf-download\""));
  EXPECT_TRUE(Has(body, "id=\"csv-download\""));
  auto egf = Get("/events/" + std::to_string(id) + ".egf");
  ASSERT_TRUE(egf);
  EXPECT_EQ(egf->status, 409);
  EXPECT_TRUE(Has(egf->body, "团体赛")) << egf->body;
}

TEST_F(WebEventsTest, JsonTwinRepeatsTheAnswers) {
  v1::Standings st;
  const int64_t id = Swiss(true, &st);
  auto r = Get("/api/v1/events/" + std::to_string(id));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"),
            "application/json; charset=utf-8");
  ExpectNoPersonalData(r->body);
  const nlohmann::json j = nlohmann::json::parse(r->body);
  EXPECT_EQ(j["event"]["name"], "Shared Swiss");
  v1::Standings got;
  ASSERT_TRUE(
      google::protobuf::util::JsonStringToMessage(j["standings"].dump(), &got)
          .ok());
  EXPECT_EQ(got.SerializeAsString(), st.SerializeAsString());
  EXPECT_EQ(j["results"]["entrants"].size(), 4u);
}

TEST_F(WebEventsTest, UnknownAndMalformedIds) {
  auto r = Get("/events/424242");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_TRUE(Has(r->body, "NOT_FOUND")) << r->body;
  EXPECT_TRUE(Has(r->body, "没有编号为 424242 的赛事")) << r->body;
  r = Get("/events/424242?lang=en");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_TRUE(Has(r->body, "no event with id 424242")) << r->body;
  for (const char* bad : {"/events/abc", "/events/0", "/events/-3",
                          "/events/12x", "/events/abc.egf"}) {
    r = Get(bad);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad;
    EXPECT_TRUE(Has(r->body, "INVALID_ARGUMENT")) << r->body;
    EXPECT_TRUE(Has(r->body, "赛事编号应为正整数")) << r->body;
  }
  r = Get("/api/v1/events/abc");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(nlohmann::json::parse(r->body)["code"], "INVALID_ARGUMENT");
  r = Get("/api/v1/events/424242");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(nlohmann::json::parse(r->body)["code"], "NOT_FOUND");
  r = Get("/events/424242.egf");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(WebEventsTest, ListNewestFirstFilteredAndPaged) {
  std::vector<int64_t> ids;  // 110's events, oldest first
  for (int month : {3, 9, 6}) {
    ids.push_back(Create(NewEvent("Event 110 month " + std::to_string(month),
                                  v1::FORMAT_KIND_SWISS, "110", 2024, month)));
  }
  const int64_t other =
      Create(NewEvent("Event 000", v1::FORMAT_KIND_SWISS, "000", 2024, 7));
  const int64_t later =
      Create(NewEvent("Event 110 in 2025", v1::FORMAT_KIND_SWISS, "110", 2025));
  std::string body = Page("/events?agency=110&year=2024&page_size=2");
  const std::string list = Slice(body, "id=\"event-list\"", "</table>");
  ASSERT_EQ(Count(list, "class=\"event\""), 2u) << body;
  // Newest first: September, then June.
  EXPECT_LT(list.find("data-event=\"" + std::to_string(ids[1]) + "\""),
            list.find("data-event=\"" + std::to_string(ids[2]) + "\""));
  EXPECT_TRUE(
      Has(list, "href=\"/events/" + std::to_string(ids[1]) + "?lang=zh\""));
  EXPECT_FALSE(Has(list, "data-event=\"" + std::to_string(other) + "\""));
  EXPECT_FALSE(Has(list, "data-event=\"" + std::to_string(later) + "\""));
  EXPECT_TRUE(Has(body, "<label for=\"f-agency\">")) << body;
  const std::string next =
      Slice(body, "id=\"next-page\" rel=\"next\" href=\"", "\">");
  ASSERT_FALSE(next.empty()) << body;
  std::string href = next.substr(next.find("href=\"") + 6);
  href = href.substr(0, href.size() - 2);
  size_t amp;
  while ((amp = href.find("&amp;")) != std::string::npos)
    href.replace(amp, 5, "&");
  body = Page(href);
  const std::string rest = Slice(body, "id=\"event-list\"", "</table>");
  EXPECT_EQ(Count(rest, "class=\"event\""), 1u) << body;
  EXPECT_TRUE(Has(rest, "data-event=\"" + std::to_string(ids[0]) + "\""));
  EXPECT_FALSE(Has(body, "id=\"next-page\""));

  // The JSON twin: ListEventsResponse, same filters.
  auto r = Get("/api/v1/events?agency=110&from=2024-05-01&to=2025-12-31");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  v1::ListEventsResponse got;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r->body, &got).ok());
  ASSERT_EQ(got.events_size(), 3);
  EXPECT_EQ(got.events(0).id(), later);
  EXPECT_EQ(got.events(1).id(), ids[1]);
  EXPECT_EQ(got.events(2).id(), ids[2]);

  // Bad filters: 400 in the page's language.
  for (const char* bad :
       {"/events?agency=11", "/events?year=24", "/events?from=2024-13-01",
        "/events?year=2024&from=2024-01-01", "/events?page_size=0",
        "/events?page=garbage"}) {
    r = Get(bad);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << bad << r->body;
    EXPECT_TRUE(Has(r->body, "INVALID_ARGUMENT")) << r->body;
  }
  r = Get("/events?agency=11&lang=en");
  ASSERT_TRUE(r);
  EXPECT_TRUE(Has(r->body, "three-digit prefix")) << r->body;
  r = Get("/events?agency=11");
  ASSERT_TRUE(r);
  EXPECT_TRUE(Has(r->body, "三位数字代码")) << r->body;
}

}  // namespace
}  // namespace gorank::web
