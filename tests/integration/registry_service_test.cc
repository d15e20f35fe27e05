// The registry's RPCs through a real gRPC channel: round trips, what each
// caller sees, and bad requests answered with precise codes while the
// database stays exactly as it was.
#include <functional>
#include <string>
#include <vector>

#include "gorank/v1/registry.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_server.h"

namespace gorank::integration {
namespace {

using testing::InProcessServer;

using grpc::StatusCode;

constexpr char kId2008[] = "44030520080110005X";  // born 2008-01-10

struct Stubs {
  explicit Stubs(const std::shared_ptr<grpc::Channel>& ch)
      : players(v1::PlayerRegistry::NewStub(ch)),
        agencies(v1::AgencyService::NewStub(ch)),
        tokens(v1::TokenService::NewStub(ch)),
        ranks(v1::RankService::NewStub(ch)) {}
  std::unique_ptr<v1::PlayerRegistry::Stub> players;
  std::unique_ptr<v1::AgencyService::Stub> agencies;
  std::unique_ptr<v1::TokenService::Stub> tokens;
  std::unique_ptr<v1::RankService::Stub> ranks;
};

v1::RegisterPlayerRequest Registration(const std::string& name,
                                       const std::string& agency) {
  v1::RegisterPlayerRequest r;
  r.set_name(name);
  r.set_agency_prefix(agency);
  return r;
}

class RegistryServiceTest : public ::testing::Test {
 protected:
  RegistryServiceTest() : stubs_(server_.channel()) {}

