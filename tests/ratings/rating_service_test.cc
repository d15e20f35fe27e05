// RatingService (read side) through real gRPC: a whole RankdServer on
// 127.0.0.1:0 with a temp database (InProcessServer). Two registered players
// and two guests play a class-A round robin saved through TournamentService;
// ratings appear once the event is closed and equal the domain's Recompute
// over the same games; guests and unknown players have none.
#include <optional>
#include <string>
#include <vector>

#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/ratings/rating_book.h"
#include "services/ratings/ratings_config.h"
#include "tests/ratings/club_event.h"
#include "tests/testing/in_process_server.h"

namespace gorank::ratings {
namespace {

using gorank::testing::InProcessServer;

class RatingServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    events_ = v1::TournamentService::NewStub(server_.channel());
    ratings_ = v1::RatingService::NewStub(server_.channel());
  }

  int64_t Register(const std::string& name) {
    auto registry = v1::PlayerRegistry::NewStub(server_.channel());
    v1::RegisterPlayerRequest reg;
    reg.set_name(name);
    reg.set_agency_prefix("110");
    v1::RegisterPlayerResponse player;
    grpc::Status s = registry->RegisterPlayer(
        InProcessServer::Context(server_.admin).get(), reg, &player);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return player.player().id();
  }

  // A class-A round robin on 2025-05-01: entrants 1 (p1, 2d) and 2 (p2, 1k)
  // registered, 3 and 4 guests. Round 1: 1 beats 2, 3 beats 4.
  int64_t SaveEvent(int64_t p1, int64_t p2) {
    v1::CreateEventRequest create;
    *create.mutable_event() =
        test_events::ClubRoundRobin("Club Open", Date{2025, 5, 1});
    v1::CreateEventResponse created;
    grpc::Status s = events_->CreateEvent(
        InProcessServer::Context(server_.admin).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::SaveResultsRequest save;
    save.set_event_id(created.event().id());
    const char* ranks[] = {"2d", "1k", "3k", "4k"};
    for (int i = 1; i <= 4; ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(i);
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i));
      en->mutable_rank()->set_notation(ranks[i - 1]);
      if (i == 1) en->set_player_id(p1);
      if (i == 2) en->set_player_id(p2);
    }
    for (int i = 1; i <= 3; i += 2) {
      v1::Game* g = save.mutable_results()->add_games();
      g->set_round(1);
      g->set_black_entrant_id(i);
      g->set_white_entrant_id(i + 1);
      g->set_colours_known(true);
      g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
    }
    v1::SaveResultsResponse saved;
    s = events_->SaveResults(InProcessServer::Context(server_.admin).get(),
                             save, &saved);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }

  grpc::Status Get(int64_t player, v1::GetRatingResponse* resp) {
    v1::GetRatingRequest req;
    req.set_player_id(player);
    return ratings_->GetRating(InProcessServer::Context("").get(), req, resp);
  }

  InProcessServer server_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
};

TEST_F(RatingServiceTest, RatingsOfAClosedEventMatchTheDomain) {
  const int64_t p1 = Register("Rated One");
  const int64_t p2 = Register("Rated Two");
  const int64_t id = SaveEvent(p1, p2);
  v1::GetRatingResponse resp;
  EXPECT_EQ(Get(p1, &resp).error_code(), grpc::StatusCode::NOT_FOUND);

  v1::CloseEventRequest close;
  close.set_event_id(id);
  v1::CloseEventResponse closed;
  grpc::Status close_status = events_->CloseEvent(
      InProcessServer::Context(server_.admin).get(), close, &closed);
  ASSERT_TRUE(close_status.ok()) << close_status.error_message();

  RatedGame game;
  game.event_id = std::to_string(id);
  game.event_date = Date{2025, 5, 1};
  game.event_order = id;
  game.game_id = 1001;
  game.black = PlayerId{p1};
  game.white = PlayerId{p2};
  game.black_rank = registry::Rank::FromString("2d");
  game.white_rank = registry::Rank::FromString("1k");
  game.result = GameResult::kBlackWin;
  auto book = Recompute(DefaultRatingsConfig().rating, {game});
  ASSERT_TRUE(book.ok()) << book.status();
  const std::optional<PlayerRating> expected = book->Find(PlayerId{p1});
  ASSERT_TRUE(expected.has_value());

  grpc::Status s = Get(p1, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.rating().player_id(), p1);
  EXPECT_DOUBLE_EQ(resp.rating().gor(), expected->gor);
  EXPECT_EQ(resp.rating().rated_games(), 1);
  EXPECT_EQ(resp.rating().rated_events(), 1);
  EXPECT_FALSE(resp.rating().has_pro_rating());

  v1::GetRatingHistoryRequest hreq;
  hreq.set_player_id(p2);
  v1::GetRatingHistoryResponse history;
  s = ratings_->GetRatingHistory(InProcessServer::Context("").get(), hreq,
                                 &history);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(history.changes_size(), 1);
  EXPECT_EQ(history.changes(0).event_id(), std::to_string(id));
  EXPECT_EQ(history.changes(0).event_date().day(), 1);
  EXPECT_EQ(history.changes(0).games(), 1);
  EXPECT_DOUBLE_EQ(history.changes(0).gor_after(),
                   book->Find(PlayerId{p2})->gor);
  EXPECT_LT(history.changes(0).gor_after(), history.changes(0).gor_before());
}

TEST_F(RatingServiceTest, BadAndUnknownPlayers) {
  v1::GetRatingResponse resp;
  EXPECT_EQ(Get(0, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Get(987654, &resp).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::GetRatingHistoryRequest hreq;
  hreq.set_player_id(987654);
  v1::GetRatingHistoryResponse history;
  grpc::Status s = ratings_->GetRatingHistory(
      InProcessServer::Context("").get(), hreq, &history);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(history.changes_size(), 0);
}

}  // namespace
}  // namespace gorank::ratings
