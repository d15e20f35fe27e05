// RulesService.CheckGomokuRecord through real gRPC: a RankdServer on
// 127.0.0.1:0 with a temp database, called over TCP without a token (the
// check is public). Rule violations with their move numbers, a double-three
// forbidden move with its lines, white's overline win, both notations and
// their detection, and malformed requests with precise codes.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gorank/v1/rules.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "tests/testing/in_process_server.h"

namespace gorank::rules {
namespace {

// The double three of H9 (live threes G9-H9-I9 and H8-H9-H10), claimed by
// white through RE[W+F].
constexpr char kDoubleThreeSgf[] =
    "(;GM[4]SZ[15]PB[黑方]PW[白方]RE[W+F];B[hh];W[ao];B[hf];W[am];B[gg];"
    "W[ak];B[ig];W[ai];B[hg])";

class GomokuServiceTest : public ::testing::Test {
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

  grpc::Status Check(const v1::CheckGomokuRecordRequest& req,
                     v1::CheckGomokuRecordResponse* resp) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::seconds(20));
    return stub_->CheckGomokuRecord(&ctx, req, resp);
  }

  grpc::Status Check(const std::string& record,
                     v1::CheckGomokuRecordResponse* resp) {
    v1::CheckGomokuRecordRequest req;
    req.set_record(record);
    return Check(req, resp);
  }

  std::unique_ptr<testing::InProcessServer> server_;
  std::unique_ptr<v1::RulesService::Stub> stub_;
};

std::string Violations(const v1::CheckGomokuRecordResponse& r) {
  std::string out;
  for (const v1::GomokuViolation& v : r.violations()) {
    out += (out.empty() ? "" : ",") + std::to_string(v.move_number()) + ":" +
           v1::GomokuViolationKind_Name(v.kind());
  }
  return out;
}

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& s) {
  std::string out;
  for (const std::string& p : s) out += (out.empty() ? "" : " ") + p;
  return out;
}

struct MoveListCase {
  const char* name;
  const char* moves;
  v1::GomokuRuleset ruleset;
  v1::GomokuClaimPolicy claim;
  const char* violations;  // "move:KIND,..."
  v1::StoneColor winner;
  v1::GomokuEndReason reason;
  int decided_at_move;
  const char* five;
};

TEST_F(GomokuServiceTest, MoveListsGiveViolationsWithMoveNumbers) {
  const MoveListCase cases[] = {
      {"after five", "H8 A1 H9 A2 H10 A3 H11 A4 H12 B1 C1",
       v1::GOMOKU_RULESET_UNSPECIFIED, v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED,
       "10:GOMOKU_VIOLATION_KIND_AFTER_GAME_END,"
       "11:GOMOKU_VIOLATION_KIND_AFTER_GAME_END",
       v1::STONE_COLOR_BLACK, v1::GOMOKU_END_REASON_FIVE, 9,
       "H8 H9 H10 H11 H12"},
      {"first move off H8", "A1 H8 B1 H9", v1::GOMOKU_RULESET_FORMAL,
       v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED,
       "1:GOMOKU_VIOLATION_KIND_FIRST_MOVE_NOT_CENTER",
       v1::STONE_COLOR_UNSPECIFIED, v1::GOMOKU_END_REASON_UNFINISHED, 0, ""},
      {"freestyle first move", "A1 H8 B1 H9", v1::GOMOKU_RULESET_FREESTYLE,
       v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED, "", v1::STONE_COLOR_UNSPECIFIED,
       v1::GOMOKU_END_REASON_UNFINISHED, 0, ""},
      {"occupied point", "H8 I9 H8 J10", v1::GOMOKU_RULESET_UNSPECIFIED,
       v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED, "3:GOMOKU_VIOLATION_KIND_OCCUPIED",
       v1::STONE_COLOR_UNSPECIFIED, v1::GOMOKU_END_REASON_UNFINISHED, 0, ""},
      {"white overline wins", "H8 A1 L3 A2 C12 A3 M13 A5 E2 A6 O8 A4",
       v1::GOMOKU_RULESET_UNSPECIFIED, v1::GOMOKU_CLAIM_POLICY_UNSPECIFIED, "",
       v1::STONE_COLOR_WHITE, v1::GOMOKU_END_REASON_FIVE, 12,
       "A1 A2 A3 A4 A5 A6"},
      {"black overline claimed at once", "H8 A1 D8 A3 E8 A5 F8 A7 I8 A9 G8",
       v1::GOMOKU_RULESET_UNSPECIFIED, v1::GOMOKU_CLAIM_POLICY_IMMEDIATE, "",
       v1::STONE_COLOR_WHITE, v1::GOMOKU_END_REASON_FORBIDDEN_MOVE_CLAIMED, 11,
       ""},
  };
  for (const MoveListCase& c : cases) {
    v1::CheckGomokuRecordRequest req;
    req.set_record(c.moves);
    req.set_ruleset(c.ruleset);
    req.set_claim_policy(c.claim);
    v1::CheckGomokuRecordResponse resp;
    const grpc::Status s = Check(req, &resp);
    ASSERT_TRUE(s.ok()) << c.name << ": " << s.error_message();
    EXPECT_EQ(resp.format(), v1::GOMOKU_RECORD_FORMAT_MOVE_LIST) << c.name;
    EXPECT_EQ(Violations(resp), c.violations) << c.name;
    EXPECT_EQ(resp.failed(), std::string(c.violations) != "") << c.name;
    EXPECT_EQ(resp.outcome().winner(), c.winner) << c.name;
    EXPECT_EQ(resp.outcome().reason(), c.reason) << c.name;
    EXPECT_EQ(resp.outcome().decided_at_move(), c.decided_at_move) << c.name;
    EXPECT_EQ(Join(resp.outcome().five()), c.five) << c.name;
    for (const v1::GomokuViolation& v : resp.violations())
      EXPECT_FALSE(v.message().empty()) << c.name;
  }
}

