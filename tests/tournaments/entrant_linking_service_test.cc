// Issue #16 sections 1-2 through real gRPC (a whole RankdServer, temp
// database; also run on PostgreSQL as pg.*): imported rows are matched to
// the registry on the server (name in Chinese or Latin, agency, rank),
// unresolved rows refuse the import with nothing stored, resolutions link
// or declare guests, a CSV export carries the player ids and its import
// links by them, and EditResults changes only the game it names.
#include "gmock/gmock.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_server.h"
#include "tests/tournaments/event_tables.h"

namespace gorank::tournaments {
namespace {

using gorank::testing::InProcessServer;
using ::testing::HasSubstr;

// A round robin of four; row 2 is written in Chinese, row 4's Li Wei is
// registered only in agency 130.
const char kEgf[] =
    "; EV[Linking test]\n"
    ";\n"
    "   1 Wang Lei                        5d CN 110    4+/b0    3+/b0    "
    "2+/b0\n"
    "   2 张伟                            4d CN 110    3+/b0    4+/w0    "
    "1-/w0\n"
    "   3 Chen Chen                       3d CN 110    2-/w0    1-/w0    "
    "4+/b0\n"
    "   4 Li Wei                          2d CN 110    1-/w0    2-/b0    "
    "3-/w0\n";

class EntrantLinkingServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new InProcessServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    events_ = v1::TournamentService::NewStub(server_->channel());
    players_ = v1::PlayerRegistry::NewStub(server_->channel());
  }

