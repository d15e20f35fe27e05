// TournamentService and EligibilityService through real gRPC: a whole
// RankdServer on 127.0.0.1:0 with a temp database (InProcessServer). Imports
// the shared EGF test file, reads standings, exports byte-identical to the
// domain writer; bad files are refused whole with line numbers and nothing
// stored; operators of another agency are refused; one player qualifies for
// an athlete grade once the event is closed.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/eligibility.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/tournaments/result_file.h"
#include "services/tournaments/tournament_proto_convert.h"
#include "tests/testing/in_process_server.h"
#include "tests/tournaments/event_tables.h"

namespace gorank::tournaments {
namespace {

using gorank::testing::InProcessServer;
using ::testing::HasSubstr;

std::string ReadTestFile(const std::string& rel) {
  std::ifstream in(std::string(GORANK_TESTDATA_DIR) + "/" + rel,
                   std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Replace(std::string text, const std::string& from,
                    const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class TournamentServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new InProcessServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    events_ = v1::TournamentService::NewStub(server_->channel());
    grades_ = v1::EligibilityService::NewStub(server_->channel());
  }

  static v1::Event CityEvent(const std::string& name) {
    v1::Event e;
    e.set_name(name);
    e.mutable_start()->set_year(2025);
    e.mutable_start()->set_month(5);
    e.mutable_start()->set_day(1);
    *e.mutable_end() = e.start();
    e.set_organiser_prefix("110");
    e.set_level(v1::EVENT_LEVEL_CITY);
    e.set_competition("club_event");
    e.set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e.set_highest_group(true);
    e.set_shared_places_allowed(true);
    e.mutable_format()->set_kind(v1::FORMAT_KIND_ROUND_ROBIN);
    return e;
  }

  int64_t Create(const v1::Event& e, const std::string& token) {
    v1::CreateEventRequest req;
    *req.mutable_event() = e;
    v1::CreateEventResponse resp;
    grpc::Status s =
        events_->CreateEvent(InProcessServer::Context(token).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.event().id();
  }

  grpc::Status Import(int64_t id, const std::string& text,
                      const std::string& token,
                      v1::ImportResultsResponse* resp = nullptr) {
    v1::ImportResultsRequest req;
    req.set_event_id(id);
    req.set_format(v1::RESULT_FILE_FORMAT_EGF);
    req.set_content(text);
    req.set_allow_guests(true);  // nobody in these files is registered
    v1::ImportResultsResponse ignored;
    return events_->ImportResults(InProcessServer::Context(token).get(), req,
                                  resp ? resp : &ignored);
  }

  std::map<std::string, int64_t> Rows() {
    auto rows = testing::CountEventRows(server_->server()->database());
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.value_or(std::map<std::string, int64_t>{});
  }

  static InProcessServer* server_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::EligibilityService::Stub> grades_;
};

InProcessServer* TournamentServiceTest::server_ = nullptr;

// ListEvents pages by start date, then id: every event exactly once, in
// order, across pages; a token of another filter is refused.
TEST_F(TournamentServiceTest, EventsArePagedByStartDateThenId) {
  std::vector<std::pair<int, int64_t>> made;  // (month, id)
  for (int month : {3, 2, 3, 4, 4}) {
    v1::Event e = CityEvent("paged " + std::to_string(made.size()));
    e.mutable_start()->set_year(2031);
    e.mutable_start()->set_month(month);
    *e.mutable_end() = e.start();
    made.emplace_back(month, Create(e, server_->op110));
  }
  std::sort(made.begin(), made.end());
  v1::ListEventsRequest req;
  req.mutable_starts_on_or_after()->set_year(2031);
  req.mutable_starts_on_or_after()->set_month(1);
  req.mutable_starts_on_or_after()->set_day(1);
  req.mutable_starts_on_or_before()->set_year(2031);
  req.mutable_starts_on_or_before()->set_month(12);
  req.mutable_starts_on_or_before()->set_day(31);
  req.set_page_size(2);
  std::vector<std::pair<int, int64_t>> listed;
  int pages = 0;
  std::string first_token;
  do {
    v1::ListEventsResponse page;
    grpc::Status s =
        events_->ListEvents(InProcessServer::Context("").get(), req, &page);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_LE(page.events_size(), 2);
    for (const v1::Event& e : page.events())
      listed.emplace_back(e.start().month(), e.id());
    if (pages++ == 0) first_token = page.next_page_token();
    req.set_page_token(page.next_page_token());
  } while (!req.page_token().empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(listed, made);

  req.set_competition("club_event");
  req.set_page_token(first_token);
  v1::ListEventsResponse refused;
  grpc::Status s =
      events_->ListEvents(InProcessServer::Context("").get(), req, &refused);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), ::testing::HasSubstr("another query"));
}

// newest_first lists the same events in the reverse order, page by page;
// its tokens are not those of the ascending list.
TEST_F(TournamentServiceTest, EventsAreListedNewestFirst) {
  std::vector<std::pair<int, int64_t>> made;  // (month, id)
  for (int month : {7, 6, 7, 8}) {
    v1::Event e = CityEvent("newest " + std::to_string(made.size()));
    e.mutable_start()->set_year(2032);
    e.mutable_start()->set_month(month);
    *e.mutable_end() = e.start();
    made.emplace_back(month, Create(e, server_->op110));
  }
  std::sort(made.rbegin(), made.rend());
  v1::ListEventsRequest req;
  req.mutable_starts_on_or_after()->set_year(2032);
  req.mutable_starts_on_or_after()->set_month(1);
  req.mutable_starts_on_or_after()->set_day(1);
  req.set_newest_first(true);
  req.set_page_size(3);
  std::vector<std::pair<int, int64_t>> listed;
  v1::ListEventsResponse first;
  ASSERT_TRUE(
      events_->ListEvents(InProcessServer::Context("").get(), req, &first)
          .ok());
  for (const v1::Event& e : first.events())
    listed.emplace_back(e.start().month(), e.id());
  ASSERT_FALSE(first.next_page_token().empty());
  req.set_page_token(first.next_page_token());
  v1::ListEventsResponse second;
  ASSERT_TRUE(
      events_->ListEvents(InProcessServer::Context("").get(), req, &second)
          .ok());
  for (const v1::Event& e : second.events())
    listed.emplace_back(e.start().month(), e.id());
  EXPECT_TRUE(second.next_page_token().empty());
  EXPECT_EQ(listed, made);

  req.set_newest_first(false);
  v1::ListEventsResponse refused;
  const grpc::Status s =
      events_->ListEvents(InProcessServer::Context("").get(), req, &refused);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("another query"));
}

TEST_F(TournamentServiceTest, ImportStandingsAndByteIdenticalExport) {
  const int64_t id =
      Create(CityEvent("Test Club Round Robin 2025"), server_->op110);
  const std::string text = ReadTestFile("egf/round_robin_forfeits.h9");
  v1::ImportResultsResponse imported;
  grpc::Status s = Import(id, text, server_->op110, &imported);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(imported.results().entrants_size(), 6);
  EXPECT_EQ(imported.event().name(), "Test Club Round Robin 2025");

  // Standings are public; every row carries its criteria.
  v1::GetStandingsRequest sreq;
  sreq.set_event_id(id);
  v1::GetStandingsResponse standings;
  s = events_->GetStandings(InProcessServer::Context("").get(), sreq,
                            &standings);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const v1::Standings& st = standings.standings();
  EXPECT_EQ(st.status(), v1::STANDINGS_STATUS_FINAL);
  ASSERT_EQ(st.rows_size(), 6);
  ASSERT_GE(st.criteria_names_size(), 2);
  EXPECT_EQ(st.criteria_names(0), "points");
  EXPECT_EQ(st.criteria_names(1), "A");
  const char* const names[] = {"Qian Ming", "Wu Fang", "Zhao Lei",
                               "Zhou Jie",  "Sun Li",  "Li Wei"};
  const int points[] = {7, 6, 6, 5, 4, 2};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(st.rows(i).name(), names[i]);
    EXPECT_EQ(st.rows(i).place(), i + 1);
    EXPECT_EQ(st.rows(i).criteria(0).numerator(), points[i]);
  }
  EXPECT_EQ(st.rows(0).criteria(1).numerator(), 29);  // A = 29/2
  EXPECT_EQ(st.rows(0).criteria(1).denominator(), 2);
  EXPECT_EQ(st.rows(0).criteria(1).display(), "14.5");

