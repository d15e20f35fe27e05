// rankd's start-up and the stored rating table (issue #19 item 5): a start
// on a database whose rating table is stored with a right digest loads it
// instead of recomputing, and the loaded book goes on exactly as a full
// recompute would; a missing state, a wrong digest or a changed rating row
// makes the start recompute (and store the right table again). Real
// RankdServer starts on one database (SQLite file, or a PostgreSQL schema in
// the pg. run), reached through real gRPC; what the start did is read from
// its log line ("ratings: stored table loaded" / "ratings: recomputed").
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "services/server/rankd_server.h"
#include "services/server/server_config.h"
#include "spdlog/sinks/ringbuffer_sink.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"
#include "tests/ratings/club_event.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::ratings {
namespace {

std::unique_ptr<grpc::ClientContext> Context(const std::string& bearer) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  if (!bearer.empty()) ctx->AddMetadata("authorization", "Bearer " + bearer);
  return ctx;
}

class RatingStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    clock_.SetDate(Date{2025, 7, 1});
    config_.db_path = gorank::testing::TestDatabaseUrl(dir_);
    config_.listen = "127.0.0.1:0";
    config_.admin_token_file = dir_.File("admin.token");
    config_.audit_key_file = dir_.File("audit_ed25519.pem");
    config_.shutdown_grace_ms = 100;
    log_ = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256);
    spdlog::default_logger()->sinks().push_back(log_);
  }
  void TearDown() override {
    Stop();
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_), sinks.end());
    spdlog::set_level(spdlog::level::info);
  }

  // Starts rankd on the test's database; returns its "ratings: " log line.
  std::string Start() {
    spdlog::set_level(spdlog::level::info);
    auto started = server::RankdServer::Start(config_, &clock_);
    spdlog::set_level(spdlog::level::warn);
    EXPECT_TRUE(started.ok()) << started.status();
    if (!started.ok()) return "";
    server_ = std::move(*started);
    if (admin_.empty()) admin_ = server_->bootstrap_secret();
    auto channel =
        grpc::CreateChannel("127.0.0.1:" + std::to_string(server_->port()),
                            grpc::InsecureChannelCredentials());
    registry_ = v1::PlayerRegistry::NewStub(channel);
    events_ = v1::TournamentService::NewStub(channel);
    ratings_ = v1::RatingService::NewStub(channel);
    std::string line;
    for (const std::string& l : log_->last_formatted()) {
      if (l.find("ratings: ") != std::string::npos) line = l;
    }
    return line;
  }
  void Stop() {
    if (server_) server_->Shutdown();
    server_.reset();
  }

  // Runs `sql` on the database while rankd is stopped.
  void Exec(const std::string& sql) {
    auto db = storage::Database::Open(config_.db_path);
    ASSERT_TRUE(db.ok()) << db.status();
    absl::Status s = (*db)->Write(
        [&](storage::Connection& c) -> absl::Status { return c.Exec(sql); });
    ASSERT_TRUE(s.ok()) << s;
  }

  int64_t Register(const std::string& name) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_agency_prefix("110");
    v1::RegisterPlayerResponse resp;
    grpc::Status s =
        registry_->RegisterPlayer(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }

  // Saves and closes a class-A round robin on `day`: entrant 1 (p1, 2d)
  // beats entrant 2 (p2, 1k).
  void PlayAndClose(const std::string& name, Date day, int64_t p1, int64_t p2) {
    v1::CreateEventRequest create;
    *create.mutable_event() = test_events::ClubRoundRobin(name, day);
    v1::CreateEventResponse created;
    grpc::Status s =
        events_->CreateEvent(Context(admin_).get(), create, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
    v1::SaveResultsRequest save;
    save.set_event_id(created.event().id());
    const char* ranks[] = {"2d", "1k"};
    for (int i = 1; i <= 2; ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(i);
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i));
      en->mutable_rank()->set_notation(ranks[i - 1]);
      en->set_player_id(i == 1 ? p1 : p2);
    }
    v1::Game* g = save.mutable_results()->add_games();
    g->set_round(1);
    g->set_black_entrant_id(1);
    g->set_white_entrant_id(2);
    g->set_colours_known(true);
    g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
    v1::SaveResultsResponse saved;
    s = events_->SaveResults(Context(admin_).get(), save, &saved);
    ASSERT_TRUE(s.ok()) << s.error_message();
    v1::CloseEventRequest close;
    close.set_event_id(created.event().id());
    v1::CloseEventResponse closed;
    s = events_->CloseEvent(Context(admin_).get(), close, &closed);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  double Gor(int64_t player) {
    v1::GetRatingRequest req;
    req.set_player_id(player);
    v1::GetRatingResponse resp;
    grpc::Status s = ratings_->GetRating(Context("").get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.rating().gor();
  }

  // A dry-run full recompute: whether it differs from the stored table.
  bool RecomputeWouldChange() {
    v1::RecomputeRatingsRequest req;
    req.set_dry_run(true);
    v1::RecomputeRatingsResponse resp;
    grpc::Status s =
        ratings_->RecomputeRatings(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.changed();
  }

  gorank::testing::TempDir dir_;
  FakeClock clock_{1717214400};
  server::ServerConfig config_;
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_;
  std::unique_ptr<server::RankdServer> server_;
  std::string admin_;
  std::unique_ptr<v1::PlayerRegistry::Stub> registry_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
};

TEST_F(RatingStartTest, SecondStartLoadsTheStoredTableAndGoesOnFromIt) {
  EXPECT_NE(Start().find("ratings: recomputed (no stored table)"),
            std::string::npos);
  const int64_t p1 = Register("Start One");
  const int64_t p2 = Register("Start Two");
  PlayAndClose("First", Date{2025, 5, 1}, p1, p2);
  const double after_first = Gor(p1);
  Stop();

  const std::string line = Start();
  EXPECT_NE(line.find("ratings: stored table loaded, 1 events, 2 players"),
            std::string::npos)
      << line;
  EXPECT_EQ(Gor(p1), after_first);
  // The loaded book takes the next event incrementally, and the result is
  // the full recompute's to the bit.
  PlayAndClose("Second", Date{2025, 6, 1}, p1, p2);
  EXPECT_GT(Gor(p1), after_first);
  EXPECT_FALSE(RecomputeWouldChange());
  Stop();
  EXPECT_NE(Start().find("ratings: stored table loaded, 2 events"),
            std::string::npos);
}

TEST_F(RatingStartTest, WrongOrMissingStateRecomputes) {
  Start();
  const int64_t p1 = Register("Start One");
  const int64_t p2 = Register("Start Two");
  PlayAndClose("First", Date{2025, 5, 1}, p1, p2);
  const double gor = Gor(p1);
  Stop();

  // A rating row changed behind rankd's back: its digest no longer holds.
  Exec("UPDATE ratings SET gor = '1234.5' WHERE player_id = " +
       std::to_string(p1));
  std::string line = Start();
  EXPECT_NE(line.find("ratings: recomputed (the stored digest"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("(stored)"), std::string::npos) << line;
  EXPECT_EQ(Gor(p1), gor);
  EXPECT_FALSE(RecomputeWouldChange());
  Stop();

  Exec("UPDATE rating_state SET table_sha256 = 'bad'");
  line = Start();
  EXPECT_NE(line.find("ratings: recomputed (the stored digest bad is not"),
            std::string::npos)
      << line;
  Stop();
  EXPECT_NE(Start().find("ratings: stored table loaded"), std::string::npos);
  Stop();

  Exec("DELETE FROM rating_state");
  EXPECT_NE(Start().find("ratings: recomputed (no stored table)"),
            std::string::npos);
  EXPECT_EQ(Gor(p1), gor);
}

}  // namespace
}  // namespace gorank::ratings