  v1::Player MustRegister(const std::string& bearer,
                          const v1::RegisterPlayerRequest& r) {
    v1::RegisterPlayerResponse resp;
    grpc::Status s = stubs_.players->RegisterPlayer(
        InProcessServer::Context(bearer).get(), r, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player();
  }
  v1::Player Get(const std::string& bearer, int64_t id) {
    v1::GetPlayerRequest r;
    r.set_player_id(id);
    v1::GetPlayerResponse resp;
    grpc::Status s = stubs_.players->GetPlayer(
        InProcessServer::Context(bearer).get(), r, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player();
  }

  InProcessServer server_;
  Stubs stubs_;
};

TEST_F(RegistryServiceTest, RegisterGetAndRedaction) {
  v1::RegisterPlayerRequest r = Registration("张三", "110");
  r.set_latin_name("Zhang San");
  r.set_gender(v1::GENDER_MALE);
  r.set_resident_id("44030520080110005x");
  r.mutable_initial_rank()->set_notation("业余2段");
  r.set_initial_rank_basis("certificate 110230001");
  const v1::Player created = MustRegister(server_.op110, r);
  EXPECT_EQ(created.id(), 1);
  EXPECT_EQ(created.rank().notation(), "2d");
  EXPECT_EQ(created.rank().ladder(), v1::RANK_LADDER_AMATEUR_DAN);
  EXPECT_EQ(created.rank().level(), 2);
  EXPECT_EQ(created.resident_id(), kId2008);
  EXPECT_EQ(created.birth_date().year(), 2008);

  struct Case {
    const char* label;
    std::string bearer;
    bool resident_id;
    bool birth_date;
  };
  for (const Case& c :
       std::vector<Case>{{"national", server_.admin, true, true},
                         {"own agency", server_.op110, true, true},
                         {"other agency", server_.op130, false, true},
                         {"auditor", server_.auditor, false, true},
                         {"public", "", false, false}}) {
    SCOPED_TRACE(c.label);
    const v1::Player p = Get(c.bearer, created.id());
    EXPECT_EQ(p.name(), "张三");
    EXPECT_EQ(p.latin_name(), "Zhang San");
    EXPECT_EQ(p.gender(), v1::GENDER_MALE);
    EXPECT_EQ(p.agency_prefix(), "110");
    EXPECT_EQ(p.rank().notation(), "2d");
    EXPECT_EQ(p.resident_id(), c.resident_id ? kId2008 : "");
    EXPECT_EQ(p.has_birth_date(), c.birth_date);
    if (c.birth_date) {
      EXPECT_EQ(p.birth_date().day(), 10);
    }
  }
}

TEST_F(RegistryServiceTest, SearchHistoryAndRankChange) {
  for (const char* name : {"李一", "李二", "王三"})
    MustRegister(server_.admin, Registration(name, "110"));
  // Listing by prefix and paging need a token (the public looks whole names
  // up: tests/certificates/integration/public_data_policy_test.cc).
  v1::SearchPlayersRequest sr;
  sr.set_name_prefix("李");
  sr.set_page_size(1);
  v1::SearchPlayersResponse page;
  ASSERT_TRUE(
      stubs_.players
          ->SearchPlayers(InProcessServer::Context(server_.auditor).get(), sr,
                          &page)
          .ok());
  ASSERT_EQ(page.players_size(), 1);
  EXPECT_EQ(page.players(0).name(), "李一");
  // Opaque (services/common/paging.h): it only has to lead to the next page.
  EXPECT_FALSE(page.next_page_token().empty());
  sr.set_page_token(page.next_page_token());
  ASSERT_TRUE(
      stubs_.players
          ->SearchPlayers(InProcessServer::Context(server_.auditor).get(), sr,
                          &page)
          .ok());
  ASSERT_EQ(page.players_size(), 1);
  EXPECT_EQ(page.players(0).name(), "李二");
  EXPECT_EQ(page.next_page_token(), "");

  v1::ChangeRankRequest cr;
  cr.set_player_id(2);
  cr.mutable_new_rank()->set_ladder(v1::RANK_LADDER_KYU);
  cr.mutable_new_rank()->set_level(3);
  cr.set_reason(v1::RANK_CHANGE_REASON_TOURNAMENT_AWARD);
  cr.set_basis("2024 city open");
  v1::ChangeRankResponse changed;
  // An award that names neither an event nor a certificate is refused.
  grpc::Status s = stubs_.players->ChangeRank(
      InProcessServer::Context(server_.op110).get(), cr, &changed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  cr.set_reason(v1::RANK_CHANGE_REASON_CORRECTION);
  s = stubs_.players->ChangeRank(InProcessServer::Context(server_.op110).get(),
                                 cr, &changed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(changed.player().rank().notation(), "3k");
  EXPECT_EQ(changed.entry().to_rank().notation(), "3k");
  EXPECT_FALSE(changed.entry().has_from_rank());
  EXPECT_EQ(changed.entry().effective_date().month(), 6);

  v1::GetRankHistoryRequest hr;
  hr.set_player_id(2);
  v1::GetRankHistoryResponse history;
  ASSERT_TRUE(
      stubs_.players
          ->GetRankHistory(InProcessServer::Context("").get(), hr, &history)
          .ok());
  ASSERT_EQ(history.entries_size(), 1);
  EXPECT_EQ(history.entries(0).reason(), v1::RANK_CHANGE_REASON_CORRECTION);
  EXPECT_EQ(history.entries(0).basis(), "2024 city open");
  // The public sees who acted, not with which token.
  EXPECT_EQ(history.entries(0).actor(), "agency:110")
      << history.entries(0).actor();
}

TEST_F(RegistryServiceTest, ParseRankAndWhoAmI) {
  v1::ParseRankRequest pr;
  pr.set_text("职业九段");
  v1::ParseRankResponse parsed;
  ASSERT_TRUE(
      stubs_.ranks->ParseRank(InProcessServer::Context("").get(), pr, &parsed)
          .ok());
  EXPECT_EQ(parsed.rank().notation(), "9p");
  EXPECT_EQ(parsed.chinese(), "职业九段");

  struct Case {
    std::string bearer;
    v1::Role role;
    const char* prefix;
  };
  for (const Case& c :
       std::vector<Case>{{"", v1::ROLE_PUBLIC, ""},
                         {server_.admin, v1::ROLE_NATIONAL_ADMIN, ""},
                         {server_.op110, v1::ROLE_AGENCY_OPERATOR, "110"},
                         {server_.auditor, v1::ROLE_AUDITOR, ""}}) {
    v1::WhoAmIResponse me;
    ASSERT_TRUE(stubs_.tokens
                    ->WhoAmI(InProcessServer::Context(c.bearer).get(),
                             v1::WhoAmIRequest(), &me)
                    .ok());
    EXPECT_EQ(me.role(), c.role);
    EXPECT_EQ(me.agency_prefix(), c.prefix);
    EXPECT_EQ(me.token_id() == 0, c.bearer.empty());
  }
  // Secrets never leave the server again.
  v1::ListTokensResponse list;
  ASSERT_TRUE(stubs_.tokens
                  ->ListTokens(InProcessServer::Context(server_.auditor).get(),
                               v1::ListTokensRequest(), &list)
                  .ok());
  EXPECT_EQ(list.tokens_size(), 5);
  EXPECT_EQ(list.DebugString().find(server_.admin), std::string::npos);
}

// ------------------------------------------------------------- bad requests

struct BadCall {
  const char* label;
  std::function<std::string(InProcessServer&)> bearer;
  std::function<grpc::Status(Stubs&, grpc::ClientContext*)> call;
  StatusCode code;
};

template <typename Req, typename Resp, typename Stub>
std::function<grpc::Status(Stubs&, grpc::ClientContext*)> Rpc(
    std::unique_ptr<Stub> Stubs::*stub,
    grpc::Status (Stub::*method)(grpc::ClientContext*, const Req&, Resp*),
    Req req) {
  return [=](Stubs& s, grpc::ClientContext* ctx) {
    Resp resp;
    return ((*(s.*stub)).*method)(ctx, req, &resp);
  };
}

std::string Admin(InProcessServer& s) { return s.admin; }
std::string Op110(InProcessServer& s) { return s.op110; }
std::string Op130(InProcessServer& s) { return s.op130; }
std::string Auditor(InProcessServer& s) { return s.auditor; }
std::string Nobody(InProcessServer&) { return ""; }

template <typename M>
M With(M m, const std::function<void(M&)>& f) {
  f(m);
  return m;
}

TEST_F(RegistryServiceTest, BadRequestsGetPreciseCodesAndChangeNothing) {
  // State: player 1 (110, with resident ID, 1k), player 2 (130); 130 suspended.
  v1::RegisterPlayerRequest first = Registration("赵一", "110");
  first.set_resident_id(kId2008);
  first.mutable_initial_rank()->set_notation("1k");
  MustRegister(server_.admin, first);
  MustRegister(server_.admin, Registration("钱二", "130"));
  v1::SuspendAgencyRequest suspend;
  suspend.set_prefix("130");
  suspend.set_reason("annual review failed");
  v1::SuspendAgencyResponse suspended;
  ASSERT_TRUE(stubs_.agencies
                  ->SuspendAgency(InProcessServer::Context(server_.admin).get(),
                                  suspend, &suspended)
                  .ok());

  using PR = v1::PlayerRegistry::Stub;
  using AS = v1::AgencyService::Stub;
  using TS = v1::TokenService::Stub;
  using RS = v1::RankService::Stub;
  const v1::RegisterPlayerRequest reg = Registration("孙三", "110");
  v1::ChangeRankRequest change;
  change.set_player_id(1);
  change.mutable_new_rank()->set_notation("2k");
  change.set_reason(v1::RANK_CHANGE_REASON_CORRECTION);
  change.set_basis("typo");
  v1::UpdatePlayerRequest update;
  update.set_player_id(1);
  update.set_name("新名");

  const std::vector<BadCall> cases = {
      {"register: empty name", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(reg,
                                           [](auto& r) { r.set_name(""); })),
       StatusCode::INVALID_ARGUMENT},
      {"register: bad check char", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_resident_id("440305200801100181"); })),
       StatusCode::INVALID_ARGUMENT},
      {"register: birth date vs ID", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg,
               [](auto& r) {
                 r.set_resident_id("440305200801100180");
                 r.mutable_birth_date()->set_year(2008);
                 r.mutable_birth_date()->set_month(1);
                 r.mutable_birth_date()->set_day(11);
               })),
       StatusCode::INVALID_ARGUMENT},
      {"register: not a date", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg,
               [](auto& r) {
                 r.mutable_birth_date()->set_year(2008);
                 r.mutable_birth_date()->set_month(2);
                 r.mutable_birth_date()->set_day(30);
               })),
       StatusCode::INVALID_ARGUMENT},
      {"register: bad rank", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg,
               [](auto& r) { r.mutable_initial_rank()->set_notation("3x"); })),
       StatusCode::INVALID_ARGUMENT},
      {"register: level 0", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg,
               [](auto& r) {
                 r.mutable_initial_rank()->set_ladder(v1::RANK_LADDER_KYU);
               })),
       StatusCode::INVALID_ARGUMENT},
      {"register: bad gender", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_gender(static_cast<v1::Gender>(9)); })),
       StatusCode::INVALID_ARGUMENT},
      {"register: duplicate ID", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_resident_id("44030520080110005x"); })),
       StatusCode::ALREADY_EXISTS},
      {"register: unknown agency", Admin,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_agency_prefix("999"); })),
       StatusCode::NOT_FOUND},
      {"register: other agency", Op110,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_agency_prefix("120"); })),
       StatusCode::PERMISSION_DENIED},
      {"register: operator 4d", Op110,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg,
               [](auto& r) { r.mutable_initial_rank()->set_notation("4d"); })),
       StatusCode::PERMISSION_DENIED},
      {"register: suspended agency", Op130,
       Rpc(&Stubs::players, &PR::RegisterPlayer,
           With<v1::RegisterPlayerRequest>(
               reg, [](auto& r) { r.set_agency_prefix("130"); })),
       StatusCode::FAILED_PRECONDITION},
      {"register: auditor", Auditor,
       Rpc(&Stubs::players, &PR::RegisterPlayer, reg),
       StatusCode::PERMISSION_DENIED},
      {"register: public", Nobody,
       Rpc(&Stubs::players, &PR::RegisterPlayer, reg),
       StatusCode::UNAUTHENTICATED},
      {"get: unknown", Nobody,
       Rpc(&Stubs::players, &PR::GetPlayer,
           With<v1::GetPlayerRequest>({},
                                      [](auto& r) { r.set_player_id(99); })),
       StatusCode::NOT_FOUND},
      {"update: other agency", Op130,
       Rpc(&Stubs::players, &PR::UpdatePlayer, update),
       StatusCode::PERMISSION_DENIED},
      {"update: operator transfer", Op110,
       Rpc(&Stubs::players, &PR::UpdatePlayer,
           With<v1::UpdatePlayerRequest>(
               update, [](auto& r) { r.set_agency_prefix("120"); })),
       StatusCode::PERMISSION_DENIED},
      {"update: unknown player", Admin,
       Rpc(&Stubs::players, &PR::UpdatePlayer,
           With<v1::UpdatePlayerRequest>(update,
                                         [](auto& r) { r.set_player_id(99); })),
       StatusCode::NOT_FOUND},
      {"update: transfer to unknown", Admin,
       Rpc(&Stubs::players, &PR::UpdatePlayer,
           With<v1::UpdatePlayerRequest>(
               update, [](auto& r) { r.set_agency_prefix("999"); })),
       StatusCode::NOT_FOUND},
      {"search: page 201", Nobody,
       Rpc(&Stubs::players, &PR::SearchPlayers,
           With<v1::SearchPlayersRequest>(
               {}, [](auto& r) { r.set_page_size(201); })),
       StatusCode::INVALID_ARGUMENT},
      {"search: bad token", Nobody,
       Rpc(&Stubs::players, &PR::SearchPlayers,
           With<v1::SearchPlayersRequest>(
               {}, [](auto& r) { r.set_page_token("x1"); })),
       StatusCode::INVALID_ARGUMENT},
      {"search: min above max", Nobody,
       Rpc(&Stubs::players, &PR::SearchPlayers,
           With<v1::SearchPlayersRequest>({},
                                          [](auto& r) {
                                            r.mutable_min_rank()->set_notation(
                                                "3d");
                                            r.mutable_max_rank()->set_notation(
                                                "1d");
                                          })),
       StatusCode::INVALID_ARGUMENT},
      {"history: unknown", Nobody,
       Rpc(&Stubs::players, &PR::GetRankHistory,
           With<v1::GetRankHistoryRequest>(
               {}, [](auto& r) { r.set_player_id(99); })),
       StatusCode::NOT_FOUND},
      {"rank: no new rank", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(change,
                                       [](auto& r) { r.clear_new_rank(); })),
       StatusCode::INVALID_ARGUMENT},
      {"rank: no reason", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<
               v1::ChangeRankRequest>(change,
                                      [](auto& r) {
                                        r.set_reason(
                                            v1::RANK_CHANGE_REASON_UNSPECIFIED);
                                      })),
       StatusCode::INVALID_ARGUMENT},
      {"rank: certificate reason", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<
               v1::ChangeRankRequest>(change,
                                      [](auto& r) {
                                        r.set_reason(
                                            v1::RANK_CHANGE_REASON_CERTIFICATE);
                                      })),
       StatusCode::INVALID_ARGUMENT},
      {"rank: no basis", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(change,
                                       [](auto& r) { r.set_basis(""); })),
       StatusCode::INVALID_ARGUMENT},
      {"rank: future date", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(change,
                                       [](auto& r) {
                                         r.mutable_effective_date()->set_year(
                                             2030);
                                         r.mutable_effective_date()->set_month(
                                             1);
                                         r.mutable_effective_date()->set_day(1);
                                       })),
       StatusCode::INVALID_ARGUMENT},
      {"rank: same rank", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(
               change,
               [](auto& r) { r.mutable_new_rank()->set_notation("1k"); })),
       StatusCode::FAILED_PRECONDITION},
      {"rank: operator 5d", Op110,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(
               change,
               [](auto& r) { r.mutable_new_rank()->set_notation("5d"); })),
       StatusCode::PERMISSION_DENIED},
      {"rank: unknown player", Admin,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(change,
                                       [](auto& r) { r.set_player_id(99); })),
       StatusCode::NOT_FOUND},
      {"rank: suspended agency", Op130,
       Rpc(&Stubs::players, &PR::ChangeRank,
           With<v1::ChangeRankRequest>(change,
                                       [](auto& r) { r.set_player_id(2); })),
       StatusCode::FAILED_PRECONDITION},
      {"agency: short prefix", Admin,
       Rpc(&Stubs::agencies, &AS::CreateAgency,
           With<v1::CreateAgencyRequest>({},
                                         [](auto& r) {
                                           r.set_prefix("99");
                                           r.set_name("x");
                                         })),
       StatusCode::INVALID_ARGUMENT},
      {"agency: 000", Admin,
       Rpc(&Stubs::agencies, &AS::CreateAgency,
           With<v1::CreateAgencyRequest>({},
                                         [](auto& r) {
                                           r.set_prefix("000");
                                           r.set_name("x");
                                         })),
       StatusCode::INVALID_ARGUMENT},
      {"agency: taken", Admin,
       Rpc(&Stubs::agencies, &AS::CreateAgency,
           With<v1::CreateAgencyRequest>({},
                                         [](auto& r) {
                                           r.set_prefix("110");
                                           r.set_name("x");
                                         })),
       StatusCode::ALREADY_EXISTS},
      {"agency: operator creates", Op110,
       Rpc(&Stubs::agencies, &AS::CreateAgency,
           With<v1::CreateAgencyRequest>({},
                                         [](auto& r) {
                                           r.set_prefix("990");
                                           r.set_name("x");
                                         })),
       StatusCode::PERMISSION_DENIED},
      {"suspend: national body", Admin,
       Rpc(&Stubs::agencies, &AS::SuspendAgency,
           With<v1::SuspendAgencyRequest>({},
                                          [](auto& r) {
                                            r.set_prefix("000");
                                            r.set_reason("r");
                                          })),
       StatusCode::FAILED_PRECONDITION},
      {"suspend: no reason", Admin,
       Rpc(&Stubs::agencies, &AS::SuspendAgency,
           With<v1::SuspendAgencyRequest>(
               {}, [](auto& r) { r.set_prefix("120"); })),
       StatusCode::INVALID_ARGUMENT},
      {"suspend: unknown", Admin,
       Rpc(&Stubs::agencies, &AS::SuspendAgency,
           With<v1::SuspendAgencyRequest>({},
                                          [](auto& r) {
                                            r.set_prefix("999");
                                            r.set_reason("r");
                                          })),
       StatusCode::NOT_FOUND},
      {"suspend: twice", Admin,
       Rpc(&Stubs::agencies, &AS::SuspendAgency,
           With<v1::SuspendAgencyRequest>({},
                                          [](auto& r) {
                                            r.set_prefix("130");
                                            r.set_reason("r");
                                          })),
       StatusCode::FAILED_PRECONDITION},
      {"reinstate: active", Admin,
       Rpc(&Stubs::agencies, &AS::ReinstateAgency,
           With<v1::ReinstateAgencyRequest>(
               {}, [](auto& r) { r.set_prefix("120"); })),
       StatusCode::FAILED_PRECONDITION},
      {"token: no role", Admin,
       Rpc(&Stubs::tokens, &TS::CreateToken, v1::CreateTokenRequest()),
       StatusCode::INVALID_ARGUMENT},
      {"token: operator without agency", Admin,
       Rpc(&Stubs::tokens, &TS::CreateToken,
           With<v1::CreateTokenRequest>(
               {}, [](auto& r) { r.set_role(v1::ROLE_AGENCY_OPERATOR); })),
       StatusCode::INVALID_ARGUMENT},
      {"token: auditor with agency", Admin,
       Rpc(&Stubs::tokens, &TS::CreateToken,
           With<v1::CreateTokenRequest>({},
                                        [](auto& r) {
                                          r.set_role(v1::ROLE_AUDITOR);
                                          r.set_agency_prefix("110");
                                        })),
       StatusCode::INVALID_ARGUMENT},
      {"token: unknown agency", Admin,
       Rpc(&Stubs::tokens, &TS::CreateToken,
           With<v1::CreateTokenRequest>({},
                                        [](auto& r) {
                                          r.set_role(v1::ROLE_AGENCY_OPERATOR);
                                          r.set_agency_prefix("999");
                                        })),
       StatusCode::NOT_FOUND},
      {"token: revoke unknown", Admin,
       Rpc(&Stubs::tokens, &TS::RevokeToken,
           With<v1::RevokeTokenRequest>({},
                                        [](auto& r) { r.set_token_id(999); })),
       StatusCode::NOT_FOUND},
      {"token: revoke itself", Admin,
       Rpc(&Stubs::tokens, &TS::RevokeToken,
           With<v1::RevokeTokenRequest>(
               {}, [&](auto& r) { r.set_token_id(server_.admin_token_id); })),
       StatusCode::FAILED_PRECONDITION},
      {"token: revoke twice", Admin,
       Rpc(&Stubs::tokens, &TS::RevokeToken,
           With<v1::RevokeTokenRequest>(
               {}, [&](auto& r) { r.set_token_id(server_.revoked_token_id); })),
       StatusCode::FAILED_PRECONDITION},
      {"rank parse: bad", Nobody,
       Rpc(&Stubs::ranks, &RS::ParseRank,
           With<v1::ParseRankRequest>({}, [](auto& r) { r.set_text("10p"); })),
       StatusCode::INVALID_ARGUMENT},
  };
  for (const BadCall& c : cases) {
    SCOPED_TRACE(c.label);
    auto before = server_.Snapshot();
    ASSERT_TRUE(before.ok()) << before.status();
    auto ctx = InProcessServer::Context(c.bearer(server_));
    const grpc::Status s = c.call(stubs_, ctx.get());
    EXPECT_EQ(s.error_code(), c.code) << s.error_message();
    EXPECT_FALSE(s.error_message().empty());
    auto after = server_.Snapshot();
    ASSERT_TRUE(after.ok()) << after.status();
    EXPECT_EQ(*after, *before) << "a refused call changed the database";
  }
}

TEST_F(RegistryServiceTest, EveryWriteAppendsOneAuditRow) {
  auto rows = [&] { return server_.Snapshot()->Rows("audit_log"); };
  const int64_t start = rows();
  MustRegister(server_.op110, Registration("周四", "110"));
  EXPECT_EQ(rows(), start + 1);
  v1::UpdatePlayerRequest u;
  u.set_player_id(1);
  u.set_latin_name("Zhou Si");
  v1::UpdatePlayerResponse ur;
  ASSERT_TRUE(
      stubs_.players
          ->UpdatePlayer(InProcessServer::Context(server_.op110).get(), u, &ur)
          .ok());
  EXPECT_EQ(rows(), start + 2);
  v1::CreateAgencyRequest ca;
  ca.set_prefix("990");
  ca.set_name("测试");
  v1::CreateAgencyResponse car;
  ASSERT_TRUE(stubs_.agencies
                  ->CreateAgency(InProcessServer::Context(server_.admin).get(),
                                 ca, &car)
                  .ok());
  EXPECT_EQ(rows(), start + 3);
  // Reads append nothing.
  Get("", 1);
  EXPECT_EQ(rows(), start + 3);
}

}  // namespace
}  // namespace gorank::integration
