// End to end: the real rankd binary (temp database, 127.0.0.1:0) and the real
// `rankctl check`, without a token. Readiness: rankd's own log line
// "rankd serving on port N", read from its output (tests/testing).
#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::rules {
namespace {

std::string Go(const std::string& file) {
  return std::string(GORANK_TESTDATA_DIR) + "/go/" + file;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct Result {
  int exit_status = -1;
  std::string out, err;
};

Result Rankctl(const testing::TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), RANKCTL_BIN);
  const testing::RunResult r = testing::RunProgram(args, dir.File("rankctl"));
  return {r.exit_code, r.out, r.err};
}

// A real rankd for one test, stopped with SIGTERM at the end.
class CheckCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.flags = {"--admin-token-file", dir_.File("admin.token")};
    options.timeout = std::chrono::seconds(30);
    const std::string error = rankd_.Start(RANKD_BIN, options);
    if (!error.empty()) {
      ADD_FAILURE() << "rankd did not report its port; output:\n" << error;
    }
  }
  void TearDown() override { rankd_.Stop(); }

  testing::TempDir dir_;
  testing::RankdProcess rankd_;
};

TEST_F(CheckCliTest, AllGoodFilesPrintOkLinesAndExitZero) {
  ASSERT_NE(rankd_.port(), 0);
  Result r = Rankctl(dir_, {"--server", rankd_.address(), "check",
                            Go("snapback.sgf"), Go("handicap_compensation.sgf"),
                            Go("area_seki_two_liberties.sgf")});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0].rfind(Go("snapback.sgf") + "  OK  ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], Go("handicap_compensation.sgf") +
                          "  OK  77 moves, two passes at move 77; count W+1 "
                          "(白胜1/2子); RE agrees");
  EXPECT_EQ(
      lines[2],
      Go("area_seki_two_liberties.sgf") +
          "  OK  2 moves, two passes at move 2; count W+12.5 (白胜6又1/4子); "
          "RE agrees");
  EXPECT_EQ(lines[3], "3 records: 3 ok, 0 failed, 0 malformed");
}

TEST_F(CheckCliTest, AFailingOrMalformedRecordGivesExitThree) {
  ASSERT_NE(rankd_.port(), 0);
  const std::string broken = dir_.File("broken.sgf");
  std::ofstream(broken) << "(;GM[1]FF[4]SZ[9];B[cc]";
  Result r =
      Rankctl(dir_, {"--server", rankd_.address(), "check",
                     Go("capture_not_suicide.sgf"), Go("suicide_single.sgf"),
                     broken, Go("double_move.sgf")});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(lines[0].rfind(Go("capture_not_suicide.sgf") + "  OK  ", 0), 0u)
      << lines[0];
  EXPECT_EQ(lines[1], Go("suicide_single.sgf") +
                          "  FAIL  move 1 B A9 suicide (第5条 禁着点、第19条); "
                          "1 move, unfinished");
  EXPECT_EQ(
      lines[2].rfind(
          broken +
              "  MALFORMED  INVALID_ARGUMENT: malformed SGF at byte offset 23",
          0),
      0u)
      << lines[2];
  EXPECT_NE(lines[3].find("  FAIL  move 4 "), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find("double_move"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4], "4 records: 1 ok, 2 failed, 1 malformed");
}

TEST_F(CheckCliTest, CollectionGamesAndOversizeFilesEachGetALine) {
  ASSERT_NE(rankd_.port(), 0);
  const std::string two = dir_.File("two.sgf"), big = dir_.File("big.sgf"),
                    huge = dir_.File("huge.sgf");
  std::ofstream(two) << "(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9]AW[ba][ab];B[aa])";
  std::ofstream(big) << "(;GM[1]SZ[9];B[ee])" << std::string(2 << 20, ' ');
  std::ofstream(huge) << "(;GM[1]SZ[9];B[ee])" << std::string(5 << 20, ' ');
  Result r =
      Rankctl(dir_, {"--server", rankd_.address(), "check", huge, two, big});
  EXPECT_EQ(r.exit_status, 3) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_EQ(
      lines[0].rfind(
          huge + "  MALFORMED  RESOURCE_EXHAUSTED: file over rankctl's", 0),
      0u)
      << lines[0];
  EXPECT_EQ(lines[1], two + "[0]  OK  1 move, unfinished");
  EXPECT_EQ(lines[2].rfind(two + "[1]  FAIL  move 1 B A9 suicide", 0), 0u)
      << lines[2];
  EXPECT_EQ(
      lines[3],
      big +
          "  MALFORMED  RESOURCE_EXHAUSTED: record of 2097171 bytes is over "
          "the 1048576-byte limit");
  EXPECT_EQ(lines[4], "4 records: 1 ok, 1 failed, 2 malformed");
}

