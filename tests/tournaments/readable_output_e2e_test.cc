// Issue #16 section 6 with the real rankd and rankctl: Swiss totals print
// as a mixed number or decimal (never "19/3"), Chinese names without an
// inserted space, the result letter in either case, white-first score
// sheets with --white-first, EGF rows with no game in the last rounds warn
// and take --withdrawn, times with their zone (--time-zone, default
// Asia/Shanghai; an unknown zone is a usage error).
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {
namespace {

using gorank::testing::Has;
using gorank::testing::RunResult;

using ReadableOutputE2eTest = gorank::testing::RankdCliTest;

// A Swiss of 3 rounds from an EGF file: 王小明 (row 1) beats 2 and 3 and
// has a bye; row 5 has no game after round 1.
const char kSwiss[] =
    "; EV[Readable Swiss]\n"
    ";\n"
    "; Pl Name Rk Co Club\n"
    "1 王 小明 1d CN Bj 2+/w0 3+/b0 0+\n"
    "2 Li Wei 1d CN Bj 1-/b0 0+ 3+/b0\n"
    "3 Zhao Gang 1d CN Bj 4+/w0 1-/w0 2-/w0\n"
    "4 Sun Li 1d CN Bj 3-/b0 5+/b0 0+\n"
    "5 Qian Hu 1d CN Bj 0+ 4-/w0 0-\n";

TEST_F(ReadableOutputE2eTest, StandingsNamesResultsAndTimesReadWell) {
  RunResult r =
      Ctl({"event", "create", "--name", "Readable Swiss", "--organiser", "110",
           "--start", "2025-05-01", "--competition", "club_event", "--level",
           "club", "--sub-event", "open_individual", "--format", "swiss",
           "--rounds", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto created = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(created.is_discarded()) << r.out;
  const std::string id = created["event"]["id"].get<std::string>();
  const std::string file = dir_.File("swiss.h9");
  std::ofstream(file, std::ios::binary) << kSwiss;

  r = Ctl({"event", "import", file, "--event", id, "--allow-guests"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(
      r.out,
      "warning: line 8, row 5 (Qian Hu): no game over the board in round 3"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "--withdrawn 5=2")) << r.out;
  r = Ctl({"event", "import", file, "--event", id, "--allow-guests",
           "--withdrawn", "5=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "warning:")) << r.out;
  r = Ctl({"event", "import", file, "--event", id, "--allow-guests",
           "--withdrawn", "5"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "expected ROW=ROUND")) << r.err;

  r = Ctl({"event", "standings", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "王小明")) << r.out;
  EXPECT_FALSE(Has(r.out, "王 小明")) << r.out;
  EXPECT_TRUE(Has(r.out, "withdrew after round 2")) << r.out;
  // SOS over R = 3 rounds gives thirds: a mixed number, never "19/3".
  EXPECT_TRUE(Has(r.out, " 1/3") || Has(r.out, " 2/3")) << r.out;
  for (const char* improper :
       {"/3 ", "4/3", "5/3", "7/3", "8/3", "10/3", "11/3", "13/3", "14/3",
        "16/3", "17/3", "19/3", "20/3"}) {
    EXPECT_FALSE(Has(r.out, std::string(" ") + improper)) << improper << "\n"
                                                          << r.out;
  }

  // The result letter in either case; white-first sheets.
  r = Ctl({"event", "result", id, "--round", "1", "--game", "1-2:B"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"event", "result", id, "--round", "1", "--game", "2-1:W",
           "--white-first"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // "2-1:W" white first: 2 is white, 1 black, and white (2) won.
  r = Ctl({"event", "export", id, "--format", "csv"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "\n1,王,小明,1d,CN,Bj,,,,2-/b0,")) << r.out;
  EXPECT_TRUE(Has(r.out, "\n2,Li,Wei,1d,CN,Bj,,,,1+/w0,")) << r.out;
  r = Ctl({"event", "result", id, "--round", "1", "--game", "1-2:q"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Has(r.err, "b (black wins), w (white wins)")) << r.err;

  // Times carry their zone; an unknown zone is refused, not taken as UTC.
  r = Ctl({"cert", "notices"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "NOTICE ENDS")) << r.out;
  EXPECT_FALSE(Has(r.out, "(UTC)")) << r.out;
  r = Ctl({"--time-zone", "Mars/Olympus", "event", "standings", id}, false);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Has(r.err, "not a time zone")) << r.err;
  r = Ctl({"--time-zone", "UTC", "event", "standings", id}, false);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace gorank::e2e
