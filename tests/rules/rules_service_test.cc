// RulesService through real gRPC: a RankdServer on 127.0.0.1:0 with a temp
// database, called over TCP. Every record of the shared test data against
// expected.tsv through both RPCs; access for the public and every role;
// malformed, oversize and badly optioned records; collections; the stream's
// per-record errors; and (on a bare server with a small bound) the stream's
// record limit.
#include "services/rules/rules_service.h"

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/rules.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server_builder.h"
#include "gtest/gtest.h"
#include "services/auth/call_gate.h"
#include "services/auth/token_manager.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "tests/testing/in_memory_token_repository.h"
#include "tests/testing/in_process_server.h"

namespace gorank::rules {
namespace {

using Stream = grpc::ClientReaderWriter<v1::CheckGameRecordsRequest,
                                        v1::CheckGameRecordsResponse>;

constexpr char kTwoGames[] =
    "(;GM[1]FF[4]SZ[9]KM[7.5]RE[B+R];B[ee];W[cc])"
    "(;GM[1]FF[4]SZ[9]KM[7.5]AW[ba][ab]PL[B];B[aa])";
constexpr char kGood[] = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc])";
constexpr char kUnclosed[] =
    "(;GM[1]FF[4]SZ[9];B[cc]";  // 23 bytes, ')' missing

struct Expectation {
  std::string file, ruleset, violations, end, result;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string GoDir() { return std::string(GORANK_TESTDATA_DIR) + "/go/"; }

std::vector<Expectation> LoadExpectations() {
  std::vector<Expectation> out;
  std::istringstream lines(ReadFile(GoDir() + "expected.tsv"));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, '\t');) cols.push_back(f);
    if (cols.size() == 5)
      out.push_back({cols[0], cols[1], cols[2], cols[3], cols[4]});
  }
  return out;
}

// The names expected.tsv uses (those of go::ViolationName).
std::string KindName(v1::ViolationKind k) {
  switch (k) {
    case v1::VIOLATION_KIND_SUICIDE:
      return "suicide";
    case v1::VIOLATION_KIND_KO_RECAPTURE:
      return "ko";
    case v1::VIOLATION_KIND_SUPERKO:
      return "superko";
    case v1::VIOLATION_KIND_OCCUPIED:
      return "occupied";
    case v1::VIOLATION_KIND_DOUBLE_MOVE:
      return "double_move";
    case v1::VIOLATION_KIND_WHITE_FIRST:
      return "white_first";
    case v1::VIOLATION_KIND_AFTER_END:
      return "after_end";
    default:
      return "?";
  }
}

void ExpectMatches(const Expectation& e, const v1::GameReport& r) {
  std::string violations;
  for (const v1::Violation& v : r.violations()) {
    if (!violations.empty()) violations += ",";
    violations += std::to_string(v.move_number()) + ":" + KindName(v.kind());
  }
  EXPECT_EQ(violations.empty() ? "-" : violations, e.violations) << e.file;
  if (e.end == "-") {
    EXPECT_EQ(r.end(), v1::GAME_END_UNFINISHED) << e.file;
  } else {
    EXPECT_EQ(r.end(), v1::GAME_END_TWO_PASSES) << e.file;
    EXPECT_EQ(std::to_string(r.end_move()), e.end) << e.file;
  }
  if (e.result != "-") {
    EXPECT_EQ(r.count().result(), e.result) << e.file;
    EXPECT_EQ(r.result_check(), v1::RESULT_CHECK_AGREES)
        << r.result_check_detail();
  }
  EXPECT_EQ(r.failed(), e.violations != "-") << e.file;
}