  int64_t Register(const std::string& name, const std::string& latin,
                   const std::string& agency, const std::string& rank) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_latin_name(latin);
    req.set_agency_prefix(agency);
    req.mutable_initial_rank()->set_notation(rank);
    v1::RegisterPlayerResponse resp;
    grpc::Status s = players_->RegisterPlayer(
        InProcessServer::Context(server_->admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }

  int64_t CreateEvent(const std::string& name) {
    v1::CreateEventRequest req;
    v1::Event& e = *req.mutable_event();
    e.set_name(name);
    e.mutable_start()->set_year(2025);
    e.mutable_start()->set_month(6);
    e.mutable_start()->set_day(1);
    *e.mutable_end() = e.start();
    e.set_organiser_prefix("110");
    e.set_level(v1::EVENT_LEVEL_CLUB);
    e.set_competition("club_event");
    e.set_sub_event(v1::SUB_EVENT_OPEN_INDIVIDUAL);
    e.set_highest_group(true);
    e.set_shared_places_allowed(true);
    e.mutable_format()->set_kind(v1::FORMAT_KIND_ROUND_ROBIN);
    v1::CreateEventResponse resp;
    grpc::Status s = events_->CreateEvent(
        InProcessServer::Context(server_->op110).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.event().id();
  }

  grpc::Status Import(const v1::ImportResultsRequest& req,
                      v1::ImportResultsResponse* resp) {
    return events_->ImportResults(
        InProcessServer::Context(server_->op110).get(), req, resp);
  }

  v1::EventResults Results(int64_t id) {
    v1::GetResultsRequest req;
    req.set_event_id(id);
    v1::GetResultsResponse resp;
    EXPECT_TRUE(
        events_->GetResults(InProcessServer::Context("").get(), req, &resp)
            .ok());
    return resp.results();
  }

  std::map<std::string, int64_t> Rows() {
    auto rows = testing::CountEventRows(server_->server()->database());
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.value_or(std::map<std::string, int64_t>{});
  }

  static InProcessServer* server_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::PlayerRegistry::Stub> players_;
};

InProcessServer* EntrantLinkingServiceTest::server_ = nullptr;

TEST_F(EntrantLinkingServiceTest,
       ImportMatchesResolvesRoundTripsAndEditsOneGame) {
  const int64_t wang = Register("王磊", "Wang Lei", "110", "5d");
  const int64_t zhang = Register("张伟", "Zhang Wei", "110", "4d");
  const int64_t chen1 = Register("陈晨", "Chen Chen", "110", "3d");
  const int64_t chen2 = Register("陈晨", "Chen Chen", "110", "3d");
  const int64_t li = Register("李伟", "Li Wei", "130", "2d");
  const int64_t id = CreateEvent("Linking test");

  v1::ImportResultsRequest req;
  req.set_event_id(id);
  req.set_format(v1::RESULT_FILE_FORMAT_EGF);
  req.set_content(kEgf);
  req.set_dry_run(true);
  v1::ImportResultsResponse dry;
  ASSERT_TRUE(Import(req, &dry).ok());
  ASSERT_EQ(dry.matches_size(), 4);
  EXPECT_EQ(dry.matches(0).state(), v1::ROW_MATCH_STATE_MATCHED);
  EXPECT_EQ(dry.matches(0).player_id(), wang);
  EXPECT_EQ(dry.matches(0).line(), 3);
  EXPECT_EQ(dry.matches(1).state(),
            v1::ROW_MATCH_STATE_MATCHED);  // by the Chinese name
  EXPECT_EQ(dry.matches(1).player_id(), zhang);
  EXPECT_EQ(dry.matches(2).state(), v1::ROW_MATCH_STATE_AMBIGUOUS);
  ASSERT_EQ(dry.matches(2).candidates_size(), 2);
  EXPECT_EQ(dry.matches(2).candidates(0).player_id(), chen1);
  EXPECT_EQ(dry.matches(2).candidates(0).name(), "陈晨");
  EXPECT_EQ(dry.matches(3).state(), v1::ROW_MATCH_STATE_AMBIGUOUS);
  ASSERT_EQ(dry.matches(3).candidates_size(), 1);
  EXPECT_EQ(dry.matches(3).candidates(0).player_id(), li);
  EXPECT_THAT(dry.matches(3).candidates(0).differs(), HasSubstr("agency 130"));
  EXPECT_EQ(dry.unresolved(), 2);
  EXPECT_EQ(dry.results().entrants(0).player_id(), wang);

  // Unresolved rows: refused, nothing stored.
  const auto rows_before = Rows();
  req.set_dry_run(false);
  v1::ImportResultsResponse resp;
  grpc::Status s = Import(req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("rows: 3 Chen Chen (players "));
  EXPECT_THAT(s.error_message(),
              HasSubstr("4 Li Wei (players " + std::to_string(li) + ")"));
  EXPECT_EQ(Rows(), rows_before);
  // A link to nobody is INVALID_ARGUMENT, nothing stored.
  v1::RowResolution* link = req.add_resolutions();
  link->set_row(3);
  link->set_player_id(987654);
  s = Import(req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("player 987654 is not registered"));
  EXPECT_EQ(Rows(), rows_before);
  // Resolved: row 3 is the second Chen Chen, row 4 a guest.
  link->set_player_id(chen2);
  v1::RowResolution* guest = req.add_resolutions();
  guest->set_row(4);
  guest->set_guest(true);
  ASSERT_TRUE(Import(req, &resp).ok());
  EXPECT_EQ(resp.matches(2).state(), v1::ROW_MATCH_STATE_LINKED);
  EXPECT_EQ(resp.matches(3).state(), v1::ROW_MATCH_STATE_GUEST);
  const v1::EventResults stored = Results(id);
  ASSERT_EQ(stored.entrants_size(), 4);
  EXPECT_EQ(stored.entrants(0).player_id(), wang);
  EXPECT_EQ(stored.entrants(1).player_id(), zhang);
  EXPECT_EQ(stored.entrants(2).player_id(), chen2);
  EXPECT_EQ(stored.entrants(3).player_id(), 0);
  EXPECT_EQ(Rows()["event_players"], 3);

  // The CSV export carries the ids; its import into another event links
  // by them (FILE_ID), the guest row is declared a guest again.
  v1::ExportResultsRequest ex;
  ex.set_event_id(id);
  ex.set_format(v1::RESULT_FILE_FORMAT_CSV);
  v1::ExportResultsResponse csv;
  ASSERT_TRUE(
      events_->ExportResults(InProcessServer::Context("").get(), ex, &csv)
          .ok());
  EXPECT_THAT(csv.content(), HasSubstr("," + std::to_string(chen2) + ","));
  const int64_t copy = CreateEvent("Linking test, copy");
  v1::ImportResultsRequest again;
  again.set_event_id(copy);
  again.set_format(v1::RESULT_FILE_FORMAT_CSV);
  again.set_content(csv.content());
  v1::RowResolution* g2 = again.add_resolutions();
  g2->set_row(4);
  g2->set_guest(true);
  ASSERT_TRUE(Import(again, &resp).ok());
  EXPECT_EQ(resp.matches(2).state(), v1::ROW_MATCH_STATE_FILE_ID);
  const v1::EventResults copied = Results(copy);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(copied.entrants(i).player_id(), stored.entrants(i).player_id())
        << i;
  }

  // One game corrected: round 3, Chen Chen (3, black) v Li Wei (4) is a
  // white win; the other five games are as they were.
  v1::EditResultsRequest edit;
  edit.set_event_id(id);
  v1::Game* g = edit.add_set_games();
  g->set_round(3);
  g->set_black_entrant_id(3);
  g->set_white_entrant_id(4);
  g->set_colours_known(true);
  g->set_outcome(v1::GAME_OUTCOME_WHITE_WINS);
  g->set_kind(v1::GAME_KIND_REGULAR);
  v1::EditResultsResponse edited;
  s = events_->EditResults(InProcessServer::Context(server_->op110).get(), edit,
                           &edited);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(edited.changes_size(), 1);
  EXPECT_EQ(edited.changes(0), "round 3: 3-4:w (was 3-4:b)");
  const v1::EventResults after = Results(id);
  ASSERT_EQ(after.games_size(), stored.games_size());
  int changed = 0;
  for (int i = 0; i < after.games_size(); ++i) {
    changed += after.games(i).SerializeAsString() !=
               stored.games(i).SerializeAsString();
  }
  EXPECT_EQ(changed, 1);

  // An unregistered player: NOT_FOUND, nothing stored; another agency's
  // operator: PERMISSION_DENIED.
  const auto rows_edit = Rows();
  v1::EditResultsRequest enter;
  enter.set_event_id(id);
  enter.add_add_entrants()->set_player_id(987654);
  s = events_->EditResults(InProcessServer::Context(server_->op110).get(),
                           enter, &edited);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("player 987654 is not registered"));
  s = events_->EditResults(InProcessServer::Context(server_->op130).get(), edit,
                           &edited);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Rows(), rows_edit);
  EXPECT_EQ(Results(id).SerializeAsString(), after.SerializeAsString());
}

}  // namespace
}  // namespace gorank::tournaments
