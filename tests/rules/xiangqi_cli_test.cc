// End to end: the real rankd binary (temp database, 127.0.0.1:0) and the real
// `rankctl check --game xiangqi`, without a token: the table lines, the exit
// statuses (0 all pass, 3 any fails, needs an arbiter, or is malformed) and
// the --json answer naming the move, its notation and the rule.
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

class XiangqiCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.timeout = std::chrono::seconds(30);
    rankd_.Start(RANKD_BIN, options);
    port_ = rankd_.port();
    ASSERT_NE(port_, 0) << rankd_.output();
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string Server() const { return "127.0.0.1:" + std::to_string(port_); }

  testing::TempDir dir_;
  testing::RankdProcess rankd_;
  int port_ = 0;
};

constexpr char kMate[] =
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n"
    "[FEN \"3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1\"]\n1. 车九平六 1-0\n";
constexpr char kOpening[] =
    "[Format \"Chinese\"]\n1. 炮二平五 马８进７ 2. 马二进三 *\n";
constexpr char kHorseLeg[] = "1. C2.5 H8+7 2. H8+6 *\n";

TEST_F(XiangqiCliTest, GoodFilesPassWithExitZero) {
  const std::string mate = Write("mate.pgn", kMate),
                    opening = Write("opening.pgn", kOpening);
  const Result r = Rankctl(dir_, {"--server", Server(), "check", "--game",
                                  "xiangqi", mate, opening});
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0],
            mate + "  OK  red wins: black is checkmated after move 1");
  EXPECT_EQ(lines[1], opening + "  OK  unfinished after 3 moves");
  EXPECT_EQ(lines[2], "2 records: 2 ok, 0 failed, 0 malformed");
}

TEST_F(XiangqiCliTest, IllegalArbiterAndMalformedGiveExitThree) {
  const std::string leg = Write("leg.pgn", kHorseLeg);
  const std::string chase =
      Write("chase.pgn",
            "[FEN \"7R1/4k4/1n7/9/9/9/9/r8/9/3K5 w - - 0 1\"]\n"
            "1. h9h7 b7a9 2. h7h9 a9b7 3. h9h7 b7a9 4. h7h9 a9b7 *\n");
  const std::string broken = Write("broken.pgn", "[Red \"A\n");
  const Result r = Rankctl(dir_, {"--server", Server(), "check", "--game",
                                  "xiangqi", leg, chase, broken});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(
      lines[0],
      leg +
          "  FAIL  move 3 (red) H8+6 (WXF): b0d1: the horse is blocked at "
          "the leg (蹩马腿) [illegal move, horse leg]; replay stopped at move "
          "3");
  EXPECT_EQ(lines[1].rfind(
                chase + "  ARBITER  needs an arbiter: moves 1-8 repeat", 0),
            0u)
      << lines[1];
  EXPECT_EQ(lines[2].rfind(
                broken + "  MALFORMED  INVALID_ARGUMENT: tag at line 1", 0),
            0u)
      << lines[2];
  EXPECT_EQ(lines[3],
            "3 records: 0 ok, 2 failed, 1 malformed (1 of the failed need an "
            "arbiter)");
}

TEST_F(XiangqiCliTest, JsonNamesTheMoveNotationAndRule) {
  const std::string leg = Write("leg.pgn", kHorseLeg);
  const Result r = Rankctl(dir_, {"--server", Server(), "check", "--game",
                                  "xiangqi", "--json", leg});
  EXPECT_EQ(r.exit_status, 3) << r.out << r.err;
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  const nlohmann::json answer = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(answer["record_id"], leg);
  const nlohmann::json& v = answer["report"]["games"][0]["violations"][0];
  EXPECT_EQ(v["move_number"], 3);
  EXPECT_EQ(v["notation"], "H8+6");
  EXPECT_EQ(v["kind"], "XIANGQI_VIOLATION_KIND_ILLEGAL_MOVE");
  EXPECT_EQ(v["rule"], "XIANGQI_RULE_HORSE_LEG");
  EXPECT_EQ(v["side"], "XIANGQI_SIDE_RED");
  const nlohmann::json summary = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(summary["failed"], 1);
}

}  // namespace
}  // namespace gorank::rules
