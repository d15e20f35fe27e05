// The player page (/players/{id}) and the search (/search?q=) against a real
// in-process rankd (tests/web/web_fixture.h) whose ratings file relaxes the
// amateur rating rule (2 rated games, 1 event, no waiting), so that a player
// can hold a certificate, a promotion and rated games in one test:
//   - the page: name, Latin name, agency, Go and Gomoku ranks, the history
//     with masked certificate numbers, the GoR, the graph (one point per
//     rated event) and its table, the events with place and link; the JSON
//     twin equals the public gRPC answers; neither shows the resident ID or
//     the birth date; 404 unknown, 400 malformed, in the page's language;
//   - ListEvents' player_id (with places) and name_contains through gRPC;
//   - the search: Latin names in any case and spacing, Chinese names as
//     written, no prefixes; events by any part of the name, newest first,
//     at most 20; the JSON twin; an empty query.
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/ratings/ratings_config.h"
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

void ExpectNoPersonalData(const std::string& body) {
  EXPECT_FALSE(Has(body, kResidentId)) << body;
  EXPECT_FALSE(Has(body, "110105")) << body;
  for (const char* birth : {"1949-12-31", "19491231", "1949年12月", "1949/12"})
    EXPECT_FALSE(Has(body, birth)) << body;
  EXPECT_FALSE(Has(body, "resident_id")) << body;
  EXPECT_FALSE(Has(body, "birth_date")) << body;
}

// The shipped ratings file with the amateur rating rule relaxed.
std::string Relaxed() {
  std::string text = ratings::DefaultRatingsConfigText();
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("min_rated_games = 15", "min_rated_games = 2");
  replace("min_events = 3 ", "min_events = 1 ");
  replace("min_days_since_promotion = 180", "min_days_since_promotion = 0");
  return text;
}

v1::Date D(int y, int m, int d) {
  v1::Date out;
  out.set_year(y);
  out.set_month(m);
  out.set_day(d);
  return out;
}

class WebPlayersTest : public WebFixture {
 protected:
  void SetUp() override {
    const std::string file = ::testing::TempDir() + "/web_players_ratings_" +
                             std::to_string(getpid()) + ".toml";
    std::ofstream(file) << Relaxed();
    adjust_config_ = [file](server::ServerConfig& c) {
      c.ratings_config_file = file;
      c.require_review_for_release = false;
    };
    ASSERT_NO_FATAL_FAILURE(StartServer());
    events_ = v1::TournamentService::NewStub(channel_);
    ratings_ = v1::RatingService::NewStub(channel_);
    zhang_ = cert_.player_id();
  }

  int64_t Register(const std::string& name, const std::string& latin,
                   const std::string& rank) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_latin_name(latin);
    req.set_agency_prefix("000");
    *req.mutable_birth_date() = D(1990, 5, 1);
    req.mutable_initial_rank()->set_notation(rank);
    v1::RegisterPlayerResponse resp;
    const grpc::Status s =
        players_->RegisterPlayer(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }

