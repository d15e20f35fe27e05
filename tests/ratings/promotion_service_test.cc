// Ratings and promotions through real gRPC (InProcessServer: a whole
// RankdServer on 127.0.0.1:0 with a temp database), with a ratings file that
// relaxes the amateur rating rule to 2 rated games in 1 event and no waiting
// time:
//   - evaluate -> approve: the rank changes and the 1d certificate is issued;
//   - reject (a reason is required), superseded (rank changed meanwhile),
//     another agency's operator refused, exactly the minimum games vs one
//     game short;
//   - the stored table: the incremental path (events closed one by one, one
//     of them back-dated) equals a full recompute byte for byte, and two
//     recomputes give the same digest;
//   - a bad ratings file stops the start, naming the file.
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/ratings/ratings_config.h"
#include "services/server/rankd_server.h"
#include "tests/ratings/club_event.h"
#include "tests/testing/in_process_server.h"
#include "tests/testing/test_database.h"

namespace gorank::ratings {
namespace {

using gorank::testing::InProcessServer;
using ::testing::HasSubstr;

std::string Relaxed() {
  std::string text = DefaultRatingsConfigText();
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

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

class PromotionServiceTest : public ::testing::Test {
 protected:
  PromotionServiceTest()
      : server_([](server::ServerConfig& c, const std::string& dir) {
          c.ratings_config_file = dir + "/ratings.toml";
          c.require_review_for_release = false;
          WriteFile(c.ratings_config_file, Relaxed());
        }) {}

  void SetUp() override {
    registry_ = v1::PlayerRegistry::NewStub(server_.channel());
    events_ = v1::TournamentService::NewStub(server_.channel());
    ratings_ = v1::RatingService::NewStub(server_.channel());
    // Registered on 2024-06-01 (the clock), rated in July, evaluated in
    // September.
    a_ = Register("Alpha", "1k");
    b_ = Register("Beta", "1k");
    c_ = Register("Gamma", "1d");
    d_ = Register("Delta", "1d");
    server_.clock().SetDate(Date{2024, 9, 1});
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
    grpc::Status s = registry_->RegisterPlayer(
        InProcessServer::Context(server_.admin).get(), reg, &player);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return player.player().id();
  }

  // A class-A round robin of a_, b_, c_, d_ (all declaring 1d) on `day`
  // with `games` as (round, black entrant, white entrant), black winning
  // each; closed.
  int64_t PlayEvent(Date day, const std::vector<std::vector<int>>& games) {
    v1::CreateEventRequest create;
    *create.mutable_event() =
        test_events::ClubRoundRobin("Club Open " + day.ToString(), day);
    v1::CreateEventResponse created;
    grpc::Status s = events_->CreateEvent(
        InProcessServer::Context(server_.admin).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::SaveResultsRequest save;
    save.set_event_id(created.event().id());
    const int64_t players[] = {a_, b_, c_, d_};
    for (int i = 1; i <= 4; ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(i);
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i));
      en->mutable_rank()->set_notation("1d");
      en->set_player_id(players[i - 1]);
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
    s = events_->SaveResults(InProcessServer::Context(server_.admin).get(),
                             save, &saved);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::CloseEventRequest close;
    close.set_event_id(created.event().id());
    v1::CloseEventResponse closed;
    s = events_->CloseEvent(InProcessServer::Context(server_.admin).get(),
                            close, &closed);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }

  // Alpha wins 2 games (exactly the minimum), Beta wins 1 (one short).
  void PlayFirstEvent() {
    first_event_ =
        PlayEvent(Date{2024, 7, 1}, {{1, 1, 3}, {1, 2, 4}, {2, 1, 4}});
  }
  int64_t first_event_ = 0;

  v1::EvaluatePromotionsResponse Evaluate(const std::string& token) {
    v1::EvaluatePromotionsResponse resp;
    grpc::Status s =
        ratings_->EvaluatePromotions(InProcessServer::Context(token).get(),
                                     v1::EvaluatePromotionsRequest(), &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  grpc::Status Decide(const std::string& token, int64_t id, bool approve,
                      const std::string& reason,
                      v1::DecidePromotionResponse* resp) {
    v1::DecidePromotionRequest req;
    req.set_proposal_id(id);
    req.set_decision(approve ? v1::PROMOTION_DECISION_APPROVE
                             : v1::PROMOTION_DECISION_REJECT);
    req.set_reason(reason);
    return ratings_->DecidePromotion(InProcessServer::Context(token).get(), req,
                                     resp);
  }

  std::string RankOf(int64_t player) {
    v1::GetPlayerRequest req;
    req.set_player_id(player);
    v1::GetPlayerResponse resp;
    grpc::Status s = registry_->GetPlayer(
        InProcessServer::Context(server_.admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().rank().notation();
  }

  v1::RecomputeRatingsResponse Recompute(bool dry_run) {
    v1::RecomputeRatingsRequest req;
    req.set_dry_run(dry_run);
    v1::RecomputeRatingsResponse resp;
    grpc::Status s = ratings_->RecomputeRatings(
        InProcessServer::Context(server_.admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  // The single proposal of Alpha.
  v1::PromotionProposal AlphaProposal() {
    PlayFirstEvent();
    v1::EvaluatePromotionsResponse eval = Evaluate(server_.admin);
    EXPECT_EQ(eval.proposals_size(), 1);
    if (eval.proposals_size() != 1) return v1::PromotionProposal();
    return eval.proposals(0);
  }

  InProcessServer server_;
  std::unique_ptr<v1::PlayerRegistry::Stub> registry_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
  int64_t a_ = 0, b_ = 0, c_ = 0, d_ = 0;
};

TEST_F(PromotionServiceTest, EvaluateThenApproveChangesRankAndIssues1d) {
  const v1::PromotionProposal p = AlphaProposal();
  EXPECT_EQ(p.player_id(), a_);
  EXPECT_EQ(p.rule_id(), "am.rating");
  EXPECT_EQ(p.from_rank().notation(), "1k");
  EXPECT_EQ(p.to_rank().notation(), "1d");
  EXPECT_EQ(p.state(), v1::PROPOSAL_STATE_PENDING);
  EXPECT_EQ(p.evidence().rated_games(), 2);  // exactly the minimum
  EXPECT_GE(p.evidence().rating(), 2050.0);

  // One proposal per player and rule while it is pending.
  v1::EvaluatePromotionsResponse again = Evaluate(server_.admin);
  ASSERT_EQ(again.proposals_size(), 1);
  EXPECT_EQ(again.proposals(0).proposal_id(), p.proposal_id());

  // Certificates come out of released stock (the certificate rules).
  auto certs = v1::CertificateService::NewStub(server_.channel());
  v1::DecidePromotionResponse decided;
  grpc::Status s = Decide(server_.op110, p.proposal_id(), true, "", &decided);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("stock"));
  EXPECT_EQ(RankOf(a_), "1k");
  v1::OrderStockRequest order;
  order.set_agency_prefix("110");
  order.set_year(2024);
  order.set_quantity(10);
  v1::OrderStockResponse ordered;
  s = certs->OrderStock(InProcessServer::Context(server_.admin).get(), order,
                        &ordered);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::ReleaseStockRequest release;
  release.set_agency_prefix("110");
  release.set_year(2024);
  v1::ReleaseStockResponse released;
  s = certs->ReleaseStock(InProcessServer::Context(server_.admin).get(),
                          release, &released);
  ASSERT_TRUE(s.ok()) << s.error_message();

  s = Decide(server_.op110, p.proposal_id(), true, "", &decided);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(decided.proposal().state(), v1::PROPOSAL_STATE_APPROVED);
  EXPECT_THAT(decided.proposal().certificate_number(), HasSubstr("11024"));
  EXPECT_EQ(RankOf(a_), "1d");

  v1::GetCertificateRequest get;
  get.set_number(decided.proposal().certificate_number());
  v1::GetCertificateResponse cert;
  s = certs->GetCertificate(InProcessServer::Context(server_.admin).get(), get,
                            &cert);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(cert.certificate().player_id(), a_);
  EXPECT_EQ(cert.certificate().grade().notation(), "1d");

  v1::GetRankHistoryRequest hreq;
  hreq.set_player_id(a_);
  v1::GetRankHistoryResponse history;
  s = registry_->GetRankHistory(InProcessServer::Context(server_.admin).get(),
                                hreq, &history);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(history.entries_size(), 2);
  EXPECT_EQ(history.entries(1).to_rank().notation(), "1d");

  // Decided once only.
  s = Decide(server_.admin, p.proposal_id(), true, "", &decided);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("APPROVED"));
  // Promoted: the same rule proposes nothing now (1d needs 2150 for 2d).
  EXPECT_EQ(Evaluate(server_.admin).proposals_size(), 0);
}

TEST_F(PromotionServiceTest, OneGameShortIsExplainedNotProposed) {
  PlayFirstEvent();
  v1::ExplainPromotionRequest req;
  req.set_player_id(b_);
  v1::ExplainPromotionResponse resp;
  grpc::Status s = ratings_->ExplainPromotion(
      InProcessServer::Context("").get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  bool seen = false;
  for (const v1::PromotionVerdict& v : resp.verdicts()) {
    if (v.rule_id() != "am.rating") continue;
    seen = true;
    EXPECT_TRUE(v.applicable());
    EXPECT_FALSE(v.met());
    EXPECT_EQ(v.evidence().rated_games(), 1);
    EXPECT_THAT(v.explanation(), HasSubstr("2 needed"));
  }
  EXPECT_TRUE(seen);
  v1::EvaluatePromotionsRequest only_b;
  only_b.add_player_ids(b_);
  v1::EvaluatePromotionsResponse eval;
  s = ratings_->EvaluatePromotions(
      InProcessServer::Context(server_.admin).get(), only_b, &eval);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(eval.proposals_size(), 0);
}

TEST_F(PromotionServiceTest, RejectNeedsAReasonAndKeepsTheRank) {
  const v1::PromotionProposal p = AlphaProposal();
  v1::DecidePromotionResponse decided;
  grpc::Status s = Decide(server_.admin, p.proposal_id(), false, "", &decided);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  s = Decide(server_.admin, p.proposal_id(), false, "games too few to judge",
             &decided);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(decided.proposal().state(), v1::PROPOSAL_STATE_REJECTED);
  EXPECT_EQ(decided.proposal().decision_reason(), "games too few to judge");
  EXPECT_TRUE(decided.proposal().certificate_number().empty());
  EXPECT_EQ(RankOf(a_), "1k");

  v1::ListProposalsRequest list;
  list.set_state(v1::PROPOSAL_STATE_REJECTED);
  v1::ListProposalsResponse listed;
  s = ratings_->ListProposals(InProcessServer::Context(server_.auditor).get(),
                              list, &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(listed.proposals_size(), 1);
  EXPECT_EQ(listed.proposals(0).proposal_id(), p.proposal_id());
}

TEST_F(PromotionServiceTest, AnotherAgencyIsRefusedAndSeesNothing) {
  const v1::PromotionProposal p = AlphaProposal();
  v1::DecidePromotionResponse decided;
  grpc::Status s = Decide(server_.op130, p.proposal_id(), true, "", &decided);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(RankOf(a_), "1k");

  v1::ListProposalsResponse listed;
  s = ratings_->ListProposals(InProcessServer::Context(server_.op130).get(),
                              v1::ListProposalsRequest(), &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(listed.proposals_size(), 0);
  s = ratings_->ListProposals(InProcessServer::Context(server_.op110).get(),
                              v1::ListProposalsRequest(), &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(listed.proposals_size(), 1);

  v1::EvaluatePromotionsRequest named;
  named.add_player_ids(a_);
  v1::EvaluatePromotionsResponse eval;
  s = ratings_->EvaluatePromotions(
      InProcessServer::Context(server_.op130).get(), named, &eval);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Evaluate(server_.op130).proposals_size(), 0);
}

TEST_F(PromotionServiceTest, RankChangedMeanwhileSupersedes) {
  const v1::PromotionProposal p = AlphaProposal();
  v1::ChangeRankRequest change;
  change.set_player_id(a_);
  change.mutable_new_rank()->set_notation("2d");
  change.set_reason(v1::RANK_CHANGE_REASON_TOURNAMENT_AWARD);
  change.set_basis("Provincial open 2024, 1st");
  change.set_basis_event_id(first_event_);  // an award names its event
  v1::ChangeRankResponse changed;
  grpc::Status s = registry_->ChangeRank(
      InProcessServer::Context(server_.admin).get(), change, &changed);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::DecidePromotionResponse decided;
  s = Decide(server_.admin, p.proposal_id(), true, "", &decided);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("superseded"));
  EXPECT_EQ(RankOf(a_), "2d");  // never lowered to the proposal's 1d

  v1::ListProposalsRequest list;
  list.set_player_id(a_);
  v1::ListProposalsResponse listed;
  s = ratings_->ListProposals(InProcessServer::Context(server_.admin).get(),
                              list, &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(listed.proposals_size(), 1);
  EXPECT_EQ(listed.proposals(0).state(), v1::PROPOSAL_STATE_SUPERSEDED);
}

TEST_F(PromotionServiceTest, IncrementalEqualsFullRecompute) {
  // Nothing closed yet: the empty table is stored and stable.
  const v1::RecomputeRatingsResponse empty = Recompute(true);
  EXPECT_FALSE(empty.changed());
  EXPECT_EQ(empty.events(), 0);

  PlayFirstEvent();  // incremental
  PlayEvent(Date{2024, 7, 20}, {{1, 3, 1}, {1, 4, 2}});
  v1::RecomputeRatingsResponse full = Recompute(true);
  EXPECT_FALSE(full.changed()) << "incremental table differs from a recompute";
  EXPECT_EQ(full.events(), 2);
  EXPECT_EQ(full.games(), 5);
  EXPECT_EQ(full.players(), 4);
  EXPECT_EQ(full.table_sha256().size(), 64u);

  // A back-dated event (before the last one applied) falls back to a full
  // recompute; the stored table still equals it.
  PlayEvent(Date{2024, 7, 10}, {{1, 2, 1}});
  v1::RecomputeRatingsResponse after = Recompute(true);
  EXPECT_FALSE(after.changed());
  EXPECT_EQ(after.events(), 3);
  EXPECT_NE(after.table_sha256(), full.table_sha256());

  // Same database -> same digest, stored or not.
  v1::RecomputeRatingsResponse stored = Recompute(false);
  EXPECT_FALSE(stored.changed());
  EXPECT_EQ(stored.table_sha256(), after.table_sha256());
  EXPECT_EQ(Recompute(true).table_sha256(), after.table_sha256());

  // The list: by descending GoR, paged.
  v1::ListRatingsRequest req;
  req.set_page_size(3);
  v1::ListRatingsResponse page;
  grpc::Status s =
      ratings_->ListRatings(InProcessServer::Context("").get(), req, &page);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(page.ratings_size(), 3);
  EXPECT_GE(page.ratings(0).gor(), page.ratings(1).gor());
  EXPECT_GE(page.ratings(1).gor(), page.ratings(2).gor());
  ASSERT_FALSE(page.next_page_token().empty());
  req.set_page_token(page.next_page_token());
  v1::ListRatingsResponse last;
  s = ratings_->ListRatings(InProcessServer::Context("").get(), req, &last);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(last.ratings_size(), 1);
  EXPECT_TRUE(last.next_page_token().empty());
  EXPECT_GE(page.ratings(2).gor(), last.ratings(0).gor());
  req.set_page_token("x1");
  s = ratings_->ListRatings(InProcessServer::Context("").get(), req, &last);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req.set_page_token("");
  req.set_pro_list(true);  // no professional played
  s = ratings_->ListRatings(InProcessServer::Context("").get(), req, &last);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(last.ratings_size(), 0);
}

TEST_F(PromotionServiceTest, RulesInForceAreListed) {
  v1::ListPromotionRulesResponse resp;
  grpc::Status s =
      ratings_->ListPromotionRules(InProcessServer::Context("").get(),
                                   v1::ListPromotionRulesRequest(), &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_GE(resp.rules_size(), 1);
  EXPECT_EQ(resp.rules(0).id(), "am.rating");
  EXPECT_EQ(resp.rules(0).kind(), "amateur_rating");
  EXPECT_THAT(resp.rules(0).description(), HasSubstr("rating"));

  v1::EvaluatePromotionsRequest bad;
  bad.add_rule_ids("no.such.rule");
  v1::EvaluatePromotionsResponse eval;
  s = ratings_->EvaluatePromotions(
      InProcessServer::Context(server_.admin).get(), bad, &eval);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("no.such.rule"));
}

TEST(RatingsConfigFile, ABadFileStopsTheStartNamingIt) {
  testing::TempDir dir;
  const std::string bad = dir.File("ratings.toml");
  WriteFile(bad, "version = 2\n");
  for (const std::string& path : {bad, dir.File("missing.toml")}) {
    server::ServerConfig config;
    config.db_path = testing::TestDatabaseUrl(dir);
    config.listen = "127.0.0.1:0";
    config.ratings_config_file = path;
    auto started = server::RankdServer::Start(config);
    ASSERT_FALSE(started.ok());
    EXPECT_THAT(std::string(started.status().message()), HasSubstr(path));
  }
}

}  // namespace
}  // namespace gorank::ratings
