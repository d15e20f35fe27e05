// RulesService.CheckXiangqiRecord through real gRPC: a RankdServer on
// 127.0.0.1:0 with a temp database, called over TCP without a token (the
// check is public). A file of three games (a pass, an illegal move naming
// its rule, a perpetual check whose result is contradicted), GBK bytes,
// the notation option, and malformed requests with precise codes.
#include <iconv.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "gorank/v1/rules.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "services/rules/xiangqi/legality.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "tests/testing/in_process_server.h"

namespace gorank::rules {
namespace {

constexpr char kThreeGames[] =
    "[Game \"Chinese Chess\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n"
    "[FEN \"3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. a7d7 1-0\n\n"
    "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n1. C2.5 H8+7 2. H8+6 *\n\n"
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n"
    "[FEN \"3k5/9/9/9/9/9/9/9/7R1/5K3 w - - 0 1\"]\n"
    "1. h1h9 d9d8 2. h9h8 d8d9 3. h8h9 d9d8 4. h9h8 d8d9 5. h8h9 1-0\n";

class XiangqiServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The system clock, no tokens but the bootstrap admin's.
    testing::InProcessOptions options;
    options.date = std::nullopt;
    options.tokens = false;
    options.reader_connections = std::nullopt;
    options.die_on_error = false;
    server_ = std::make_unique<testing::InProcessServer>(options);
    ASSERT_TRUE(server_->status().ok()) << server_->status();
    stub_ = v1::RulesService::NewStub(server_->channel());
  }

  grpc::Status Check(const v1::CheckXiangqiRecordRequest& req,
                     v1::CheckXiangqiRecordResponse* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(20));
    return stub_->CheckXiangqiRecord(&ctx, req, resp);
  }
  grpc::Status Check(const std::string& record,
                     v1::CheckXiangqiRecordResponse* resp) {
    v1::CheckXiangqiRecordRequest req;
    req.set_record(record);
    return Check(req, resp);
  }

  std::unique_ptr<testing::InProcessServer> server_;
  std::unique_ptr<v1::RulesService::Stub> stub_;
};

TEST_F(XiangqiServiceTest, ThreeGamesOneReportEach) {
  v1::CheckXiangqiRecordResponse r;
  grpc::Status s = Check(kThreeGames, &r);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(r.charset(), "UTF-8");
  ASSERT_EQ(r.games_size(), 3);

  const v1::XiangqiGameReport& mate = r.games(0);
  EXPECT_FALSE(mate.failed());
  EXPECT_EQ(mate.info().red(), "甲");
  EXPECT_EQ(mate.outcome().reason(), v1::XIANGQI_END_REASON_CHECKMATE);
  EXPECT_EQ(mate.outcome().winner(), v1::XIANGQI_SIDE_RED);
  EXPECT_EQ(mate.line(), 1);

  const v1::XiangqiGameReport& illegal = r.games(1);
  EXPECT_TRUE(illegal.failed());
  ASSERT_EQ(illegal.violations_size(), 1);
  EXPECT_EQ(illegal.violations(0).move_number(), 3);
  EXPECT_EQ(illegal.violations(0).kind(),
            v1::XIANGQI_VIOLATION_KIND_ILLEGAL_MOVE);
  EXPECT_EQ(illegal.violations(0).rule(), v1::XIANGQI_RULE_HORSE_LEG);
  EXPECT_EQ(illegal.violations(0).side(), v1::XIANGQI_SIDE_RED);
  EXPECT_EQ(illegal.violations(0).notation(), "H8+6");
  EXPECT_NE(illegal.violations(0).message().find("蹩马腿"), std::string::npos);
  EXPECT_EQ(illegal.moves_played(), 2);

  const v1::XiangqiGameReport& perpetual = r.games(2);
  EXPECT_TRUE(perpetual.failed());
  ASSERT_EQ(perpetual.repetitions_size(), 1);
  EXPECT_EQ(perpetual.repetitions(0).ruling(),
            v1::XIANGQI_REPETITION_RULING_PERPETUAL_CHECK);
  EXPECT_EQ(perpetual.repetitions(0).loser(), v1::XIANGQI_SIDE_RED);
  ASSERT_EQ(perpetual.violations_size(), 1);
  EXPECT_EQ(perpetual.violations(0).kind(),
            v1::XIANGQI_VIOLATION_KIND_RESULT_MISMATCH);
  EXPECT_EQ(perpetual.outcome().winner(), v1::XIANGQI_SIDE_BLACK);
}

TEST_F(XiangqiServiceTest, GbkRecordAndForcedNotation) {
  const std::string utf8 = "[Result \"红胜\"]\n1. 炮二平五 马８进７ 红胜\n";
  iconv_t cd = iconv_open("GBK", "UTF-8");
  std::string gbk(64, '\0');
  char* in = const_cast<char*>(utf8.data());
  char* out = gbk.data();
  size_t in_left = utf8.size(), out_left = gbk.size();
  ASSERT_NE(iconv(cd, &in, &in_left, &out, &out_left), static_cast<size_t>(-1));
  iconv_close(cd);
  gbk.resize(gbk.size() - out_left);
  v1::CheckXiangqiRecordResponse r;
  ASSERT_TRUE(Check(gbk, &r).ok());
  EXPECT_EQ(r.charset(), "GB18030");
  ASSERT_EQ(r.games_size(), 1);
  EXPECT_FALSE(r.games(0).failed());
  EXPECT_EQ(r.games(0).outcome().reason(), v1::XIANGQI_END_REASON_RECORDED_WIN);

  v1::CheckXiangqiRecordRequest req;
  req.set_record(utf8);
  req.set_notation(v1::XIANGQI_NOTATION_ICCS);
  r.Clear();
  ASSERT_TRUE(Check(req, &r).ok());
  ASSERT_EQ(r.games(0).violations_size(), 1);
  EXPECT_EQ(r.games(0).violations(0).kind(),
            v1::XIANGQI_VIOLATION_KIND_UNREADABLE_MOVE);
}

TEST_F(XiangqiServiceTest, BadRequestsGetPreciseCodes) {
  v1::CheckXiangqiRecordResponse r;
  EXPECT_EQ(Check("", &r).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  grpc::Status s = Check("[Red \"A\n", &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("line 1"), std::string::npos)
      << s.error_message();
  s = Check("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. e0e1\n", &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("face"), std::string::npos)
      << s.error_message();
  s = Check(std::string((1 << 20) + 1, ' '), &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  v1::CheckXiangqiRecordRequest req;
  req.set_record("1. h2e2");
  req.set_notation(static_cast<v1::XiangqiNotation>(42));
  s = Check(req, &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST(XiangqiProtoTest, RuleNumbersMatchTheDomain) {
  // The handler maps xiangqi::Rule to XiangqiRule by number.
  EXPECT_EQ(static_cast<int>(xiangqi::Rule::kNoPiece),
            v1::XIANGQI_RULE_NO_PIECE);
  EXPECT_EQ(static_cast<int>(xiangqi::Rule::kHorseLeg),
            v1::XIANGQI_RULE_HORSE_LEG);
  EXPECT_EQ(static_cast<int>(xiangqi::Rule::kCannonScreen),
            v1::XIANGQI_RULE_CANNON_SCREEN);
  EXPECT_EQ(static_cast<int>(xiangqi::Rule::kSelfCheck),
            v1::XIANGQI_RULE_SELF_CHECK);
  EXPECT_EQ(v1::XiangqiRule_MAX, v1::XIANGQI_RULE_SELF_CHECK);
}

}  // namespace
}  // namespace gorank::rules