  int64_t CreateEvent(const std::string& name, v1::Date day) {
    v1::CreateEventRequest create;
    v1::Event* e = create.mutable_event();
    e->set_name(name);
    *e->mutable_start() = day;
    *e->mutable_end() = day;
    e->set_organiser_prefix("000");
    e->set_level(v1::EVENT_LEVEL_CITY);
    e->set_competition("club_event");
    e->set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e->set_highest_group(true);
    e->set_shared_places_allowed(true);
    e->mutable_format()->set_kind(v1::FORMAT_KIND_ROUND_ROBIN);
    e->mutable_time()->set_time_class(v1::TIME_CLASS_A);
    v1::CreateEventResponse created;
    const grpc::Status s =
        events_->CreateEvent(Context(admin_).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }

  // A closed class-A round robin of `players` (entrants 1..4, all declaring
  // `declared`) on `day`; `games` as (round, black, white), black winning.
  int64_t PlayEvent(const std::string& name, v1::Date day,
                    const std::vector<int64_t>& players,
                    const std::string& declared,
                    const std::vector<std::vector<int>>& games) {
    const int64_t id = CreateEvent(name, day);
    v1::SaveResultsRequest save;
    save.set_event_id(id);
    for (size_t i = 0; i < players.size(); ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(static_cast<int>(i + 1));
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i + 1));
      en->mutable_rank()->set_notation(declared);
      en->set_player_id(players[i]);
    }
    for (const std::vector<int>& g : games) {
      v1::Game* game = save.mutable_results()->add_games();
      game->set_round(g[0]);
      game->set_black_entrant_id(g[1]);
      game->set_white_entrant_id(g[2]);
      game->set_colours_known(true);
      game->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
    }
    v1::SaveResultsResponse saved;
    grpc::Status s = events_->SaveResults(Context(admin_).get(), save, &saved);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::CloseEventRequest close;
    close.set_event_id(id);
    v1::CloseEventResponse closed;
    s = events_->CloseEvent(Context(admin_).get(), close, &closed);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return id;
  }

  // 张三 (1k, then 1d by certificate 000250001) gets a Latin name, a Gomoku
  // rank, wins two games of a rated event as a declared 2d and is promoted
  // to 2d by the rating rule (approved by the national admin).
  int64_t PlayAndPromoteZhang() {
    v1::UpdatePlayerRequest update;
    update.set_player_id(zhang_);
    update.set_latin_name("Zhang San");
    v1::UpdatePlayerResponse updated;
    grpc::Status s =
        players_->UpdatePlayer(Context(admin_).get(), update, &updated);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::ChangeRankRequest gomoku;
    gomoku.set_player_id(zhang_);
    gomoku.mutable_new_rank()->set_notation("1d");
    gomoku.mutable_new_rank()->set_discipline(v1::DISCIPLINE_GOMOKU);
    gomoku.set_discipline(v1::DISCIPLINE_GOMOKU);
    gomoku.set_reason(v1::RANK_CHANGE_REASON_CORRECTION);
    gomoku.set_basis("Gomoku record of 2025");
    v1::ChangeRankResponse changed;
    s = players_->ChangeRank(Context(admin_).get(), gomoku, &changed);
    EXPECT_TRUE(s.ok()) << s.error_message();
    const std::vector<int64_t> four = {zhang_, Register("李四", "", "1d"),
                                       Register("王五", "", "1d"),
                                       Register("赵六", "", "1d")};
    // Games count from the day after the last promotion (the certificate
    // of 2025-12-10): the event is five days later, evaluated on the 20th.
    s_->clock().SetDate(Date{2025, 12, 20});
    const int64_t event = PlayEvent("2025 Club Open", D(2025, 12, 15), four,
                                    "2d", {{1, 1, 3}, {1, 2, 4}, {2, 1, 4}});
    v1::EvaluatePromotionsResponse eval;
    s = ratings_->EvaluatePromotions(Context(admin_).get(),
                                     v1::EvaluatePromotionsRequest(), &eval);
    EXPECT_TRUE(s.ok()) << s.error_message();
    for (const v1::PromotionProposal& p : eval.proposals()) {
      if (p.player_id() != zhang_) continue;
      v1::DecidePromotionRequest decide;
      decide.set_proposal_id(p.proposal_id());
      decide.set_decision(v1::PROMOTION_DECISION_APPROVE);
      v1::DecidePromotionResponse decided;
      s = ratings_->DecidePromotion(Context(admin_).get(), decide, &decided);
      EXPECT_TRUE(s.ok()) << s.error_message();
      promotion_certificate_ = decided.proposal().certificate_number();
    }
    return event;
  }

  // GET of `path_and_query` sent as written, as a browser sends a form
  // (the fixture's client would send a '+' as %2B, a literal plus).
  httplib::Result GetAsWritten(const std::string& path_and_query) {
    auto client = WebClient();
    client->set_url_encode(false);
    return client->Get(path_and_query.c_str());
  }

  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
  int64_t zhang_ = 0;
  std::string promotion_certificate_;
};

