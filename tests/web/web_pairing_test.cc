// The public page of a paired round (/pairing?event=ID[&round=N]) against a
// real in-process rankd: the current round's boards with names, ranks,
// handicap and komi, the bye, results once recorded, both languages, and
// precise errors for a bad or unknown event; its JSON twin /api/v1/pairing.
#include <set>
#include <string>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "tests/web/web_fixture.h"

namespace gorank::web {
namespace {

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class WebPairingTest : public WebFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartServer());
    events_ = v1::TournamentService::NewStub(channel_);
  }

  // A Swiss of 3 rounds with five registered players entered; its id.
  int64_t SwissWithFive() {
    v1::CreateEventRequest create;
    v1::Event* e = create.mutable_event();
    e->set_name("Web Swiss 2025");
    e->mutable_start()->set_year(2025);
    e->mutable_start()->set_month(11);
    e->mutable_start()->set_day(1);
    *e->mutable_end() = e->start();
    e->set_organiser_prefix("000");
    e->set_level(v1::EVENT_LEVEL_CITY);
    e->set_competition("club_event");
    e->set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e->set_highest_group(true);
    e->mutable_format()->set_kind(v1::FORMAT_KIND_SWISS);
    e->mutable_format()->set_rounds(3);
    v1::CreateEventResponse created;
    grpc::Status s =
        events_->CreateEvent(Context(admin_).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::EditResultsRequest enter;
    enter.set_event_id(created.event().id());
    const char* const names[] = {"李一", "王二", "赵四", "钱五", "孙六"};
    const char* const ranks[] = {"5d", "3d", "1d", "2k", "5k"};
    for (int i = 0; i < 5; ++i) {
      enter.add_add_entrants()->set_player_id(
          MustRegister(names[i], ranks[i], "").id());
    }
    v1::EditResultsResponse entered;
    s = events_->EditResults(Context(admin_).get(), enter, &entered);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }

  v1::Pairing Pair(int64_t id, int round) {
    v1::PairRoundRequest req;
    req.set_event_id(id);
    req.set_round(round);
    v1::PairRoundResponse resp;
    grpc::Status s = events_->PairRound(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_TRUE(resp.stored());
    return resp.pairing();
  }

  std::unique_ptr<v1::TournamentService::Stub> events_;
};

TEST_F(WebPairingTest, ShowsTheCurrentRoundsBoardsAndBye) {
  const int64_t id = SwissWithFive();
  const std::string page = "/pairing?event=" + std::to_string(id);
  // Nothing paired yet.
  auto r = Get(page);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(Has(r->body, "id=\"pairing-none\"")) << r->body;

  const v1::Pairing p = Pair(id, 1);
  ASSERT_EQ(p.boards_size(), 2);
  ASSERT_EQ(p.byes_size(), 1);
  r = Get(page);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_TRUE(Has(r->body, "data-round=\"1\"")) << r->body;
  EXPECT_TRUE(Has(r->body, "Web Swiss 2025")) << r->body;
  EXPECT_TRUE(Has(r->body, "第1轮对阵")) << r->body;
  EXPECT_TRUE(Has(r->body, "李一 (业余5段)")) << r->body;
  EXPECT_TRUE(Has(r->body, "未赛")) << r->body;
  EXPECT_TRUE(Has(r->body, "轮空（2分）")) << r->body;
  size_t rows = 0;
  for (size_t at = r->body.find("class=\"board\""); at != std::string::npos;
       at = r->body.find("class=\"board\"", at + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 2u);

  // A recorded result shows; English.
  v1::GetResultsRequest get;
  get.set_event_id(id);
  v1::GetResultsResponse results;
  ASSERT_TRUE(events_->GetResults(Context("").get(), get, &results).ok());
  v1::EditResultsRequest edit;
  edit.set_event_id(id);
  *edit.add_set_games() = results.results().games(0);
  edit.mutable_set_games(0)->set_outcome(v1::GAME_OUTCOME_WHITE_WINS);
  v1::EditResultsResponse edited;
  ASSERT_TRUE(events_->EditResults(Context(admin_).get(), edit, &edited).ok());
  r = Get(page + "&lang=en");
  ASSERT_TRUE(r);
  EXPECT_TRUE(Has(r->body, "Round 1 pairing")) << r->body;
  EXPECT_TRUE(Has(r->body, "white wins")) << r->body;
  EXPECT_TRUE(Has(r->body, "to play")) << r->body;
  EXPECT_TRUE(Has(r->body, "bye (2 points)")) << r->body;
  // A round not paired yet, asked for by number.
  r = Get(page + "&round=2&lang=en");
  ASSERT_TRUE(r);
  EXPECT_TRUE(Has(r->body, "not paired yet")) << r->body;
}

TEST_F(WebPairingTest, JsonTwinAnswersTheRoundThePageShows) {
  const int64_t id = SwissWithFive();
  const std::string api = "/api/v1/pairing?event=" + std::to_string(id);
  auto r = Get(api);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"),
            "application/json; charset=utf-8");
  auto j = nlohmann::json::parse(r->body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r->body;
  EXPECT_EQ(j["round"], 0) << r->body;  // nothing paired yet
  EXPECT_EQ(j["event"]["name"], "Web Swiss 2025") << r->body;
  EXPECT_FALSE(j["results"].contains("games")) << r->body;

  const v1::Pairing p1 = Pair(id, 1);
  ASSERT_EQ(p1.boards_size(), 2);
  v1::GetResultsRequest get;
  get.set_event_id(id);
  v1::GetResultsResponse results;
  ASSERT_TRUE(events_->GetResults(Context("").get(), get, &results).ok());
  // Round 1 with a result, then round 2 paired: the current round is 2.
  v1::EditResultsRequest edit;
  edit.set_event_id(id);
  for (const v1::Game& g : results.results().games()) {
    *edit.add_set_games() = g;
    edit.mutable_set_games(edit.set_games_size() - 1)
        ->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
  }
  v1::EditResultsResponse edited;
  grpc::Status s = events_->EditResults(Context(admin_).get(), edit, &edited);
  ASSERT_TRUE(s.ok()) << s.error_message();
  Pair(id, 2);
  ASSERT_TRUE(events_->GetResults(Context("").get(), get, &results).ok());

  for (const int round : {0, 1, 2}) {
    const std::string query =
        round == 0 ? "" : "&round=" + std::to_string(round);
    r = Get(api + query);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
    j = nlohmann::json::parse(r->body, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r->body;
    const int shown = round == 0 ? 2 : round;
    EXPECT_EQ(j["round"], shown) << r->body;
    v1::EventResults web;
    ASSERT_TRUE(
        google::protobuf::util::JsonStringToMessage(j["results"].dump(), &web)
            .ok())
        << r->body;
    // That round's games and byes from GetResults, and exactly the entrants
    // they name.
    int games = 0, byes = 0;
    std::set<int> named;
    for (const v1::Game& g : results.results().games()) {
      if (g.round() != shown) continue;
      ++games;
      named.insert(g.white_entrant_id());
      named.insert(g.black_entrant_id());
    }
    for (const v1::Bye& b : results.results().byes()) {
      if (b.round() != shown) continue;
      ++byes;
      named.insert(b.entrant_id());
    }
    EXPECT_EQ(web.games_size(), games) << r->body;
    EXPECT_EQ(web.byes_size(), byes) << r->body;
    EXPECT_EQ(web.games_size(), 2) << r->body;
    EXPECT_EQ(web.byes_size(), 1) << r->body;
    std::set<int> web_named;
    for (const v1::Entrant& e : web.entrants()) web_named.insert(e.id());
    EXPECT_EQ(web_named, named) << r->body;
    for (int i = 0; i < web.games_size(); ++i) {
      EXPECT_EQ(web.games(i).round(), shown);
      if (i > 0) {
        EXPECT_LE(web.games(i - 1).board(), web.games(i).board());
      }
      // Round 1's results are there, round 2's still to play.
      EXPECT_EQ(web.games(i).outcome(), shown == 1
                                            ? v1::GAME_OUTCOME_BLACK_WINS
                                            : v1::GAME_OUTCOME_UNSPECIFIED);
    }
    // The page shows the same round.
    auto page = Get("/pairing?event=" + std::to_string(id) + query);
    ASSERT_TRUE(page);
    EXPECT_TRUE(Has(page->body, "data-round=\"" + std::to_string(shown) + "\""))
        << page->body;
  }

  // Errors as JSON, with the page's checks.
  r = Get("/api/v1/pairing?event=abc");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_TRUE(Has(r->body, "\"code\"")) << r->body;
  EXPECT_TRUE(Has(r->body, "INVALID_ARGUMENT")) << r->body;
  r = Get("/api/v1/pairing?event=424242");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_TRUE(Has(r->body, "NOT_FOUND")) << r->body;
}

TEST_F(WebPairingTest, BadOrUnknownEventIsAPreciseError) {
  auto r = Get("/pairing?event=abc");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_TRUE(Has(r->body, "INVALID_ARGUMENT")) << r->body;
  r = Get("/pairing?event=1&round=x");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  r = Get("/pairing?event=424242");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_TRUE(Has(r->body, "NOT_FOUND")) << r->body;
}

}  // namespace
}  // namespace gorank::web
