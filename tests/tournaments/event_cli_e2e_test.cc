// End to end with the real binaries: rankd on a temp database, driven by
// rankctl as an organiser would: create an event, import the shared EGF
// file, read the standings, export it, record a correction, close it, ask
// for grades; a bad file is refused with its line number and nothing stored.
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
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {
namespace {

using gorank::testing::Has;
using gorank::testing::ReadFile;
using gorank::testing::RunResult;

const std::string kEgfFile =
    std::string(GORANK_TESTDATA_DIR) + "/egf/round_robin_forfeits.h9";

using EventCliE2eTest = gorank::testing::RankdCliTest;

TEST_F(EventCliE2eTest, CreateImportStandingsExportCorrectCloseGrade) {
  RunResult r = Ctl({"event",         "create",
                     "--name",        "Test Club Round Robin 2025",
                     "--organiser",   "110",
                     "--start",       "2025-05-01",
                     "--end",         "2025-05-03",
                     "--competition", "club_event",
                     "--level",       "club",
                     "--sub-event",   "open_individual",
                     "--format",      "round_robin",
                     "--time-class",  "B",
                     "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto created = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(created.is_discarded()) << r.out;
  const std::string id = created["event"]["id"].get<std::string>();

  // A broken file: refused whole, with the line, and nothing stored.
  std::string bad = ReadFile(kEgfFile);
  bad.replace(bad.find("5+/w0    6+!b0"), 14, "9+/w0    6+!b0");
  const std::string bad_path = dir_.File("bad.h9");
  std::ofstream(bad_path, std::ios::binary) << bad;
  r = Ctl({"event", "import", bad_path, "--event", id});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "INVALID_ARGUMENT")) << r.err;
  EXPECT_TRUE(Has(r.err, "line 11")) << r.err;
  r = Ctl({"event", "standings", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "Qian Ming")) << r.out;

  // Nobody in the file is registered: refused, the rows listed, until the
  // director says they are guests.
  r = Ctl({"event", "import", kEgfFile, "--event", id, "--format", "egf"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION")) << r.err;
  EXPECT_TRUE(Has(r.err, "6 row(s) not linked") &&
              Has(r.err, "6 Li Wei (unknown)"))
      << r.err;
  r = Ctl({"event", "import", kEgfFile, "--event", id, "--format", "egf",
           "--allow-guests"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "6 players, 15 games")) << r.out;

  r = Ctl({"event", "standings", id}, false);  // the public
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "PLACE")) << r.out;
  EXPECT_LT(r.out.find("Qian Ming"), r.out.find("Wu Fang")) << r.out;
  EXPECT_TRUE(Has(r.out, "14.5")) << r.out;

  r = Ctl({"event", "export", id, "--format", "egf"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "EV[Test Club Round Robin 2025]")) << r.out;
  const std::string exported = dir_.File("export.h9");
  std::ofstream(exported, std::ios::binary) << r.out;
  r = Ctl({"event", "import", exported,
           "--dry-run"});  // a dry run needs a token too
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"event", "export", id, "--format", "csv"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // A correction of round 5 (Zhou Jie - Zhao Lei becomes a win for Zhou Jie,
  // entrant 4 on black against entrant 3), then close.
  r = Ctl({"event", "result", id, "--round", "5", "--game", "3-4:w", "--game",
           "6-1:w!", "--game", "5-2:d"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"event", "result", id, "--round", "5", "--game", "3-4:q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;  // usage: bad result letter
  r = Ctl({"event", "close", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "closed")) << r.out;
  r = Ctl({"event", "get", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "closed")) << r.out;
  r = Ctl({"event", "import", kEgfFile, "--event", id});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION")) << r.err;

  // A club event gives no grade: an answer with a note, not an error.
  r = Ctl({"grade", "event", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"event", "list", "--organiser", "110"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "Test Club Round Robin 2025")) << r.out;
}

TEST_F(EventCliE2eTest, HelpAndUsageErrors) {
  for (const char* sub :
       {"create", "get", "list", "import", "export", "standings", "result",
        "close", "enter", "team", "withdraw", "decide", "entrants"}) {
    RunResult r = Ctl({"event", sub, "--help"}, false);
    EXPECT_EQ(r.exit_code, 0) << sub << r.err;
    EXPECT_TRUE(Has(r.out, "Usage")) << sub << r.out;
  }
  RunResult r = Ctl({"grade", "player", "--help"}, false);
  EXPECT_EQ(r.exit_code, 0);
  r = Ctl({"event", "import", kEgfFile},
          false);  // neither --event nor --dry-run
  EXPECT_EQ(r.exit_code, 2);
  // Usage errors of the entry commands name what is wrong (exit 2).
  for (const auto& [args, says] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"event", "import", kEgfFile, "--event", "1", "--link", "3"},
            "ROW=PLAYER_ID"},
           {{"event", "enter", "1"}, "--player or --guest"},
           {{"event", "enter", "1", "--guest", "Li"}, "FAMILY:GIVEN:RANK"},
           {{"event", "withdraw", "1", "--after-round", "2"},
            "--entrant ID or --team ID"},
           {{"event", "decide", "1"}, "--playoff or --lots"},
           {{"event", "result", "1", "--round", "2"},
            "--game, --bye or --remove"},
           {{"event", "result", "1", "--round", "2", "--remove", "3"},
            "expected A-B"}}) {
    r = Ctl(args, false);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_TRUE(Has(r.err, says)) << r.err;
  }
  r = Ctl({"event", "create", "--name", "x", "--organiser", "110", "--start",
           "2025-01-01", "--level", "galactic", "--sub-event",
           "open_individual"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Has(r.err, "--level")) << r.err;
}

}  // namespace
}  // namespace gorank::e2e