TEST_F(WebPlayersTest, PlayerPageShowsRanksHistoryRatingGraphAndEvents) {
  const int64_t event = PlayAndPromoteZhang();
  const std::string path = "/players/" + std::to_string(zhang_);
  // What the public gRPC methods answer.
  v1::GetPlayerRequest get;
  get.set_player_id(zhang_);
  v1::GetPlayerResponse player;
  ASSERT_TRUE(players_->GetPlayer(Context("").get(), get, &player).ok());
  ASSERT_EQ(player.player().rank().notation(), "2d") << "not promoted";
  v1::GetRankHistoryRequest hreq;
  hreq.set_player_id(zhang_);
  v1::GetRankHistoryResponse history;
  ASSERT_TRUE(players_->GetRankHistory(Context("").get(), hreq, &history).ok());
  v1::GetRatingRequest rreq;
  rreq.set_player_id(zhang_);
  v1::GetRatingResponse rating;
  ASSERT_TRUE(ratings_->GetRating(Context("").get(), rreq, &rating).ok());

  auto r = Get(path);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  const std::string& page = r->body;
  EXPECT_TRUE(Has(page, "data-player=\"" + std::to_string(zhang_) + "\""));
  EXPECT_TRUE(Has(page, "<title>张三 - ")) << page;
  EXPECT_TRUE(Has(page,
                  "<h2 id=\"player-name\">张三 <span id=\"latin-name\" "
                  "lang=\"zh-Latn\">Zhang San</span></h2>"))
      << page;
  EXPECT_TRUE(Has(page, "(000)")) << page;
  EXPECT_TRUE(Has(page, "<span id=\"go-rank\">业余2段</span>")) << page;
  EXPECT_TRUE(Has(page, "<span id=\"gomoku-rank\">五子棋1段</span>")) << page;
  // The history: one row per entry; certificate numbers masked, with why.
  EXPECT_EQ(Count(page, "class=\"rank-change\""),
            static_cast<size_t>(history.entries_size()));
  EXPECT_GE(history.entries_size(), 4);  // registration, certificate,
                                         // Gomoku, promotion
  // The promotion to 2d (a certifiable grade) is applied by a certificate.
  EXPECT_EQ(Count(page, "<td>证书</td>"), 2u) << page;
  EXPECT_TRUE(Has(page, "<td>更正</td>")) << page;
  EXPECT_TRUE(Has(page, "00025****")) << page;
  EXPECT_FALSE(Has(page, "000250001")) << page;
  ASSERT_FALSE(promotion_certificate_.empty());
  EXPECT_FALSE(Has(page, promotion_certificate_)) << page;
  EXPECT_TRUE(Has(page, "id=\"numbers-masked\"")) << page;
  // The rating, its graph and the graph's table.
  char gor[32];
  std::snprintf(gor, sizeof gor, "%.1f", rating.rating().gor());
  EXPECT_TRUE(Has(page, std::string("<span id=\"gor\">") + gor + "</span>"))
      << page;
  EXPECT_TRUE(Has(page, "<svg id=\"rating-graph\"")) << page;
  EXPECT_EQ(Count(page, "class=\"point\""), 1u) << page;
  EXPECT_EQ(Count(page, "class=\"rating-point\""), 1u) << page;
  EXPECT_TRUE(Has(page, ">2025-12-15</text>")) << page;
  EXPECT_FALSE(Has(page, "<script")) << page;
  // The event with the place (first: two wins) and its link.
  const std::string link = "<a href=\"/events/" + std::to_string(event) +
                           "?lang=zh\">2025 Club Open</a>";
  EXPECT_EQ(Count(page, link), 2u) << page;  // events and rating tables
  EXPECT_TRUE(Has(
      page, "data-event=\"" + std::to_string(event) + "\" data-place=\"1\""))
      << page;
  EXPECT_TRUE(Has(page, "第1名")) << page;
  ExpectNoPersonalData(page);

  auto en = Get(path + "?lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "<span id=\"go-rank\">2 dan</span>")) << en->body;
  EXPECT_EQ(Count(en->body, "<td>certificate</td>"), 2u) << en->body;
  ExpectNoPersonalData(en->body);

  // The JSON twin repeats the public answers.
  auto api = Get("/api/v1" + path);
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 200);
  ExpectNoPersonalData(api->body);
  const nlohmann::json j = nlohmann::json::parse(api->body);
  EXPECT_EQ(j["player"]["name"], "张三");
  EXPECT_EQ(j["player"]["latin_name"], "Zhang San");
  EXPECT_EQ(j["player"]["rank"]["notation"], "2d");
  EXPECT_EQ(j["rank_history"].size(),
            static_cast<size_t>(history.entries_size()));
  EXPECT_DOUBLE_EQ(j["rating"]["gor"].get<double>(), rating.rating().gor());
  EXPECT_EQ(j["rating_history"].size(), 1u);
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["id"], event);
  EXPECT_EQ(j["events"][0]["place"]["place"], 1);
  EXPECT_EQ(j["more_events"], false);
}