TEST_F(GomokuServiceTest, MovesAfterFiveAreNotPlayed) {
  v1::CheckGomokuRecordResponse resp;
  ASSERT_TRUE(Check("H8 A1 H9 A2 H10 A3 H11 A4 H12 B1 C1", &resp).ok());
  EXPECT_EQ(resp.moves_played(), 9);
  EXPECT_EQ(resp.outcome().summary(),
            "black wins by five at move 9: H8 H9 H10 H11 H12");
  ASSERT_EQ(resp.final_position_size(), 15);
  // Row 1 holds white's A1 only: B1 (move 10) and C1 (move 11) not played.
  EXPECT_EQ(resp.final_position(14), "O..............");
  EXPECT_EQ(resp.final_position(3), ".......X.......");  // row 12: H12
  EXPECT_EQ(resp.final_position(7), ".......X.......");  // row 8: H8
}

TEST_F(GomokuServiceTest, DoubleThreeClaimedWithItsLines) {
  v1::CheckGomokuRecordResponse resp;
  const grpc::Status s = Check(kDoubleThreeSgf, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.format(), v1::GOMOKU_RECORD_FORMAT_SGF);
  EXPECT_EQ(resp.info().black_player(), "黑方");
  EXPECT_EQ(resp.info().result_text(), "W+F");
  EXPECT_FALSE(resp.failed());
  ASSERT_EQ(resp.forbidden_moves_size(), 1);
  const v1::GomokuForbiddenMove& f = resp.forbidden_moves(0);
  EXPECT_EQ(f.move_number(), 9);
  EXPECT_EQ(f.point(), "H9");
  ASSERT_EQ(f.fouls_size(), 1);
  EXPECT_EQ(f.fouls(0), v1::GOMOKU_FOUL_DOUBLE_THREE);
  EXPECT_TRUE(f.claimed());
  ASSERT_EQ(f.lines_size(), 2);
  EXPECT_EQ(f.lines(0).kind(), v1::GOMOKU_SHAPE_KIND_LIVE_THREE);
  EXPECT_EQ(f.lines(0).direction(), v1::GOMOKU_DIRECTION_HORIZONTAL);
  EXPECT_EQ(Join(f.lines(0).stones()), "G9 H9 I9");
  EXPECT_EQ(Join(f.lines(0).points()), "F9 J9");
  EXPECT_EQ(f.lines(1).direction(), v1::GOMOKU_DIRECTION_VERTICAL);
  EXPECT_EQ(Join(f.lines(1).stones()), "H8 H9 H10");
  EXPECT_EQ(Join(f.lines(1).points()), "H7 H11");
  EXPECT_EQ(f.description().rfind("H9 is forbidden: double three (三三)", 0),
            0u)
      << f.description();
  EXPECT_EQ(resp.outcome().winner(), v1::STONE_COLOR_WHITE);
  EXPECT_EQ(resp.outcome().reason(),
            v1::GOMOKU_END_REASON_FORBIDDEN_MOVE_CLAIMED);
  EXPECT_EQ(resp.outcome().decided_at_move(), 9);
  const std::vector<std::string> rows(resp.final_position().begin(),
                                      resp.final_position().end());
  const std::vector<std::string> expected = {
      "...............", "...............", "...............",
      "...............", "...............", ".......X.......",
      "......XXX......", ".......X.......", "O..............",
      "...............", "O..............", "...............",
      "O..............", "...............", "O.............."};
  EXPECT_EQ(rows, expected);
}

