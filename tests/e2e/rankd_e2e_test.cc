// End to end with the real binaries: rankd on a temp database and a port it
// picks itself (read from its log), driven by rankctl as an association
// would drive it; health and reflection over the wire; SIGTERM; a restart on
// the same database.

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {
namespace {

using testing::RankdOptions;
using testing::RankdProcess;
using testing::ReadFile;
using testing::RunProgram;
using testing::RunResult;

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

class RankdE2eTest : public ::testing::Test {
 protected:
  // Starts rankd and waits (bounded) until it logs its port; then a real
  // command must succeed.
  void StartRankd(const std::string& log_name) {
    log_ = dir_.File(log_name);
    RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.flags = {"--admin-token-file", token_file_};
    options.log_path = log_;
    const std::string error = rankd_.Start(RANKD_PATH, options);
    ASSERT_EQ(error, "");
    ASSERT_TRUE(rankd_.running()) << rankd_.output();
    port_ = rankd_.port();
    ASSERT_GT(port_, 0) << "rankd never logged its port:\n" << ReadFile(log_);
    server_ = "127.0.0.1:" + std::to_string(port_);
    const RunResult r = Ctl({"agency", "list"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  // rankctl --server <rankd> [--token-file F] args...
  RunResult Ctl(std::vector<std::string> args,
                const std::string& token_file = "") {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", server_};
    if (!token_file.empty()) {
      argv.push_back("--token-file");
      argv.push_back(token_file);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram(argv, dir_.File("rankctl" + std::to_string(++calls_)));
  }

  // Stops rankd with SIGTERM; returns its exit code.
  int Stop() { return rankd_.Stop(); }

  testing::TempDir dir_;
  const std::string token_file_ = dir_.File("admin.token");
  RankdProcess rankd_;
  std::string log_;
  int port_ = 0;
  std::string server_;
  int calls_ = 0;
};

TEST_F(RankdE2eTest, RegisterReadSearchTokensStopRestart) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd1.log"));
  const std::string admin_secret = ReadFile(token_file_);
  ASSERT_EQ(admin_secret.rfind("rkd_", 0), 0u) << "no bootstrap token written";

  // Register, then read back: table and JSON.
  RunResult r =
      Ctl({"player", "register", "--name", "张三", "--latin-name", "Zhang San",
           "--gender", "male", "--agency", "110", "--resident-id",
           "44030520080110005X", "--rank", "业余2段", "--rank-basis", "cert 1"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("张三"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2d"), std::string::npos) << r.out;

  r = Ctl({"player", "get", "1"});  // the public
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Zhang San"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2d"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("44030520080110005X"), std::string::npos)
      << "public sees the ID";
  EXPECT_EQ(r.out.find("2008-01-10"), std::string::npos)
      << "public sees the birth date";

  r = Ctl({"player", "get", "1", "--json"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["player"]["id"], "1");  // int64 travels as a string in proto JSON
  EXPECT_EQ(j["player"]["name"], "张三");
  EXPECT_EQ(j["player"]["rank"]["notation"], "2d");
  EXPECT_EQ(j["player"]["resident_id"], "44030520080110005X");
  EXPECT_EQ(j["player"]["birth_date"]["year"], 2008);

  // The public looks whole names up; listing by a prefix needs a token.
  r = Ctl({"player", "search", "--name", "张三"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("张三"), std::string::npos) << r.out;
  EXPECT_EQ(CountLines(r.out), 2) << r.out;  // header + one player
  r = Ctl({"player", "search", "--name", "张"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountLines(r.out), 1) << r.out;  // a prefix is no name: header only
  r = Ctl({"player", "search", "--name", "张"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountLines(r.out), 2) << r.out;

  r = Ctl({"player", "history", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("registration"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cert 1"), std::string::npos) << r.out;

  // Tokens: create an operator, use it, revoke it.
  r = Ctl({"token", "create", "--role", "agency_operator", "--agency", "110",
           "--label", "e2e"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string secret = r.out.substr(r.out.rfind("rkd_"), 68);
  const std::string op_file = dir_.File("op.token");
  { std::ofstream(op_file) << secret << "\n"; }
  r = Ctl({"token", "whoami"}, op_file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("agency_operator of agency 110"), std::string::npos)
      << r.out;
  r = Ctl({"token", "whoami"});
  EXPECT_NE(r.out.find("public"), std::string::npos) << r.out;
  r = Ctl({"token", "list", "--json"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto tokens = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_EQ(tokens["tokens"].size(), 2u) << r.out;
  EXPECT_EQ(r.out.find(secret), std::string::npos) << "a secret was listed";
  const std::string op_id = tokens["tokens"][1]["id"];
  r = Ctl({"token", "revoke", op_id}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("revoked token " + op_id), std::string::npos) << r.out;
  r = Ctl({"token", "whoami"}, op_file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rankctl: UNAUTHENTICATED: ", 0), 0u) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;

  // Refused calls: exit 1 and one line naming the code.
  struct Refused {
    std::vector<std::string> args;
    bool admin;
    const char* code;
  };
  for (const Refused& c : std::vector<Refused>{
           {{"player", "get", "999"}, false, "NOT_FOUND"},
           {{"player", "register", "--name", "x", "--agency", "110"},
            false,
            "UNAUTHENTICATED"},
           {{"player", "register", "--name", "y", "--agency", "110",
             "--resident-id", "44030520080110005X"},
            true,
            "ALREADY_EXISTS"},
           {{"player", "register", "--name", "z", "--agency", "110", "--rank",
             "3x"},
            true,
            "INVALID_ARGUMENT"},
           {{"agency", "suspend", "000", "--reason", "r"},
            true,
            "FAILED_PRECONDITION"},
           {{"rank", "parse", "10p"}, false, "INVALID_ARGUMENT"}}) {
    r = Ctl(c.args, c.admin ? token_file_ : "");
    EXPECT_EQ(r.exit_code, 1)
        << c.args[0] << " " << c.args[1] << ": " << r.out << r.err;
    EXPECT_EQ(r.err.rfind(std::string("rankctl: ") + c.code + ": ", 0), 0u)
        << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // Usage errors: exit 2, nothing sent.
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"player", "get"},
           {"player", "frobnicate"},
           {"player", "register", "--name", "x"},
           {"player", "register", "--name", "x", "--agency", "110", "--gender",
            "robot"},
           {"player", "register", "--name", "x", "--agency", "110",
            "--birth-date", "2008-02-30"},
           {"player", "set-rank", "1", "--rank", "2k", "--reason", "whim",
            "--basis", "b"},
           {"player", "get", "one"},
           {}}) {
    r = Ctl(args, token_file_);
    EXPECT_EQ(r.exit_code, 2)
        << (args.empty() ? "(none)" : args.back()) << ": " << r.err;
  }

  // A clean stop.
  EXPECT_EQ(Stop(), 0);
  EXPECT_NE(ReadFile(log_).find("database closed"), std::string::npos)
      << ReadFile(log_);

  // Restart on the same database: the data is there, no new admin token.
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd2.log"));
  EXPECT_EQ(ReadFile(token_file_), admin_secret);
  EXPECT_EQ(ReadFile(log_).find("national-admin token written"),
            std::string::npos)
      << ReadFile(log_);
  r = Ctl({"player", "get", "1", "--json"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["player"]["name"], "张三");
  r = Ctl({"token", "list", "--json"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["tokens"].size(), 2u) << r.out;
  EXPECT_EQ(Stop(), 0);
}

TEST_F(RankdE2eTest, PageSizeThatIsNotANumberIsAUsageError) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  RunResult r = Ctl({"player", "search", "--page-size", "abc"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Stop(), 0);
}

TEST_F(RankdE2eTest, HealthIsServing) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  {
    auto channel =
        grpc::CreateChannel(server_, grpc::InsecureChannelCredentials());
    auto health = grpc::health::v1::Health::NewStub(channel);
    grpc::health::v1::HealthCheckRequest hreq;
    grpc::health::v1::HealthCheckResponse hresp;
    grpc::ClientContext hctx;
    ASSERT_TRUE(health->Check(&hctx, hreq, &hresp).ok());
    EXPECT_EQ(hresp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  }  // close the connection: an idle open one holds rankd's shutdown for the
     // grace
  EXPECT_EQ(Stop(), 0);
}

TEST_F(RankdE2eTest, ReflectionListsTheServices) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  {
    auto channel =
        grpc::CreateChannel(server_, grpc::InsecureChannelCredentials());
    namespace refl = grpc::reflection::v1alpha;
    auto reflection = refl::ServerReflection::NewStub(channel);
    grpc::ClientContext rctx;
    auto stream = reflection->ServerReflectionInfo(&rctx);
    refl::ServerReflectionRequest req;
    req.set_list_services("");
    ASSERT_TRUE(stream->Write(req));
    refl::ServerReflectionResponse resp;
    ASSERT_TRUE(stream->Read(&resp));
    std::vector<std::string> services;
    for (const auto& s : resp.list_services_response().service())
      services.push_back(s.name());
    for (const char* want :
         {"gorank.v1.PlayerRegistry", "gorank.v1.AgencyService",
          "gorank.v1.TokenService", "gorank.v1.RankService",
          "grpc.health.v1.Health"}) {
      EXPECT_NE(std::find(services.begin(), services.end(), want),
                services.end())
          << want;
    }
    // The schema of a service is there too.
    req.set_file_containing_symbol("gorank.v1.PlayerRegistry");
    ASSERT_TRUE(stream->Write(req));
    ASSERT_TRUE(stream->Read(&resp));
    EXPECT_GT(resp.file_descriptor_response().file_descriptor_proto_size(), 0);
    stream->WritesDone();
    EXPECT_TRUE(stream->Finish().ok());
  }  // close the connection before stopping rankd
  EXPECT_EQ(Stop(), 0);
}

// Gomoku through rankctl: a Gomoku and a Go certificate of one prefix take
// consecutive serials, the output names the discipline, verification shows
// it, the player shows both ranks, and a bad --discipline is a usage error.
TEST_F(RankdE2eTest, GomokuCertificateThroughRankctl) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  RunResult r =
      Ctl({"player", "register", "--name", "张三", "--agency", "000",
           "--gender", "male", "--birth-date", "1990-01-01", "--rank", "1k"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "issue", "--discipline", "gomoku", "--player", "1",
           "--grade", "2d", "--agency", "000", "--reference",
           "Gomoku national final 2026, 3rd"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("gomoku 2d"), std::string::npos) << r.out;
  const size_t at = r.out.find("000");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string gomoku_number = r.out.substr(at, 9);
  EXPECT_EQ(gomoku_number.substr(5), "0001");
  r = Ctl({"cert", "issue", "--player", "1", "--grade", "1d", "--agency", "000",
           "--reference", "Go national final 2026, 5th"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(gomoku_number.substr(0, 5) + "0002"), std::string::npos)
      << r.out;

  r = Ctl({"cert", "verify", gomoku_number, "--name", "张三"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("VALID  " + gomoku_number + "  gomoku 2d", 0), 0u)
      << r.out;

  r = Ctl({"player", "get", "1"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("gomoku 2d"), std::string::npos) << r.out;
  r = Ctl({"player", "history", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("GAME"), std::string::npos) << r.out;

  r = Ctl({"rank", "parse", "--discipline", "gomoku", "五子棋初段"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1d\t五子棋初段\n");
  r = Ctl({"player", "set-rank", "1", "--discipline", "chess", "--rank", "1d",
           "--reason", "award", "--basis", "x"},
          token_file_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Stop(), 0);
}

// `cert verify` answers NOT_VALID (unknown number, or a name that does not
// match) with exit 3, as `check` does for a failing record, also with --json;
// a valid certificate exits 0.
TEST_F(RankdE2eTest, CertVerifyNotValidExitsThree) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  RunResult r =
      Ctl({"player", "register", "--name", "李四", "--agency", "000",
           "--gender", "male", "--birth-date", "1990-01-01", "--rank", "1k"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "issue", "--player", "1", "--grade", "1d", "--agency", "000",
           "--reference", "Go national final 2026, 5th"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("000");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string number = r.out.substr(at, 9);

  r = Ctl({"cert", "verify", number, "--name", "李四"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("VALID  " + number, 0), 0u) << r.out;

  r = Ctl({"cert", "verify", number, "--name", "王五"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "NOT_VALID\n");
  EXPECT_EQ(r.err, "");

  const std::string unknown =
      number.substr(0, 5) + (number.substr(5) == "9999" ? "9998" : "9999");
  r = Ctl({"cert", "verify", unknown, "--name", "李四"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "NOT_VALID\n");

  r = Ctl({"cert", "verify", unknown, "--name", "李四", "--json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("VERIFY_OUTCOME_NOT_VALID"), std::string::npos) << r.out;
  EXPECT_EQ(Stop(), 0);
}

// Objections and awards through rankctl: the public lodges an objection to
// a posted 4d, `cert objections` lists it (id, number, holder, text, state)
// for the national admin, `decide-objection` takes that id; `cert notices`
// shows the basis and the holder's agency; an award without a basis is
// refused (exit 1), with --certificate it is recorded with its basis (the
// annual report's awards: PublicDataPolicyTest).
TEST_F(RankdE2eTest, ObjectionsAndAwardsThroughRankctl) {
  ASSERT_NO_FATAL_FAILURE(StartRankd("rankd.log"));
  RunResult r =
      Ctl({"player", "register", "--name", "赵六", "--agency", "110",
           "--gender", "male", "--birth-date", "1990-01-01", "--rank", "3d"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "issue", "--player", "1", "--grade", "4d", "--agency", "000",
           "--reference", "national final 2026, 2nd"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t at = r.out.find("000");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string number = r.out.substr(at, 9);

  r = Ctl({"cert", "notices"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("national final 2026, 2nd"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(110)"), std::string::npos)
      << r.out;  // the holder's agency

  r = Ctl({"cert", "object", number, "--text", "he did not play", "--contact",
           "tel 1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "objections"});
  EXPECT_EQ(r.exit_code, 1) << "objections need a token";
  r = Ctl({"cert", "objections", "--state", "open"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(number), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("赵六"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("he did not play"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OPEN"), std::string::npos) << r.out;
  r = Ctl({"cert", "objections", "--state", "maybe"}, token_file_);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = Ctl({"cert", "decide-objection", "1", "--verdict", "dismiss", "--note",
           "on record"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "objections", "--state", "dismissed"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("on record"), std::string::npos) << r.out;

  // A 1d of a second player is the basis of an award to 3d.
  r = Ctl({"player", "register", "--name", "孙七", "--agency", "000",
           "--gender", "male", "--birth-date", "1990-01-01", "--rank", "1k"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "issue", "--player", "2", "--grade", "1d", "--agency", "000",
           "--reference", "city open 2026, 1st"},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string one_dan = r.out.substr(r.out.find("000"), 9);
  r = Ctl({"player", "set-rank", "2", "--rank", "3d", "--reason", "award",
           "--basis", "provincial final 2026, 1st"},
          token_file_);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("INVALID_ARGUMENT"), std::string::npos) << r.err;
  r = Ctl({"player", "set-rank", "2", "--rank", "3d", "--reason", "award",
           "--basis", "provincial final 2026, 1st", "--certificate", one_dan},
          token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"player", "history", "2"}, token_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("certificate " + one_dan +
                       " (1d): provincial final 2026, 1st"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Stop(), 0);
}

}  // namespace
}  // namespace gorank::e2e