TEST_F(WebPlayersTest, UnknownOrMalformedIdIsAPreciseError) {
  auto r = Get("/players/abc");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_TRUE(Has(r->body, "INVALID_ARGUMENT")) << r->body;
  for (const char* bad :
       {"/players/0", "/players/-3", "/players/12x", "/players/"}) {
    SCOPED_TRACE(bad);
    auto b = Get(bad);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->status, 400);
  }
  auto en = Get("/players/abc?lang=en");
  ASSERT_TRUE(en);
  EXPECT_TRUE(Has(en->body, "the player id must be a positive number"))
      << en->body;
  auto unknown = Get("/players/424242");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_TRUE(Has(unknown->body, "NOT_FOUND")) << unknown->body;
  auto unknown_en = Get("/players/424242?lang=en");
  ASSERT_TRUE(unknown_en);
  EXPECT_EQ(unknown_en->status, 404);
  EXPECT_TRUE(Has(unknown_en->body, "no player has this id: 424242"))
      << unknown_en->body;
  auto api = Get("/api/v1/players/424242?lang=en");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 404);
  const nlohmann::json j = nlohmann::json::parse(api->body);
  EXPECT_EQ(j["code"], "NOT_FOUND");
  auto api_bad = Get("/api/v1/players/abc");
  ASSERT_TRUE(api_bad);
  EXPECT_EQ(api_bad->status, 400);
  // A player without rating, events or a Latin name.
  auto plain = Get("/players/" + std::to_string(cert_.player_id()));
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 200);
  EXPECT_TRUE(Has(plain->body, "id=\"rating-none\"")) << plain->body;
  EXPECT_TRUE(Has(plain->body, "id=\"events-none\"")) << plain->body;
  ExpectNoPersonalData(plain->body);
}