class RulesServiceTest : public ::testing::Test {
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
    channel_ = server_->channel();
    stub_ = v1::RulesService::NewStub(channel_);
  }

  static std::unique_ptr<grpc::ClientContext> Context(
      const std::string& bearer = "") {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(20));
    if (!bearer.empty()) ctx->AddMetadata("authorization", "Bearer " + bearer);
    return ctx;
  }

  grpc::Status CheckOne(const std::string& sgf,
                        v1::CheckGameRecordResponse* resp,
                        const v1::CheckOptions& options = {},
                        const std::string& bearer = "") {
    v1::CheckGameRecordRequest req;
    req.set_sgf(sgf);
    *req.mutable_options() = options;
    return stub_->CheckGameRecord(Context(bearer).get(), req, resp);
  }

  // Sends every record on one stream, then reads all answers.
  grpc::Status CheckMany(
      const std::vector<std::pair<std::string, std::string>>& records,
      std::vector<v1::CheckGameRecordsResponse>* out,
      const std::string& bearer = "") {
    auto ctx = Context(bearer);
    std::unique_ptr<Stream> stream = stub_->CheckGameRecords(ctx.get());
    for (const auto& [id, sgf] : records) {
      v1::CheckGameRecordsRequest req;
      req.set_record_id(id);
      req.set_sgf(sgf);
      if (!stream->Write(req)) break;
    }
    stream->WritesDone();
    for (v1::CheckGameRecordsResponse resp; stream->Read(&resp);)
      out->push_back(resp);
    return stream->Finish();
  }

  std::string MakeToken(v1::Role role, const std::string& agency) {
    auto tokens = v1::TokenService::NewStub(channel_);
    v1::CreateTokenRequest req;
    req.set_role(role);
    req.set_agency_prefix(agency);
    req.set_label("rules test");
    v1::CreateTokenResponse resp;
    grpc::Status s =
        tokens->CreateToken(Context(server_->admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.secret();
  }

  std::unique_ptr<testing::InProcessServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::RulesService::Stub> stub_;
};

TEST_F(RulesServiceTest, EveryTestdataRecordThroughTheUnaryCall) {
  const std::vector<Expectation> expectations = LoadExpectations();
  ASSERT_EQ(expectations.size(), 10u);
  for (const Expectation& e : expectations) {
    ASSERT_EQ(e.ruleset, "chinese");
    v1::CheckGameRecordResponse resp;
    grpc::Status s = CheckOne(ReadFile(GoDir() + e.file), &resp);
    ASSERT_TRUE(s.ok()) << e.file << ": " << s.error_message();
    ASSERT_EQ(resp.reports_size(), 1) << e.file;
    ExpectMatches(e, resp.reports(0));
  }
}

TEST_F(RulesServiceTest, EveryTestdataRecordThroughOneStreamInOrder) {
  const std::vector<Expectation> expectations = LoadExpectations();
  std::vector<std::pair<std::string, std::string>> records;
  for (const Expectation& e : expectations) {
    records.push_back({e.file, ReadFile(GoDir() + e.file)});
  }
  std::vector<v1::CheckGameRecordsResponse> answers;
  grpc::Status s = CheckMany(records, &answers);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(answers.size(), expectations.size());
  for (size_t i = 0; i < answers.size(); ++i) {
    EXPECT_EQ(answers[i].record_id(), expectations[i].file);
    EXPECT_EQ(answers[i].error_code(), "");
    ASSERT_EQ(answers[i].reports_size(), 1);
    ExpectMatches(expectations[i], answers[i].reports(0));
  }
}

TEST_F(RulesServiceTest, ReportCarriesPointsCountAndArticle) {
  v1::CheckGameRecordResponse resp;
  ASSERT_TRUE(CheckOne(ReadFile(GoDir() + "suicide_single.sgf"), &resp).ok());
  const v1::GameReport& r = resp.reports(0);
  ASSERT_EQ(r.violations_size(), 1);
  const v1::Violation& v = r.violations(0);
  EXPECT_EQ(v.color(), v1::STONE_COLOR_BLACK);
  EXPECT_EQ(v.point().sgf(), "aa");
  EXPECT_EQ(v.point().label(), "A9");
  EXPECT_TRUE(v.move_void());
  EXPECT_TRUE(v.turn_forfeited());
  EXPECT_NE(v.article().find("第19条"), std::string::npos) << v.article();
  EXPECT_EQ(r.info().board_size(), 9);
  EXPECT_EQ(r.final_position_size(), 9);

  ASSERT_TRUE(
      CheckOne(ReadFile(GoDir() + "area_seki_two_liberties.sgf"), &resp).ok());
  const v1::Count& c = resp.reports(0).count();
  EXPECT_EQ(c.method(), v1::SCORING_METHOD_AREA);
  EXPECT_EQ(c.komi_half_points(), 15);
  EXPECT_EQ(c.margin_half_points(), -25);
  EXPECT_EQ(c.result(), "W+12.5");
}

TEST_F(RulesServiceTest, OptionsReachTheCheck) {
  v1::CheckOptions japanese;
  japanese.set_ruleset(v1::RULESET_JAPANESE);
  japanese.set_komi_half_points(13);
  japanese.set_white_warnings(1);
  v1::CheckGameRecordResponse resp;
  ASSERT_TRUE(CheckOne(kGood, &resp, japanese).ok());
  const v1::GameReport& r = resp.reports(0);
  EXPECT_EQ(r.count().method(), v1::SCORING_METHOD_TERRITORY);
  EXPECT_EQ(r.count().komi_half_points(), 13);
  EXPECT_EQ(r.white_warnings(), 1);
  EXPECT_EQ(r.count().white_warning_half_points(), 4);
  ASSERT_EQ(r.warnings_size(), 1);
  EXPECT_EQ(r.warnings(0).source(), v1::WARNING_SOURCE_REQUEST);
}

TEST_F(RulesServiceTest, PublicAndEveryRoleMayCheck) {
  const std::vector<std::string> bearers = {
      "", server_->admin, MakeToken(v1::ROLE_AGENCY_OPERATOR, "110"),
      MakeToken(v1::ROLE_AUDITOR, "")};
  for (const std::string& bearer : bearers) {
    v1::CheckGameRecordResponse resp;
    grpc::Status s = CheckOne(kGood, &resp, {}, bearer);
    EXPECT_TRUE(s.ok()) << s.error_message();
    std::vector<v1::CheckGameRecordsResponse> answers;
    s = CheckMany({{"a", kGood}}, &answers, bearer);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(answers.size(), 1u);
  }
}

TEST_F(RulesServiceTest, AnUnknownTokenIsRefusedOnBothCalls) {
  v1::CheckGameRecordResponse resp;
  EXPECT_EQ(CheckOne(kGood, &resp, {}, "no-such-token").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  std::vector<v1::CheckGameRecordsResponse> answers;
  EXPECT_EQ(CheckMany({{"a", kGood}}, &answers, "no-such-token").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(answers.empty());
}

TEST_F(RulesServiceTest, MalformedRecordIsInvalidArgumentWithTheByteOffset) {
  v1::CheckGameRecordResponse resp;
  grpc::Status s = CheckOne(kUnclosed, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("byte offset 23"), std::string::npos)
      << s.error_message();
}

TEST_F(RulesServiceTest, OversizeRecordIsRefused) {
  std::string big = std::string(kGood) + std::string((1 << 20), ' ');
  v1::CheckGameRecordResponse resp;
  grpc::Status s = CheckOne(big, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("1048576-byte limit"), std::string::npos)
      << s.error_message();
}

TEST_F(RulesServiceTest, BadOptionsNameTheField) {
  struct Case {
    std::function<void(v1::CheckOptions&)> set;
    std::string field;
  };
  const std::vector<Case> cases = {
      {[](v1::CheckOptions& o) { o.set_ruleset(static_cast<v1::Ruleset>(42)); },
       "ruleset"},
      {[](v1::CheckOptions& o) { o.set_komi_half_points(100000); },
       "komi_half_points"},
      {[](v1::CheckOptions& o) { o.set_black_warnings(-1); }, "black_warnings"},
      {[](v1::CheckOptions& o) { o.add_variation(-2); }, "variation[0]"},
      {[](v1::CheckOptions& o) { o.add_dead_stones()->set_sgf("dd"); },
       "dead_stones_given"},
      {[](v1::CheckOptions& o) {
         o.set_dead_stones_given(true);
         o.add_dead_stones()->set_sgf("z1");
       },
       "dead_stones[0].sgf"},
      {[](v1::CheckOptions& o) { o.add_variation(3); },
       "variation"},  // no such fork
  };
  for (const Case& c : cases) {
    v1::CheckOptions options;
    c.set(options);
    v1::CheckGameRecordResponse resp;
    grpc::Status s = CheckOne(kGood, &resp, options);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.field;
    EXPECT_NE(s.error_message().find(c.field), std::string::npos)
        << s.error_message();
  }
}

TEST_F(RulesServiceTest, CollectionGivesOneReportPerGame) {
  v1::CheckGameRecordResponse resp;
  ASSERT_TRUE(CheckOne(kTwoGames, &resp).ok());
  ASSERT_EQ(resp.reports_size(), 2);
  EXPECT_EQ(resp.reports(0).game_index(), 0);
  EXPECT_FALSE(resp.reports(0).failed());
  EXPECT_EQ(resp.reports(0).end(), v1::GAME_END_RESIGNATION);
  EXPECT_EQ(resp.reports(1).game_index(), 1);
  EXPECT_TRUE(resp.reports(1).failed());
  EXPECT_EQ(resp.reports(1).violations(0).kind(), v1::VIOLATION_KIND_SUICIDE);
}

TEST_F(RulesServiceTest, StreamAnswersBadRecordsAndGoesOn) {
  const std::string big = std::string(kGood) + std::string((1 << 20), ' ');
  std::vector<v1::CheckGameRecordsResponse> answers;
  grpc::Status s = CheckMany(
      {{"bad", kUnclosed}, {"good", kGood}, {"big", big}, {"two", kTwoGames}},
      &answers);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_EQ(answers[0].record_id(), "bad");
  EXPECT_EQ(answers[0].error_code(), "INVALID_ARGUMENT");
  EXPECT_NE(answers[0].error_message().find("byte offset 23"),
            std::string::npos);
  EXPECT_EQ(answers[0].reports_size(), 0);
  EXPECT_EQ(answers[1].record_id(), "good");
  EXPECT_EQ(answers[1].error_code(), "");
  EXPECT_EQ(answers[1].reports_size(), 1);
  EXPECT_EQ(answers[2].error_code(), "RESOURCE_EXHAUSTED");
  EXPECT_EQ(answers[3].reports_size(), 2);
}

TEST_F(RulesServiceTest, EmptyStreamIsOk) {
  std::vector<v1::CheckGameRecordsResponse> answers;
  EXPECT_TRUE(CheckMany({}, &answers).ok());
  EXPECT_TRUE(answers.empty());
}

// The record bound of a stream, on a bare server holding only RulesService
// with a bound of 3.
TEST(RulesServiceLimitTest, StreamOverTheRecordBoundIsResourceExhausted) {
  testing::InMemoryTokenRepository repo(nullptr);
  auth::TokenManager tokens(&repo, SystemClock::Get());
  CallGate gate(&tokens);
  RulesServiceImpl service(&gate, RulesServiceOptions{3});
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub = v1::RulesService::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));

  grpc::ClientContext ctx;
  std::unique_ptr<Stream> stream = stub->CheckGameRecords(&ctx);
  std::vector<std::string> answered;
  v1::CheckGameRecordsResponse resp;
  for (int i = 0; i < 4; ++i) {
    v1::CheckGameRecordsRequest req;
    req.set_record_id("r" + std::to_string(i));
    req.set_sgf(kGood);
    if (!stream->Write(req)) break;
    if (i < 3 && stream->Read(&resp)) answered.push_back(resp.record_id());
  }
  stream->WritesDone();
  while (stream->Read(&resp)) answered.push_back(resp.record_id());
  grpc::Status s = stream->Finish();
  EXPECT_EQ(answered, (std::vector<std::string>{"r0", "r1", "r2"}));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("at most 3 records"), std::string::npos)
      << s.error_message();
  server->Shutdown();
}

}  // namespace
}  // namespace gorank::rules