  // Export: the domain writer's bytes for the stored event and results.
  v1::GetEventRequest ereq;
  ereq.set_event_id(id);
  v1::GetEventResponse event;
  ASSERT_TRUE(
      events_->GetEvent(InProcessServer::Context("").get(), ereq, &event).ok());
  v1::GetResultsRequest rreq;
  rreq.set_event_id(id);
  v1::GetResultsResponse results;
  ASSERT_TRUE(
      events_->GetResults(InProcessServer::Context("").get(), rreq, &results)
          .ok());
  auto domain_event = EventFromProto(event.event());
  auto domain_results = ResultsFromProto(results.results());
  ASSERT_TRUE(domain_event.ok() && domain_results.ok());
  auto domain_standings = ComputeStandings(*domain_event, *domain_results);
  ASSERT_TRUE(domain_standings.ok());
  auto want = WriteEgf(*domain_event, *domain_results, &*domain_standings, {});
  ASSERT_TRUE(want.ok()) << want.status();
  v1::ExportResultsRequest xreq;
  xreq.set_event_id(id);
  xreq.set_format(v1::RESULT_FILE_FORMAT_EGF);
  v1::ExportResultsResponse exported;
  s = events_->ExportResults(InProcessServer::Context("").get(), xreq,
                             &exported);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(exported.content(), *want);
  // ... and reading the export back gives the same results.
  auto again = ReadEgf(exported.content());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->results.games.size(), domain_results->games.size());
}