TEST_F(WebPlayersTest, ListEventsFiltersByPlayerAndNameWithPlaces) {
  const int64_t a = Register("甲", "", "1d");
  const int64_t b = Register("乙", "", "1d");
  const int64_t c = Register("丙", "", "1d");
  const int64_t d = Register("丁", "", "1d");
  // Every game of a round robin of four, black winning: entrant 1 wins
  // all three, 2 two, 3 one (places 1, 2, 3, 4).
  const std::vector<std::vector<int>> all = {{1, 1, 2}, {1, 3, 4}, {2, 1, 3},
                                             {2, 2, 4}, {3, 1, 4}, {3, 2, 3}};
  const int64_t first =
      PlayEvent("Spring Cup 100%", D(2025, 3, 1), {b, a, c, d}, "1d", all);
  const int64_t second =
      PlayEvent("Autumn cup", D(2025, 9, 1), {c, b, d, zhang_}, "1d", all);
  v1::ListEventsRequest req;
  req.set_player_id(b);
  req.set_newest_first(true);
  v1::ListEventsResponse resp;
  grpc::Status s = events_->ListEvents(Context("").get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.events_size(), 2);
  EXPECT_EQ(resp.events(0).id(), second);
  EXPECT_EQ(resp.events(1).id(), first);
  ASSERT_EQ(resp.places_size(), 2);
  EXPECT_EQ(resp.places(0).event_id(), second);
  EXPECT_EQ(resp.places(0).entrant_id(), 2);
  EXPECT_EQ(resp.places(0).place(), 2);
  EXPECT_EQ(resp.places(0).state(), v1::PLACE_STATE_ALONE);
  EXPECT_EQ(resp.places(0).standings_status(), v1::STANDINGS_STATUS_FINAL);
  EXPECT_EQ(resp.places(1).event_id(), first);
  EXPECT_EQ(resp.places(1).entrant_id(), 1);
  EXPECT_EQ(resp.places(1).place(), 1);
  req.set_player_id(a);
  resp.Clear();
  ASSERT_TRUE(events_->ListEvents(Context("").get(), req, &resp).ok());
  ASSERT_EQ(resp.events_size(), 1);
  EXPECT_EQ(resp.events(0).id(), first);
  // By name: any case for Latin letters; % is a character, not a wildcard.
  auto names = [&](const std::string& text) {
    v1::ListEventsRequest by_name;
    by_name.set_name_contains(text);
    v1::ListEventsResponse found;
    const grpc::Status st =
        events_->ListEvents(Context("").get(), by_name, &found);
    EXPECT_TRUE(st.ok()) << st.error_message();
    std::vector<int64_t> ids;
    for (const v1::Event& e : found.events()) ids.push_back(e.id());
    EXPECT_EQ(found.places_size(), 0);
    return ids;
  };
  EXPECT_EQ(names("CUP"), (std::vector<int64_t>{first, second}));
  EXPECT_EQ(names("autumn"), (std::vector<int64_t>{second}));
  EXPECT_EQ(names("100%"), (std::vector<int64_t>{first}));
  EXPECT_EQ(names("1_0"), (std::vector<int64_t>{}));
  EXPECT_EQ(names("0%25"), (std::vector<int64_t>{}));
  v1::ListEventsRequest bad;
  bad.set_name_contains(std::string(101, 'x'));
  s = events_->ListEvents(Context("").get(), bad, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  bad.set_name_contains("a\nb");
  s = events_->ListEvents(Context("").get(), bad, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  bad.Clear();
  bad.set_player_id(-1);
  s = events_->ListEvents(Context("").get(), bad, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(WebPlayersTest, SearchFindsLatinNamesInAnyFormAndEventsByPart) {
  const int64_t ke = Register("柯洁", "Ke Jie", "9p");
  for (const char* q : {"Ke%20Jie", "ke+jie", "KE%20JIE", "Ke-Jie", "kejie",
                        "%E6%9F%AF%E6%B4%81"}) {
    SCOPED_TRACE(q);
    auto r = GetAsWritten(std::string("/search?q=") + q);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(Has(r->body, "<a href=\"/players/" + std::to_string(ke) +
                                 "?lang=zh\">柯洁</a>"))
        << r->body;
    EXPECT_EQ(Count(r->body, "class=\"found-player\""), 1u) << r->body;
  }
  // A prefix is no name; pinyin without a stored Latin name finds nobody.
  for (const char* q : {"ke", "%E6%9F%AF", "zhang+san"}) {
    SCOPED_TRACE(q);
    auto r = GetAsWritten(std::string("/search?q=") + q);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(Has(r->body, "id=\"players-none\"")) << r->body;
  }
  // Events: any part of the name, newest first, at most 20.
  for (int i = 1; i <= 22; ++i)
    CreateEvent("Weekly Ladder " + std::to_string(i), D(2025, 1, i));
  auto r = Get("/search?q=ladder&lang=en");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(Count(r->body, "class=\"found-event\""), 20u) << r->body;
  EXPECT_TRUE(Has(r->body, "id=\"events-more\"")) << r->body;
  const size_t newest = r->body.find("Weekly Ladder 22<");
  const size_t older = r->body.find("Weekly Ladder 21<");
  EXPECT_NE(newest, std::string::npos) << r->body;
  EXPECT_LT(newest, older);
  EXPECT_FALSE(Has(r->body, "Weekly Ladder 2<")) << "older than the 20";
  EXPECT_TRUE(Has(r->body, "<label for=\"search-q\">")) << r->body;
  EXPECT_TRUE(Has(r->body, "value=\"ladder\"")) << r->body;

  // The JSON twin.
  auto api = GetAsWritten("/api/v1/search?q=KE+JIE");
  ASSERT_TRUE(api);
  EXPECT_EQ(api->status, 200);
  ExpectNoPersonalData(api->body);
  const nlohmann::json j = nlohmann::json::parse(api->body);
  ASSERT_EQ(j["players"].size(), 1u);
  EXPECT_EQ(j["players"][0]["name"], "柯洁");
  EXPECT_EQ(j["query"], "KE JIE");
  // 张三 holds the resident ID: found by name, nothing of it shown.
  for (const char* q : {"/search?q=%E5%BC%A0%E4%B8%89",
                        "/api/v1/search?q=%E5%BC%A0%E4%B8%89"}) {
    auto z = Get(q);
    ASSERT_TRUE(z);
    EXPECT_EQ(z->status, 200);
    EXPECT_TRUE(Has(z->body, "张三")) << z->body;
    ExpectNoPersonalData(z->body);
  }
  // No query: the form alone; the API refuses.
  auto empty = Get("/search");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status, 200);
  EXPECT_TRUE(Has(empty->body, "id=\"search-hint\"")) << empty->body;
  auto api_empty = GetAsWritten("/api/v1/search?q=+");
  ASSERT_TRUE(api_empty);
  EXPECT_EQ(api_empty->status, 400);
  auto too_long = Get("/search?q=" + std::string(130, 'x'));
  ASSERT_TRUE(too_long);
  EXPECT_EQ(too_long->status, 400);
}

}  // namespace
}  // namespace gorank::web
