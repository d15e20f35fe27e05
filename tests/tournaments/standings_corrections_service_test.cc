// Issue #16 sections 3 and 5 through real gRPC (InProcessServer: a whole
// RankdServer on 127.0.0.1:0 with a temp database):
//   - a pending 5th-6th tie keeps only those two places pending: the event
//     closes, its undisputed 1st place gives a grade and its games a rating,
//     EvaluatePlayer and EvaluateEvent agree, and the play-off recorded after
//     the close settles the tie;
//   - EGF and CSV exports apply voids and withdrawals (a voided entrant's
//     games are void in the file, implied forfeits are in it, the cells agree
//     with the totals), and every format's export/import round trip keeps
//     them (EGF with the withdrawals given on import, after a warning);
//   - an EGF import of a Swiss with trailing unplayed rounds warns;
//   - relay standings expose players left and games won, team standings
//     every match's board and match points;
//   - the catalogue names every competition and group of the grade table;
//   - a near miss names the grade and every reason; an appraised dan still
//     under notice reports both.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/eligibility.grpc.pb.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/eligibility/grade_standard.h"
#include "tests/testing/in_process_server.h"

namespace gorank::tournaments {
namespace {

using gorank::testing::InProcessServer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StandingsCorrectionsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new InProcessServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    registry_ = v1::PlayerRegistry::NewStub(server_->channel());
    events_ = v1::TournamentService::NewStub(server_->channel());
    grades_ = v1::EligibilityService::NewStub(server_->channel());
    ratings_ = v1::RatingService::NewStub(server_->channel());
    certs_ = v1::CertificateService::NewStub(server_->channel());
  }

  std::unique_ptr<grpc::ClientContext> Admin() {
    return InProcessServer::Context(server_->admin);
  }

  int64_t Register(const std::string& name, const std::string& rank) {
    v1::RegisterPlayerRequest reg;
    reg.set_name(name);
    reg.set_agency_prefix("110");
    reg.set_gender(v1::GENDER_MALE);
    reg.mutable_birth_date()->set_year(1990);
    reg.mutable_birth_date()->set_month(3);
    reg.mutable_birth_date()->set_day(4);
    reg.mutable_initial_rank()->set_notation(rank);
    reg.set_initial_rank_basis("registration");
    v1::RegisterPlayerResponse player;
    grpc::Status s = registry_->RegisterPlayer(Admin().get(), reg, &player);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return player.player().id();
  }

  static v1::Event Event(const std::string& name, v1::FormatKind kind,
                         const std::string& competition) {
    v1::Event e;
    e.set_name(name);
    e.mutable_start()->set_year(2024);
    e.mutable_start()->set_month(5);
    e.mutable_start()->set_day(1);
    *e.mutable_end() = e.start();
    e.set_organiser_prefix("110");
    e.set_level(v1::EVENT_LEVEL_CITY);
    e.set_competition(competition);
    e.set_sub_event(v1::SUB_EVENT_MEN_INDIVIDUAL);
    e.set_highest_group(true);
    e.set_shared_places_allowed(true);
    e.mutable_format()->set_kind(kind);
    e.mutable_time()->set_time_class(v1::TIME_CLASS_A);
    return e;
  }