TEST_F(GomokuServiceTest, FormatDetectionCanBeOverridden) {
  v1::CheckGomokuRecordRequest req;
  req.set_record(" \n(;GM[4];B[hh];W[ii])");
  v1::CheckGomokuRecordResponse resp;
  ASSERT_TRUE(Check(req, &resp).ok());
  EXPECT_EQ(resp.format(), v1::GOMOKU_RECORD_FORMAT_SGF);
  EXPECT_EQ(resp.moves_played(), 2);
  req.set_format(v1::GOMOKU_RECORD_FORMAT_MOVE_LIST);
  const grpc::Status s = Check(req, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("move 1 at line 2, column 1"),
            std::string::npos)
      << s.error_message();
}

TEST_F(GomokuServiceTest, MalformedRequestsGetPreciseCodes) {
  struct Case {
    const char* name;
    std::string record;
    int format, ruleset, claim;
    grpc::StatusCode code;
    const char* message_part;
  };
  const Case cases[] = {
      {"bad point", "H8 Q9", 0, 0, 0, grpc::StatusCode::INVALID_ARGUMENT,
       "move list, move 2 at line 1, column 4"},
      {"not gomoku", "(;GM[1];B[hh])", 0, 0, 0,
       grpc::StatusCode::INVALID_ARGUMENT, "GM"},
      {"empty", "  \n", 0, 0, 0, grpc::StatusCode::INVALID_ARGUMENT,
       "record is empty"},
      {"setup stones", "(;GM[4]AB[hh];W[ii])", 0, 0, 0,
       grpc::StatusCode::UNIMPLEMENTED, ""},
      {"too large", "H8 " + std::string((1 << 20) + 1, ' '), 0, 0, 0,
       grpc::StatusCode::RESOURCE_EXHAUSTED, "1048576-byte limit"},
      {"unknown ruleset", "H8", 0, 7, 0, grpc::StatusCode::INVALID_ARGUMENT,
       "ruleset"},
      {"unknown claim policy", "H8", 0, 0, 9,
       grpc::StatusCode::INVALID_ARGUMENT, "claim_policy"},
      {"unknown format", "H8", 5, 0, 0, grpc::StatusCode::INVALID_ARGUMENT,
       "format"},
  };
  for (const Case& c : cases) {
    v1::CheckGomokuRecordRequest req;
    req.set_record(c.record);
    req.set_format(static_cast<v1::GomokuRecordFormat>(c.format));
    req.set_ruleset(static_cast<v1::GomokuRuleset>(c.ruleset));
    req.set_claim_policy(static_cast<v1::GomokuClaimPolicy>(c.claim));
    v1::CheckGomokuRecordResponse resp;
    const grpc::Status s = Check(req, &resp);
    EXPECT_EQ(s.error_code(), c.code) << c.name << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message_part), std::string::npos)
        << c.name << ": " << s.error_message();
  }
}

}  // namespace
}  // namespace gorank::rules