TEST_F(CheckCliTest, VerbosePrintsEveryViolationAndTheResultCheck) {
  ASSERT_NE(rankd_.port(), 0);
  Result r = Rankctl(dir_, {"--server", rankd_.address(), "check", "--verbose",
                            Go("moves_after_two_passes.sgf")});
  EXPECT_EQ(r.exit_status, 3) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_GE(lines.size(), 4u) << r.out;
  EXPECT_NE(lines[0].find("  FAIL  move 4 "), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("    move 4 ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("after_end"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].rfind("    result: ", 0), 0u) << lines[2];
  EXPECT_EQ(lines.back(), "1 records: 0 ok, 1 failed, 0 malformed");
}

TEST_F(CheckCliTest, JsonPrintsOneAnswerPerFileAndASummary) {
  ASSERT_NE(rankd_.port(), 0);
  Result r = Rankctl(
      dir_, {"--server", rankd_.address(), "check",
             Go("ko_immediate_recapture.sgf"), Go("snapback.sgf"), "--json"});
  EXPECT_EQ(r.exit_status, 3) << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  const auto ko = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(ko["record_id"], Go("ko_immediate_recapture.sgf"));
  EXPECT_EQ(ko["reports"][0]["failed"], true);
  EXPECT_EQ(ko["reports"][0]["violations"][0]["kind"],
            "VIOLATION_KIND_KO_RECAPTURE");
  EXPECT_EQ(ko["reports"][0]["violations"][0]["move_number"], 2);
  const auto snap = nlohmann::json::parse(lines[1]);
  EXPECT_FALSE(snap["reports"][0].contains("failed"));  // false is omitted
  EXPECT_EQ(nlohmann::json::parse(lines[2]),
            nlohmann::json(
                {{"records", 2}, {"ok", 1}, {"failed", 1}, {"malformed", 0}}));
}

TEST_F(CheckCliTest, OptionsTravelToTheServer) {
  ASSERT_NE(rankd_.port(), 0);
  // Komi 0.5 instead of KM[7.5]: white's 12.5-point win shrinks to 5.5, and
  // RE[W+12.5] is now contradicted.
  Result r = Rankctl(dir_, {"--server", rankd_.address(), "check", "--komi",
                            "0.5", Go("area_seki_two_liberties.sgf")});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("count W+5.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RE[W+12.5] contradicts"), std::string::npos) << r.out;
}

TEST_F(CheckCliTest, UsageErrorsExitTwoWithoutACall) {
  ASSERT_NE(rankd_.port(), 0);
  Result missing = Rankctl(
      dir_, {"--server", rankd_.address(), "check", dir_.File("nope.sgf")});
  EXPECT_EQ(missing.exit_status, 2);
  EXPECT_NE(missing.err.find("cannot read " + dir_.File("nope.sgf")),
            std::string::npos)
      << missing.err;
  EXPECT_EQ(missing.out, "");
  Result ruleset = Rankctl(dir_, {"--server", rankd_.address(), "check",
                                  "--ruleset", "ing", Go("snapback.sgf")});
  EXPECT_EQ(ruleset.exit_status, 2);
  Result komi = Rankctl(dir_, {"--server", rankd_.address(), "check", "--komi",
                               "7.3", Go("snapback.sgf")});
  EXPECT_EQ(komi.exit_status, 2);
  EXPECT_NE(komi.err.find("--komi"), std::string::npos) << komi.err;
}

TEST_F(CheckCliTest, GomokuRecordsOneLineEachWithForbiddenMoves) {
  ASSERT_NE(rankd_.port(), 0);
  const std::string after = dir_.File("after_five.txt"),
                    foul = dir_.File("double_three.sgf"),
                    bad = dir_.File("bad.txt");
  std::ofstream(after) << "H8 A1 H9 A2 H10 A3 H11 A4 H12 B1\n";
  std::ofstream(foul) << "(;GM[4]SZ[15]RE[W+F];B[hh];W[ao];B[hf];W[am];B[gg];"
                         "W[ak];B[ig];W[ai];B[hg])";
  std::ofstream(bad) << "H8 Q9";
  Result r = Rankctl(dir_, {"--server", rankd_.address(), "check", "--game",
                            "gomoku", after, foul, bad});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0].rfind(after + "  FAIL  move 10 ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("; black wins by five at move 9: H8 H9 H10 H11 H12"),
            std::string::npos)
      << lines[0];
  EXPECT_EQ(lines[1].rfind(foul + "  OK  white wins: black's move 9 is "
                                  "forbidden",
                           0),
            0u)
      << lines[1];
  const std::string forbidden = "; forbidden: move 9 H9 double three (claimed)";
  EXPECT_EQ(lines[1].substr(lines[1].size() - forbidden.size()), forbidden);
  EXPECT_EQ(lines[2].rfind(bad + "  MALFORMED  INVALID_ARGUMENT: move list, "
                                 "move 2 at line 1, column 4",
                           0),
            0u)
      << lines[2];
  EXPECT_EQ(lines[3], "3 records: 1 ok, 1 failed, 1 malformed");

  Result json = Rankctl(dir_, {"--server", rankd_.address(), "check", "--game",
                               "gomoku", "--json", foul});
  EXPECT_EQ(json.exit_status, 0) << json.out << json.err;
  const std::vector<std::string> json_lines = Lines(json.out);
  ASSERT_EQ(json_lines.size(), 2u) << json.out;
  const auto answer = nlohmann::json::parse(json_lines[0]);
  EXPECT_EQ(answer["record_id"], foul);
  EXPECT_EQ(answer["report"]["forbidden_moves"][0]["point"], "H9");
  EXPECT_EQ(answer["report"]["forbidden_moves"][0]["fouls"][0],
            "GOMOKU_FOUL_DOUBLE_THREE");
  EXPECT_EQ(answer["report"]["outcome"]["winner"], "STONE_COLOR_WHITE");
  EXPECT_EQ(nlohmann::json::parse(json_lines[1]),
            nlohmann::json(
                {{"records", 1}, {"ok", 1}, {"failed", 0}, {"malformed", 0}}));
}

TEST(CheckCliNoServerTest, CallFailureExitsOne) {
  testing::TempDir dir;
  // A port nobody listens on: bound by rankd nowhere, refused at once.
  Result r = Rankctl(dir, {"--server", "127.0.0.1:1", "--timeout", "5", "check",
                           Go("snapback.sgf")});
  EXPECT_EQ(r.exit_status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("rankctl: UNAVAILABLE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gorank::rules
