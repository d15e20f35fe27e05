// Perft (the number of leaf nodes of the legal move tree) from the start
// position to depth 5 and from 30 other positions to depth 3, against the
// numbers Fairy-Stockfish 11.1 (Debian package fairy-stockfish, UCI_Variant
// xiangqi, "go perft N") gives: recorded in the table below, and compared
// live with the binary when it is installed (the live test skips with a
// message otherwise). The positions: 22 from seeded random games, 8 built
// to test one rule each (stalemate, mate, facing generals, a cannon check
// over a screen, horse legs, crossed soldiers, elephant eyes, cannon
// screens on a file).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {
namespace {

struct PerftCase {
  const char* fen;
  std::vector<uint64_t> nodes;  // depth 1, 2, 3
};

const std::vector<PerftCase>& Cases() {
  static const std::vector<PerftCase> cases = {
      {"r1ba1abn1/4k4/c7r/p1p1p1pCp/7c1/P7P/RCP1P1P2/9/9/1NBAKAB1R b - - 0 1",
       {45, 1455, 61579}},
      {"rCba1a3/4k4/3cb1n1r/p1p1p1pCp/c8/P3P3P/R1P3P2/9/4K4/1NBA1AB1R w - - 0 "
       "1",
       {42, 1532, 63257}},
      {"1nbakab1r/9/2r1c3n/p1p1p1pc1/9/1CP3P1p/P1C1P3P/R3B4/4K4/1NBA1A1NR b - "
       "- 0 1",
       {35, 1123, 41636}},
      {"1nbakab1r/2r5c/7cn/p1p1p1p2/7R1/2P1P1P1P/P1C6/R3B4/1C7/1NBAKA1N1 w - - "
       "0 1",
       {56, 2205, 114934}},
      {"1nbak2nr/4a4/r7b/p1p1p1p1p/7c1/3c5/P1P1P1PRP/C4K3/9/RNBA1ABN1 b - - 0 "
       "1",
       {52, 1359, 64982}},
      {"1nba1r3/rC2k4/1c3a2b/2p5p/4p1p2/6P2/P1P1P3P/R1N2K3/9/2BA1ABN1 w - - 0 "
       "1",
       {22, 731, 18035}},
      {"2bakabC1/2n6/6n1r/2p1p3p/1rc3p2/p8/P1P1P1P1P/BC5RB/R3K4/1N1A1A3 b - - "
       "0 1",
       {34, 1571, 56892}},
      {"2ba1abCr/4k4/1C4n2/2pn4p/r1P1p1p2/P8/1R2P1P1P/B8/3K5/RN1A1ABc1 w - - 0 "
       "1",
       {43, 1754, 74472}},
      {"2bak1bnr/4a4/n7c/2pr5/p3p1p1p/1C1cP1P1P/P1P6/4B1N1B/4C4/RN1AKA2R b - - "
       "0 1",
       {40, 1630, 67281}},
      {"r1bak2n1/4a4/3Cb3r/7c1/p1p1p1p1p/P3P1B1R/2P3P2/N3B4/R3A4/4KA3 b - - 0 "
       "1",
       {39, 1303, 48709}},
      {"2b1k2n1/4a4/4b1c2/r4C3/2p1p1p2/4P1B2/1pP3P1p/4B4/2R1A4/1R2KA3 w - - 0 "
       "1",
       {36, 1407, 47651}},
      {"rn1a1a2R/4kCc2/7C1/p1p3p1p/2b1p1b2/9/P1P1PcP2/B1N6/R8/3AKAB2 b - - 0 1",
       {27, 1292, 35547}},
      {"3r1ab2/2R5c/n4k3/p1p6/1c4p1p/P4pPR1/N1P1P4/B8/9/3AKAB2 w - - 0 1",
       {34, 1465, 46675}},
      {"3a1a1nr/2n6/2r1bk2b/2p1RC2p/c5p2/p5BcP/2P3P2/4B2C1/4AK2R/1N1A3N1 b - - "
       "0 1",
       {36, 1310, 45804}},
      {"3a1a3/9/3n1kC1b/2p1nC2p/3R3rP/6P2/p1P1r4/B1c2R3/3NAK3/3A3N1 w - - 0 1",
       {48, 2254, 98179}},
      {"1rba1ab2/r3k4/n1c3n2/p1p1p1p2/8P/P1R6/N1P1P2c1/4C2CB/4N4/R1BAKA3 b - - "
       "0 1",
       {45, 1579, 69911}},
      {"r2ak1b2/4a4/n7b/2p2cp1C/6P2/2r1p4/1pP1PR3/2N1B4/4C3R/2BAKA3 w - - 0 1",
       {40, 1327, 54961}},
      {"4kab2/4a4/bc4c1n/2p1pP3/C8/p3P2rC/3Nn3P/4B4/4A4/3K1A1NR b - - 0 1",
       {56, 1740, 90743}},
      {"2bak1b2/4a3n/n8/2p3r2/p3p1p2/1NP1P1r1p/P5c2/3A3R1/C1C1A4/2BK2BN1 b - - "
       "0 1",
       {36, 1299, 49213}},
      {"2bak4/4a2nr/8C/4r4/1P7/PNB3p1c/9/6p2/4A1C2/3K1A3 w - - 0 1",
       {27, 1060, 28360}},
      {"1nba1a3/4k1r2/c7n/p1p6/5C2p/4p2pc/P7r/4B3B/2R6/RN1AKA3 b - - 0 1",
       {48, 2019, 96143}},
      {"1nbaka3/4c4/1P4c2/2p6/1r7/6n2/4p4/3AB2R1/9/1N2KA3 w - - 0 1",
       {22, 1160, 24819}},
      {"3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1", {0, 0, 0}},
      {"3k5/9/3R5/9/9/9/9/9/9/4K4 b - - 0 1", {0, 0, 0}},
      {"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", {1, 2, 5}},
      {"4k4/4a4/9/9/9/9/9/4C4/9/3K5 b - - 0 1", {5, 89, 257}},
      {"3akab2/9/4n4/9/9/9/9/4N4/4A4/3K1A3 w - - 0 1", {10, 100, 1046}},
      {"4k4/9/9/2P1P1P2/9/9/9/9/9/3K5 w - - 0 1", {11, 24, 241}},
      {"2bak4/4a4/4b4/9/9/9/9/4B4/9/2BAK4 w - - 0 1", {7, 55, 419}},
      {"r2k5/9/9/9/c8/9/P8/9/9/4K3R w - - 0 1", {15, 251, 4458}},
  };
  return cases;
}

TEST(XiangqiPerftTest, StartPositionDepthsOneToFour) {
  Position p = Position::Start();
  EXPECT_EQ(p.Perft(1), 44u);
  EXPECT_EQ(p.Perft(2), 1920u);
  EXPECT_EQ(p.Perft(3), 79666u);
  EXPECT_EQ(p.Perft(4), 3290240u);
}

// About 2 s in RelWithDebInfo (80 M nodes/s on one core).
TEST(XiangqiPerftTest, StartPositionDepthFive) {
  Position p = Position::Start();
  EXPECT_EQ(p.Perft(5), 133312995u);
}

TEST(XiangqiPerftTest, ThirtyPositionsToDepthThree) {
  ASSERT_GE(Cases().size(), 20u);
  for (const PerftCase& c : Cases()) {
    absl::StatusOr<Position> p = Position::FromFen(c.fen);
    ASSERT_TRUE(p.ok()) << c.fen << ": " << p.status();
    EXPECT_EQ(p->ToFen(), c.fen);
    for (int d = 1; d <= 3; ++d)
      EXPECT_EQ(p->Perft(d), c.nodes[d - 1]) << c.fen << " depth " << d;
  }
}

// The Fairy-Stockfish binary: $FAIRY_STOCKFISH, else the Debian paths.
// Empty when none is there (or $FAIRY_STOCKFISH names nothing executable).
std::string FindFairyStockfish() {
  if (const char* env = std::getenv("FAIRY_STOCKFISH"))
    return access(env, X_OK) == 0 ? env : "";
  for (const char* path :
       {"/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"})
    if (access(path, X_OK) == 0) return path;
  return "";
}

// Runs one Fairy-Stockfish process over every (fen, depth) pair in order and
// returns the "Nodes searched: N" figures (it answers "go perft" one after
// the other).
std::vector<uint64_t> FairyPerft(
    const std::string& binary,
    const std::vector<std::pair<std::string, int>>& jobs) {
  // One file per process: ctest runs the live tests side by side.
  const std::string input = ::testing::TempDir() + "xiangqi_perft_input." +
                            std::to_string(getpid()) + ".txt";
  {
    std::ofstream in(input);
    in << "uci\nsetoption name UCI_Variant value xiangqi\n";
    for (const auto& [fen, depth] : jobs)
      in << "position fen " << fen << "\ngo perft " << depth << "\n";
    in << "quit\n";
  }
  std::vector<uint64_t> out;
  FILE* p = popen(("'" + binary + "' < '" + input + "' 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char line[4096];
  while (std::fgets(line, sizeof line, p)) {
    unsigned long long n = 0;
    if (std::sscanf(line, "Nodes searched: %llu", &n) == 1) out.push_back(n);
  }
  pclose(p);
  return out;
}

// Depths 1-4 from the start and 1-3 from every other position, live.
TEST(XiangqiPerftTest, AgreesWithFairyStockfishLive) {
  const std::string binary = FindFairyStockfish();
  if (binary.empty())
    GTEST_SKIP()
        << "fairy-stockfish is not installed (apt-get install fairy-stockfish, "
           "or set FAIRY_STOCKFISH): the recorded figures were checked instead";
  std::vector<std::pair<std::string, int>> jobs;
  for (int d = 1; d <= 4; ++d) jobs.emplace_back(kStartFen, d);
  for (const PerftCase& c : Cases())
    for (int d = 1; d <= 3; ++d) jobs.emplace_back(c.fen, d);
  const std::vector<uint64_t> theirs = FairyPerft(binary, jobs);
  ASSERT_EQ(theirs.size(), jobs.size())
      << binary << " did not answer every go perft";
  for (size_t i = 0; i < jobs.size(); ++i) {
    absl::StatusOr<Position> p = Position::FromFen(jobs[i].first);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->Perft(jobs[i].second), theirs[i])
        << jobs[i].first << " depth " << jobs[i].second;
  }
}

// Depth 5 from the start (133,312,995 nodes) costs Fairy-Stockfish 5-15 s of
// one core: a test of its own, so ctest runs it beside the others.
TEST(XiangqiPerftTest, StartDepthFiveAgreesWithFairyStockfishLive) {
  const std::string binary = FindFairyStockfish();
  if (binary.empty())
    GTEST_SKIP()
        << "fairy-stockfish is not installed (apt-get install fairy-stockfish, "
           "or set FAIRY_STOCKFISH): the recorded figure was checked instead";
  const std::vector<uint64_t> theirs = FairyPerft(binary, {{kStartFen, 5}});
  ASSERT_EQ(theirs.size(), 1u) << binary << " did not answer go perft 5";
  absl::StatusOr<Position> p = Position::FromFen(kStartFen);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->Perft(5), theirs[0]);
}

}  // namespace
}  // namespace gorank::rules::xiangqi