TEST_F(TournamentServiceTest, BadFilesAreRefusedWholeWithLineNumbers) {
  const int64_t id = Create(CityEvent("Refused imports"), server_->admin);
  const std::string good = ReadTestFile("egf/round_robin_forfeits.h9");
  // Row 1 (Qian Ming) is line 11 of the file.
  struct Case {
    const char* what;
    std::string text;
    const char* line;
  };
  const Case cases[] = {
      {"asymmetric result", Replace(good, "3+/b0    2-/w0", "3+/b0    2+/w0"),
       "line 1"},
      {"wrong round count", Replace(good, "5+/w0    6+!b0", "5+/w0"),
       "line 11"},
      {"unknown opponent row",
       Replace(good, "5+/w0    6+!b0", "9+/w0    6+!b0"), "line 11"},
      {"bad rank",
       Replace(good, "Qian Ming                       1d",
               "Qian Ming                       1x"),
       "line 11"},
  };
  for (const Case& c : cases) {
    const auto before = Rows();
    grpc::Status s = Import(id, c.text, server_->admin);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.what;
    EXPECT_THAT(s.error_message(), HasSubstr(c.line))
        << c.what << ": " << s.error_message();
    EXPECT_EQ(Rows(), before) << c.what;  // nothing stored, nothing audited
  }
  v1::GetResultsRequest rreq;
  rreq.set_event_id(id);
  v1::GetResultsResponse results;
  ASSERT_TRUE(
      events_->GetResults(InProcessServer::Context("").get(), rreq, &results)
          .ok());
  EXPECT_EQ(results.results().entrants_size(), 0);
}