  int64_t Create(const v1::Event& e) {
    v1::CreateEventRequest req;
    *req.mutable_event() = e;
    v1::CreateEventResponse resp;
    grpc::Status s = events_->CreateEvent(Admin().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.event().id();
  }

  static v1::Entrant* AddEntrant(v1::EventResults& r, int id,
                                 int64_t player_id = 0) {
    v1::Entrant* e = r.add_entrants();
    e->set_id(id);
    e->set_family_name("P" + std::to_string(id));
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
    grpc::Status s = events_->SaveResults(Admin().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.standings();
  }
  v1::Standings Standings(int64_t id) {
    v1::GetStandingsRequest req;
    req.set_event_id(id);
    v1::GetStandingsResponse resp;
    grpc::Status s = events_->GetStandings(Admin().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.standings();
  }
  std::string Export(int64_t id, v1::ResultFileFormat format) {
    v1::ExportResultsRequest req;
    req.set_event_id(id);
    req.set_format(format);
    v1::ExportResultsResponse resp;
    grpc::Status s = events_->ExportResults(Admin().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.content();
  }
  grpc::Status Import(int64_t id, v1::ResultFileFormat format,
                      const std::string& text,
                      const std::vector<std::pair<int, int>>& withdrawals,
                      v1::ImportResultsResponse* resp) {
    v1::ImportResultsRequest req;
    req.set_event_id(id);
    req.set_format(format);
    req.set_content(text);
    req.set_allow_guests(true);
    for (const auto& [row, after] : withdrawals) {
      v1::Withdrawal* w = req.add_withdrawals();
      w->set_entrant_id(row);
      w->set_after_round(after);
    }
    return events_->ImportResults(Admin().get(), req, resp);
  }

  // entrant id -> (place label, points) of the standings.
  static std::map<int, std::pair<std::string, std::string>> Table(
      const v1::Standings& s) {
    std::map<int, std::pair<std::string, std::string>> out;
    for (const v1::StandingRow& r : s.rows()) {
      out[r.id()] = {r.place_label(), r.criteria(0).display()};
    }
    return out;
  }

  static InProcessServer* server_;
  std::unique_ptr<v1::PlayerRegistry::Stub> registry_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::EligibilityService::Stub> grades_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
  std::unique_ptr<v1::CertificateService::Stub> certs_;
};

InProcessServer* StandingsCorrectionsTest::server_ = nullptr;

// A city championship of 8 registered players, no shared places, where 1
// wins everything and 5 and 6 end equal on every criterion.
TEST_F(StandingsCorrectionsTest, PendingTieKeepsOnlyItsOwnPlacesPending) {
  v1::Event e = Event("City Championship 2024", v1::FORMAT_KIND_ROUND_ROBIN,
                      "city_championship");
  e.set_shared_places_allowed(false);
  const int64_t id = Create(e);
  std::vector<int64_t> players;
  v1::EventResults r;
  for (int i = 1; i <= 8; ++i) {
    players.push_back(Register("City Player " + std::to_string(i), "1d"));
    AddEntrant(r, i, players.back());
  }
  // 1 beats all; 2 beats 3..8; 3 beats 4..8; 4 beats 5..8; 5 and 6 draw
  // and both beat 7 and 8; 7 beats 8.
  int round = 0;
  for (int a = 1; a <= 8; ++a) {
    for (int b = a + 1; b <= 8; ++b) {
      const bool draw = a == 5 && b == 6;
      AddGame(r, ++round, a, b,
              draw ? v1::GAME_OUTCOME_DRAW : v1::GAME_OUTCOME_BLACK_WINS);
    }
  }
  const v1::Standings pending = Save(id, r);
  ASSERT_EQ(pending.status(), v1::STANDINGS_STATUS_PENDING_PLAYOFF);
  std::map<int, v1::StandingRow> row;
  for (const v1::StandingRow& x : pending.rows()) row[x.id()] = x;
  EXPECT_EQ(row[1].state(), v1::PLACE_STATE_ALONE);
  EXPECT_EQ(row[1].place_label(), "1");
  EXPECT_EQ(row[5].state(), v1::PLACE_STATE_PENDING_PLAYOFF);
  EXPECT_EQ(row[6].state(), v1::PLACE_STATE_PENDING_PLAYOFF);
  EXPECT_EQ(row[7].state(), v1::PLACE_STATE_ALONE);

  auto player_eval = [&](int64_t player) {
    v1::EvaluatePlayerRequest req;
    req.set_player_id(player);
    v1::EvaluatePlayerResponse resp;
    grpc::Status st = grades_->EvaluatePlayer(Admin().get(), req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_message();
    return resp;
  };
  auto event_eval = [&]() {
    v1::EvaluateEventRequest req;
    req.set_event_id(id);
    v1::EvaluateEventResponse resp;
    grpc::Status st = grades_->EvaluateEvent(Admin().get(), req, &resp);
    EXPECT_TRUE(st.ok()) << st.error_message();
    return resp;
  };
  // Before the close neither side gives a grade, and both say why.
  const v1::EvaluatePlayerResponse open_first = player_eval(players[0]);
  EXPECT_EQ(open_first.grants_size(), 0);
  ASSERT_EQ(open_first.near_misses_size(), 1);
  EXPECT_EQ(open_first.near_misses(0).grade(), v1::ATHLETE_GRADE_GRADE_3);
  EXPECT_THAT(open_first.near_misses(0).reason(),
              HasSubstr("event not closed"));
  const v1::EvaluateEventResponse open_event = event_eval();
  EXPECT_EQ(open_event.qualifying_size(), 0);
  EXPECT_THAT(::testing::PrintToString(open_event.blockers()),
              HasSubstr("is not closed"));

  // The event closes with the tie pending: the places not in dispute are
  // final and the games are rated.
  v1::CloseEventRequest close;
  close.set_event_id(id);
  v1::CloseEventResponse closed;
  grpc::Status s = events_->CloseEvent(Admin().get(), close, &closed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::GetRatingRequest rating;
  rating.set_player_id(players[0]);
  v1::GetRatingResponse rated;
  s = ratings_->GetRating(Admin().get(), rating, &rated);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_GT(rated.rating().gor(), 2100.0);

  // 1st: a grade from both sides; 5th: pending on both sides.
  const v1::EvaluatePlayerResponse first = player_eval(players[0]);
  ASSERT_EQ(first.grants_size(), 1);
  EXPECT_EQ(first.grants(0).grade(), v1::ATHLETE_GRADE_GRADE_3);
  const v1::EvaluatePlayerResponse fifth = player_eval(players[4]);
  EXPECT_EQ(fifth.grants_size(), 0);
  ASSERT_EQ(fifth.near_misses_size(), 1);
  EXPECT_EQ(fifth.near_misses(0).grade(), v1::ATHLETE_GRADE_GRADE_3);
  EXPECT_THAT(fifth.near_misses(0).reason(), HasSubstr("pending"));

  const v1::EvaluateEventResponse closed_event = event_eval();
  std::set<int> qualifying;
  for (const v1::EntrantGrants& q : closed_event.qualifying()) {
    qualifying.insert(q.id());
  }
  EXPECT_EQ(qualifying, (std::set<int>{1, 2, 3, 4}));
  EXPECT_THAT(::testing::PrintToString(closed_event.blockers()),
              HasSubstr("places 5-6 await a play-off"));

  // The play-off recorded after the close settles 5th and 6th; nothing
  // else may change on a closed event.
  v1::EditResultsRequest edit;
  edit.set_event_id(id);
  v1::TieDecision* d = edit.add_tie_decisions();
  d->set_method(v1::TIE_DECISION_METHOD_PLAYOFF);
  d->add_order(6);
  d->add_order(5);
  v1::EditResultsResponse edited;
  s = events_->EditResults(Admin().get(), edit, &edited);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(edited.standings().status(), v1::STANDINGS_STATUS_FINAL);
  v1::EditResultsRequest other;
  other.set_event_id(id);
  v1::Game* g = other.add_set_games();
  g->set_round(1);
  g->set_black_entrant_id(1);
  g->set_white_entrant_id(2);
  g->set_colours_known(true);
  g->set_outcome(v1::GAME_OUTCOME_WHITE_WINS);
  s = events_->EditResults(Admin().get(), other, &edited);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  // Both are in the city championship's top 6 now.
  EXPECT_EQ(player_eval(players[5]).grants_size(), 1);
  EXPECT_EQ(player_eval(players[4]).grants_size(), 1);
}

// A single round robin of 6 (S = 5): 6 withdrew after round 1 having played
// 1 game (2p < S: voided), 5 withdrew after round 3 having played 3
// (2p >= S: the meetings still missing are forfeits).
v1::EventResults WithdrawalResults() {
  v1::EventResults r;
  for (int i = 1; i <= 6; ++i) {
    v1::Entrant* e = r.add_entrants();
    e->set_id(i);
    e->set_family_name("W" + std::to_string(i));
    e->mutable_rank()->set_notation("2k");
  }
  r.mutable_entrants(5)->set_withdrawn(true);
  r.mutable_entrants(5)->set_withdrawn_after_round(1);
  r.mutable_entrants(4)->set_withdrawn(true);
  r.mutable_entrants(4)->set_withdrawn_after_round(3);
  auto game = [&](int round, int b, int w) {
    v1::Game* g = r.add_games();
    g->set_round(round);
    g->set_black_entrant_id(b);
    g->set_white_entrant_id(w);
    g->set_colours_known(true);
    g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
  };
  // Round 1: 6 beats 1, 5-2, 3-4. Rounds 2, 3: 5 plays 3 and 4.
  game(1, 6, 1);
  game(1, 5, 2);
  game(1, 3, 4);
  game(2, 5, 3);
  game(2, 1, 2);
  game(3, 4, 5);
  game(3, 1, 3);
  game(4, 1, 4);
  game(4, 2, 3);
  game(5, 2, 4);
  return r;
}

TEST_F(StandingsCorrectionsTest, ExportsApplyVoidsAndWithdrawalsAndRoundTrip) {
  const int64_t id = Create(
      Event("Withdrawals RR", v1::FORMAT_KIND_ROUND_ROBIN, "club_event"));
  const v1::Standings standings = Save(id, WithdrawalResults());
  ASSERT_THAT(standings.voided_entrant_ids(), ElementsAre(6));
  const auto table = Table(standings);

  const std::string csv = Export(id, v1::RESULT_FILE_FORMAT_CSV);
  // Row 6 is void (its win over 1 too), row 5's missing meetings with 1
  // and 2 are forfeits won by them.
  EXPECT_THAT(csv, HasSubstr("6,W6,,2k,,,,,1,0-,0-,0-,0-,0-"));
  EXPECT_THAT(csv, HasSubstr("+!?0"));
  const std::string egf = Export(id, v1::RESULT_FILE_FORMAT_EGF);

  // CSV round trip: the withdrawn_after column carries both.
  const int64_t csv_copy = Create(
      Event("Withdrawals RR (CSV)", v1::FORMAT_KIND_ROUND_ROBIN, "club_event"));
  v1::ImportResultsResponse imported;
  grpc::Status s =
      Import(csv_copy, v1::RESULT_FILE_FORMAT_CSV, csv, {}, &imported);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Table(Standings(csv_copy)), table);
  EXPECT_THAT(Standings(csv_copy).voided_entrant_ids(), ElementsAre(6));
  EXPECT_EQ(Export(csv_copy, v1::RESULT_FILE_FORMAT_CSV), csv);

  // EGF cannot say "withdrew": the import warns, and with the withdrawals
  // given the standings are the same.
  const int64_t egf_copy = Create(
      Event("Withdrawals RR (EGF)", v1::FORMAT_KIND_ROUND_ROBIN, "club_event"));
  v1::ImportResultsResponse dry;
  v1::ImportResultsRequest dry_req;
  dry_req.set_event_id(egf_copy);
  dry_req.set_format(v1::RESULT_FILE_FORMAT_EGF);
  dry_req.set_content(egf);
  dry_req.set_dry_run(true);
  s = events_->ImportResults(Admin().get(), dry_req, &dry);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // EGF rows are in standings order; the warnings name the rows.
  std::map<std::string, int> row_of;
  for (const v1::Entrant& x : dry.results().entrants()) {
    row_of[x.family_name()] = x.id();
  }
  // (W3's round-5 rest is flagged too: EGF cannot tell a rest from an
  // absence, so the warning says "if".)
  EXPECT_THAT(::testing::PrintToString(dry.warnings()),
              HasSubstr("--withdrawn " + std::to_string(row_of["W5"]) + "=3"));
  EXPECT_THAT(::testing::PrintToString(dry.warnings()),
              HasSubstr("--withdrawn " + std::to_string(row_of["W6"]) + "=0"));
  s = Import(egf_copy, v1::RESULT_FILE_FORMAT_EGF, egf,
             {{row_of["W5"], 3}, {row_of["W6"], 1}}, &imported);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // Compared by name (the rows are numbered differently).
  std::map<std::string, std::pair<std::string, std::string>> by_name, copy;
  for (const v1::StandingRow& x : standings.rows()) {
    by_name[x.name()] = {x.place_label(), x.criteria(0).display()};
  }
  const v1::Standings egf_standings = Standings(egf_copy);
  for (const v1::StandingRow& x : egf_standings.rows()) {
    copy[x.name()] = {x.place_label(), x.criteria(0).display()};
  }
  EXPECT_EQ(copy, by_name);
  EXPECT_EQ(egf_standings.voided_entrant_ids_size(), 1);
  // Byte for byte but for the event's name.
  const auto body = [](const std::string& t) {
    return t.substr(t.find("; Pl "));
  };
  EXPECT_EQ(body(Export(egf_copy, v1::RESULT_FILE_FORMAT_EGF)), body(egf));
}

TEST_F(StandingsCorrectionsTest, EgfSwissWithTrailingAbsencesWarns) {
  v1::Event e = Event("Swiss 3", v1::FORMAT_KIND_SWISS, "club_event");
  e.mutable_format()->set_rounds(3);
  const int64_t id = Create(e);
  const std::string egf =
      "; EV[Swiss 3]\n"
      ";\n"
      "; Pl Name Rk Co Club\n"
      "1 Aa Bb 1d CN Bj 2+/w0 3+/b0 4+/w0\n"
      "2 Cc Dd 1d CN Bj 1-/b0 4-/w0 3+/b0\n"
      "3 Ee Ff 1d CN Bj 4+/w0 1-/w0 2-/w0\n"
      "4 Gg Hh 1d CN Bj 3-/b0 2+/b0 1-/b0\n"
      "5 Ii Jj 1d CN Bj 0+ 0- 0-\n";
  v1::ImportResultsResponse resp;
  grpc::Status s = Import(id, v1::RESULT_FILE_FORMAT_EGF, egf, {}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.warnings_size(), 1);
  EXPECT_THAT(resp.warnings(0), HasSubstr("row 5"));
  EXPECT_THAT(resp.warnings(0), HasSubstr("rounds 2-3"));
  EXPECT_THAT(resp.warnings(0), HasSubstr("--withdrawn 5=1"));
  s = Import(id, v1::RESULT_FILE_FORMAT_EGF, egf, {{5, 1}}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.warnings_size(), 0);
  const v1::Standings st = Standings(id);
  for (const v1::StandingRow& x : st.rows()) {
    if (x.id() == 5) {
      EXPECT_THAT(x.note(), HasSubstr("withdrew after round 1"));
    }
  }

  // The Swiss withdrawal survives both round trips.
  auto by_name = [](const v1::Standings& x) {
    std::map<std::string, std::vector<std::string>> out;
    for (const v1::StandingRow& r : x.rows()) {
      out[r.name()] = {r.place_label(), r.criteria(2).display(), r.note()};
    }
    return out;
  };
  const std::string csv = Export(id, v1::RESULT_FILE_FORMAT_CSV);
  EXPECT_THAT(csv, HasSubstr("5,Ii,Jj,1d,CN,Bj,,,1,0+,0-,0-"));
  e.set_name("Swiss 3 (CSV)");
  const int64_t csv_copy = Create(e);
  s = Import(csv_copy, v1::RESULT_FILE_FORMAT_CSV, csv, {}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(by_name(Standings(csv_copy)), by_name(st));
  const std::string egf_out = Export(id, v1::RESULT_FILE_FORMAT_EGF);
  e.set_name("Swiss 3 (EGF)");
  const int64_t egf_copy = Create(e);
  s = Import(egf_copy, v1::RESULT_FILE_FORMAT_EGF, egf_out, {}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.warnings_size(), 1);
  int row = 0;
  for (const v1::Entrant& x : resp.results().entrants()) {
    if (x.family_name() == "Ii") row = x.id();
  }
  EXPECT_THAT(resp.warnings(0),
              HasSubstr("--withdrawn " + std::to_string(row) + "=1"));
  s = Import(egf_copy, v1::RESULT_FILE_FORMAT_EGF, egf_out, {{row, 1}}, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(by_name(Standings(egf_copy)), by_name(st));
}

TEST_F(StandingsCorrectionsTest, RelayShowsPlayersLeftAndGamesWon) {
  v1::Event e = Event("City Relay", v1::FORMAT_KIND_RELAY, "city_relay");
  e.set_sub_event(v1::SUB_EVENT_MEN_TEAM);
  const int64_t id = Create(e);
  v1::EventResults r;
  for (int i = 1; i <= 6; ++i) AddEntrant(r, i)->set_team_id(i <= 3 ? 1 : 2);
  for (int t = 1; t <= 2; ++t) {
    v1::Team* team = r.add_teams();
    team->set_id(t);
    team->set_name(t == 1 ? "East" : "West");
    for (int b = 1; b <= 3; ++b) team->add_board_order((t - 1) * 3 + b);
  }
  AddGame(r, 1, 1, 4);  // East 1 beats West 1
  AddGame(r, 2, 1, 5);  // and West 2
  const v1::Standings running = Save(id, r);
  ASSERT_EQ(running.status(), v1::STANDINGS_STATUS_PENDING_RESULTS);
  std::map<int, v1::RelayPlayer> p;
  for (const v1::RelayPlayer& x : running.relay_players())
    p[x.entrant_id()] = x;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[1].games_won(), 2);
  EXPECT_EQ(p[1].left_after_game(), 0);
  EXPECT_EQ(p[4].left_after_game(), 1);
  EXPECT_EQ(p[5].left_after_game(), 2);
  EXPECT_EQ(p[6].left_after_game(), 0);

  AddGame(r, 3, 6, 1);  // West 3 beats East 1
  AddGame(r, 4, 6, 2);
  AddGame(r, 5, 3, 6);  // East 3 beats West 3: West is out
  const v1::Standings done = Save(id, r);
  ASSERT_EQ(done.status(), v1::STANDINGS_STATUS_FINAL);
  ASSERT_EQ(done.rows_size(), 2);
  EXPECT_EQ(done.rows(0).name(), "East");
  EXPECT_THAT(done.rows(0).players_left(), ElementsAre(3));
  EXPECT_EQ(done.rows(1).players_left_size(), 0);
  p.clear();
  for (const v1::RelayPlayer& x : done.relay_players()) p[x.entrant_id()] = x;
  EXPECT_EQ(p[6].games_won(), 2);
  EXPECT_EQ(p[6].left_after_game(), 5);
  EXPECT_EQ(p[3].games_won(), 1);
}

TEST_F(StandingsCorrectionsTest, TeamStandingsShowEveryMatch) {
  v1::Event e = Event("Team RR", v1::FORMAT_KIND_TEAM_ROUND_ROBIN,
                      "provincial_team_championship");
  e.set_level(v1::EVENT_LEVEL_PROVINCIAL);
  e.set_sub_event(v1::SUB_EVENT_MEN_TEAM);
  e.mutable_format()->set_boards(2);
  const int64_t id = Create(e);
  v1::EventResults r;
  for (int i = 1; i <= 6; ++i) AddEntrant(r, i)->set_team_id((i + 1) / 2);
  for (int t = 1; t <= 3; ++t) {
    v1::Team* team = r.add_teams();
    team->set_id(t);
    team->set_name("T" + std::to_string(t));
    team->add_board_order(2 * t - 1);
    team->add_board_order(2 * t);
  }
  // Round 1: T1 2-0 T2 on boards; round 2: T1 1-1 T3 (board points 2:2);
  // round 3: T3 beats T2 on board 1, draw on board 2 (3:1).
  AddGame(r, 1, 1, 3, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 1, 2, 4, v1::GAME_OUTCOME_BLACK_WINS, 2);
  AddGame(r, 2, 1, 5, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 2, 2, 6, v1::GAME_OUTCOME_WHITE_WINS, 2);
  AddGame(r, 3, 5, 3, v1::GAME_OUTCOME_BLACK_WINS, 1);
  AddGame(r, 3, 6, 4, v1::GAME_OUTCOME_DRAW, 2);
  const v1::Standings s = Save(id, r);
  ASSERT_EQ(s.matches_size(), 3);
  const v1::TeamMatch& m1 = s.matches(0);
  EXPECT_EQ(m1.round(), 1);
  EXPECT_EQ(m1.team_a(), 1);
  EXPECT_EQ(m1.team_b(), 2);
  EXPECT_EQ(m1.board_points_a(), 4);
  EXPECT_EQ(m1.board_points_b(), 0);
  EXPECT_EQ(m1.match_points_a(), 2);
  EXPECT_EQ(m1.match_points_b(), 0);
  const v1::TeamMatch& m2 = s.matches(1);
  EXPECT_EQ(m2.board_points_a(), 2);
  EXPECT_EQ(m2.board_points_b(), 2);
  EXPECT_EQ(m2.match_points_a(), 1);
  EXPECT_EQ(m2.match_points_b(), 1);
  const v1::TeamMatch& m3 = s.matches(2);
  EXPECT_EQ(m3.team_a(), 2);
  EXPECT_EQ(m3.team_b(), 3);
  EXPECT_EQ(m3.board_points_a(), 1);
  EXPECT_EQ(m3.board_points_b(), 3);
  EXPECT_EQ(m3.match_points_b(), 2);
}

TEST_F(StandingsCorrectionsTest,
       CatalogueNamesEveryCompetitionOfTheGradeTable) {
  v1::ListCompetitionsResponse list;
  grpc::Status s = events_->ListCompetitions(
      InProcessServer::Context("").get(), v1::ListCompetitionsRequest(), &list);
  ASSERT_TRUE(s.ok()) << s.error_message();
  std::map<std::string, std::set<std::string>> groups;
  for (const v1::Competition& c : list.competitions()) {
    groups[c.code()].insert(c.groups().begin(), c.groups().end());
  }
  const auto& standard = eligibility::GradeStandard::Default();
  for (const eligibility::GradeRule& r : standard.rules()) {
    ASSERT_TRUE(groups.count(r.competition)) << r.competition;
    if (!r.group.empty()) {
      EXPECT_TRUE(groups[r.competition].count(r.group))
          << r.competition << "/" << r.group;
    }
  }
  for (const eligibility::Recognition& r : standard.recognitions()) {
    EXPECT_TRUE(groups.count(r.competition)) << r.competition;
    ASSERT_TRUE(groups.count(r.counts_as)) << r.counts_as;
    if (!r.group.empty()) {
      EXPECT_TRUE(groups[r.counts_as].count(r.group));
    }
  }
  for (const char* local : {"city_open", "club_championship",
                            "provincial_team_championship", "city_relay"}) {
    EXPECT_TRUE(groups.count(local)) << local;
  }
}

TEST_F(StandingsCorrectionsTest, NearMissNamesTheGradeAndEveryReason) {
  v1::EvaluatePlayerRequest req;
  req.set_player_id(Register("Near Miss", "3d"));
  v1::EventPlacing* p = req.add_extra_placings();
  p->set_event_name("Lower group, few players");
  p->set_competition("provincial_championship");
  p->set_group("b");
  p->set_highest_group(false);
  p->set_sub_event(v1::SUB_EVENT_MEN_INDIVIDUAL);
  p->set_place(3);
  p->set_entrants_played(6);
  v1::EvaluatePlayerResponse resp;
  grpc::Status s = grades_->EvaluatePlayer(Admin().get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.near_misses_size(), 1);
  const v1::NearMiss& m = resp.near_misses(0);
  EXPECT_EQ(m.grade(), v1::ATHLETE_GRADE_GRADE_3);
  EXPECT_EQ(m.clause(), "五(三)");
  EXPECT_THAT(m.reasons(),
              ElementsAre("only 6 entrants played; at least 8 required",
                          "group b not the event's highest"));
  EXPECT_EQ(m.reason(),
            "only 6 entrants played; at least 8 required; group b not the "
            "event's highest");
}

TEST_F(StandingsCorrectionsTest, AppraisedDanUnderNoticeReportsBoth) {
  const int64_t player = Register("Appraised", "3d");
  v1::RecommendAppraisalRequest rec;
  rec.set_player_id(player);
  rec.mutable_grade()->set_notation("5d");
  rec.set_note("strong results abroad");
  v1::RecommendAppraisalResponse recommended;
  grpc::Status s = certs_->RecommendAppraisal(
      InProcessServer::Context(server_->op110).get(), rec, &recommended);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::DecideAppraisalRequest decide;
  decide.set_appraisal_id(recommended.appraisal().id());
  decide.set_approve(true);
  v1::DecideAppraisalResponse decided;
  s = certs_->DecideAppraisal(Admin().get(), decide, &decided);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::EvaluatePlayerRequest req;
  req.set_player_id(player);
  v1::EvaluatePlayerResponse resp;
  s = grades_->EvaluatePlayer(Admin().get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(resp.near_misses_size(), 1);
  const v1::NearMiss& m = resp.near_misses(0);
  EXPECT_EQ(m.grade(), v1::ATHLETE_GRADE_GRADE_2);
  EXPECT_THAT(m.reasons(), ElementsAre(HasSubstr("obtained by appraisal"),
                                       HasSubstr("still under notice")));
}

}  // namespace
}  // namespace gorank::tournaments