TEST_F(TournamentServiceTest,
       OnlyTheOrganisingAgencyAndTheNationalAdminChangeAnEvent) {
  const int64_t id = Create(CityEvent("Beijing only"), server_->op110);
  const std::string text = ReadTestFile("egf/round_robin_forfeits.h9");
  const auto before = Rows();
  EXPECT_EQ(Import(id, text, server_->op130).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Import(id, text, server_->auditor).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Import(id, text, "").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::CloseEventRequest close;
  close.set_event_id(id);
  v1::CloseEventResponse closed;
  EXPECT_EQ(events_
                ->CloseEvent(InProcessServer::Context(server_->op130).get(),
                             close, &closed)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  v1::CreateEventRequest other;
  *other.mutable_event() = CityEvent("Hebei's, not ours");
  other.mutable_event()->set_organiser_prefix("130");
  v1::CreateEventResponse created;
  EXPECT_EQ(events_
                ->CreateEvent(InProcessServer::Context(server_->op110).get(),
                              other, &created)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Rows(), before);
  // The organiser records a round; the national admin closes the event.
  ASSERT_TRUE(Import(id, text, server_->op110).ok());
  v1::RecordRoundRequest round;
  round.set_event_id(id);
  round.set_round(1);
  v1::RecordRoundResponse recorded;
  EXPECT_EQ(events_
                ->RecordRound(InProcessServer::Context(server_->op130).get(),
                              round, &recorded)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  grpc::Status s = events_->CloseEvent(
      InProcessServer::Context(server_->admin).get(), close, &closed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(closed.event().closed());
  EXPECT_EQ(Import(id, text, server_->op110).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(TournamentServiceTest, APlayerQualifiesForGrade1OnceTheEventIsClosed) {
  auto registry = v1::PlayerRegistry::NewStub(server_->channel());
  v1::RegisterPlayerRequest reg;
  reg.set_name("王小明");
  reg.set_agency_prefix("110");
  v1::RegisterPlayerResponse player;
  grpc::Status s = registry->RegisterPlayer(
      InProcessServer::Context(server_->admin).get(), reg, &player);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const int64_t pid = player.player().id();

  v1::Event open = CityEvent("National Amateur Open 2025");
  open.set_organiser_prefix("000");
  open.set_level(v1::EVENT_LEVEL_NATIONAL);
  open.set_competition("national_amateur_open");
  const int64_t id = Create(open, server_->admin);
  v1::SaveResultsRequest save;
  save.set_event_id(id);
  for (int i = 1; i <= 8; ++i) {
    v1::Entrant* e = save.mutable_results()->add_entrants();
    e->set_id(i);
    e->set_family_name(i == 1 ? "王" : "Player");
    e->set_given_name(i == 1 ? "小明" : std::to_string(i));
    e->mutable_rank()->set_notation("3d");
    if (i == 1) e->set_player_id(pid);
  }
  for (int i = 1; i <= 8; i += 2) {  // round 1: 1-2, 3-4, 5-6, 7-8, black wins
    v1::Game* g = save.mutable_results()->add_games();
    g->set_round(1);
    g->set_black_entrant_id(i);
    g->set_white_entrant_id(i + 1);
    g->set_colours_known(true);
    g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
  }
  v1::SaveResultsResponse saved;
  s = events_->SaveResults(InProcessServer::Context(server_->admin).get(), save,
                           &saved);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(saved.standings().entrants_played(), 8);

  v1::EvaluatePlayerRequest ereq;
  ereq.set_player_id(pid);
  v1::EvaluatePlayerResponse open_eval;
  ASSERT_TRUE(
      grades_
          ->EvaluatePlayer(InProcessServer::Context("").get(), ereq, &open_eval)
          .ok());
  EXPECT_EQ(open_eval.grants_size(), 0);  // the event is not closed yet
  ASSERT_GE(open_eval.near_misses_size(), 1);

  v1::CloseEventRequest close;
  close.set_event_id(id);
  v1::CloseEventResponse closed;
  s = events_->CloseEvent(InProcessServer::Context(server_->admin).get(), close,
                          &closed);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::EvaluatePlayerResponse eval;
  s = grades_->EvaluatePlayer(InProcessServer::Context("").get(), ereq, &eval);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_GE(eval.grants_size(), 1);
  EXPECT_EQ(eval.grants(0).grade(), v1::ATHLETE_GRADE_GRADE_1);
  EXPECT_EQ(eval.grants(0).clause(), "三(三)");
  EXPECT_EQ(eval.grants(0).grade_name_zh(), "一级运动员");
  EXPECT_EQ(eval.grants(0).basis().placing().event_id(), id);
  EXPECT_EQ(eval.grants(0).basis().placing().place(), 1);
  EXPECT_EQ(eval.grants(0).basis().placing().entrants_played(), 8);

  v1::EvaluateEventRequest evreq;
  evreq.set_event_id(id);
  v1::EvaluateEventResponse event_eval;
  s = grades_->EvaluateEvent(InProcessServer::Context("").get(), evreq,
                             &event_eval);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(event_eval.qualifying_size(), 8);  // places 1= and 5=, all top 16
  EXPECT_THAT(event_eval.qualifying(0).player_ids(),
              ::testing::ElementsAre(pid));
}

TEST_F(TournamentServiceTest, ADanCertificateQualifiesOnceItsNoticeHasEnded) {
  auto registry = v1::PlayerRegistry::NewStub(server_->channel());
  v1::RegisterPlayerRequest reg;
  reg.set_name("李四");
  reg.set_agency_prefix("000");
  reg.set_gender(v1::GENDER_MALE);
  reg.mutable_birth_date()->set_year(1990);
  reg.mutable_birth_date()->set_month(3);
  reg.mutable_birth_date()->set_day(4);
  reg.mutable_initial_rank()->set_notation("3d");
  reg.set_initial_rank_basis("2020 certificate");
  v1::RegisterPlayerResponse player;
  grpc::Status s = registry->RegisterPlayer(
      InProcessServer::Context(server_->admin).get(), reg, &player);
  ASSERT_TRUE(s.ok()) << s.error_message();
  auto certs = v1::CertificateService::NewStub(server_->channel());
  v1::IssueCertificateRequest issue;
  issue.set_player_id(player.player().id());
  issue.mutable_grade()->set_notation("4d");
  issue.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  issue.set_basis_reference("2025 national championship, 5th place");
  issue.set_agency_prefix("000");
  v1::IssueCertificateResponse issued;
  s = certs->IssueCertificate(InProcessServer::Context(server_->admin).get(),
                              issue, &issued);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::EvaluatePlayerRequest ereq;
  ereq.set_player_id(player.player().id());
  v1::EvaluatePlayerResponse under_notice;
  ASSERT_TRUE(grades_
                  ->EvaluatePlayer(InProcessServer::Context("").get(), ereq,
                                   &under_notice)
                  .ok());
  EXPECT_EQ(under_notice.grants_size(), 0);
  ASSERT_EQ(under_notice.near_misses_size(), 1);
  // Public-data policy: the public sees the number as prefix and year.
  EXPECT_EQ(under_notice.near_misses(0).basis().certificate().number(),
            issued.certificate().number().substr(0, 5) + "****");
  EXPECT_FALSE(under_notice.near_misses(0).basis().certificate().effective());

  server_->clock().Advance(8 * 86400);  // the 7-day public notice ends
  v1::EvaluatePlayerResponse effective;
  ASSERT_TRUE(
      grades_
          ->EvaluatePlayer(InProcessServer::Context("").get(), ereq, &effective)
          .ok());
  ASSERT_EQ(effective.grants_size(), 1);
  EXPECT_EQ(effective.grants(0).grade(), v1::ATHLETE_GRADE_GRADE_2);
  EXPECT_EQ(effective.grants(0).basis().certificate().number(),
            issued.certificate().number().substr(0, 5) + "****");
  EXPECT_EQ(effective.grants(0).basis().certificate().rank().notation(), "4d");
  v1::EvaluatePlayerResponse for_staff;
  ASSERT_TRUE(
      grades_
          ->EvaluatePlayer(InProcessServer::Context(server_->admin).get(), ereq,
                           &for_staff)
          .ok());
  EXPECT_EQ(for_staff.grants(0).basis().certificate().number(),
            issued.certificate().number());
}

}  // namespace
}  // namespace gorank::tournaments
