// rankctl's usage errors through the real binary: every integer option or
// argument given something that is not a decimal number in range exits 2 with
// a message naming the flag (std::stoll in option callbacks used to abort
// rankctl, exit 134). No rankd is needed: the errors come before any call, and
// --server points at a socket that does not exist, so a call made by mistake
// fails with exit 1 instead.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {
namespace {

using testing::RunProgram;
using testing::RunResult;

struct UsageCase {
  std::vector<std::string> args;
  std::string flag;  // what the message must name
  std::string bad;   // the offending value, quoted in the message
};

class RankctlUsageTest : public ::testing::TestWithParam<UsageCase> {
 protected:
  testing::TempDir dir_;
};

TEST_P(RankctlUsageTest, ExitsTwoNamingTheFlag) {
  const UsageCase& c = GetParam();
  std::vector<std::string> argv = {RANKCTL_PATH, "--server",
                                   "unix:" + dir_.File("no-rankd.sock")};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  const RunResult r = RunProgram(argv, dir_.File("rankctl"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(c.flag), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.bad), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

const UsageCase kCases[] = {
    // The five invocations of issue #15.
    {{"cert", "issue", "--player", "abc", "--grade", "1d", "--reference", "x"},
     "--player",
     "abc"},
    {{"event", "create", "--rounds", "abc"}, "--rounds", "abc"},
    {{"event", "result", "1", "--round", "x"}, "--round", "'x'"},
    {{"audit", "report", "--agency", "110", "--year", "abc"}, "--year", "abc"},
    {{"cert", "decide-objection", "x", "--verdict", "uphold", "--note", "n"},
     "id",
     "'x'"},
    // Every other integer option and argument that a callback parsed.
    {{"cert", "list", "--player", "12abc"}, "--player", "12abc"},
    {{"cert", "list", "--year", "1.5"}, "--year", "1.5"},
    {{"cert", "export", "--agency", "110", "--year", "x"}, "--year", "'x'"},
    {{"appraisal", "recommend", "--player", "p1", "--grade", "1d"},
     "--player",
     "p1"},
    {{"appraisal", "decide", "x", "--verdict", "approve"}, "id", "'x'"},
    {{"audit", "review", "record", "--agency", "110", "--year", "y",
      "--outcome", "pass", "--findings", "f", "--checkpoint-size", "1"},
     "--year",
     "'y'"},
    {{"audit", "review", "record", "--agency", "110", "--year", "2025",
      "--outcome", "pass", "--findings", "f", "--checkpoint-size", "1e3"},
     "--checkpoint-size",
     "1e3"},
    {{"audit", "review", "list", "--year", "x"}, "--year", "'x'"},
    {{"event", "create", "--cycles", "two"}, "--cycles", "two"},
    {{"event", "create", "--lives", "x"}, "--lives", "'x'"},
    {{"event", "create", "--boards", "x"}, "--boards", "'x'"},
    {{"event", "create", "--best-of", "x"}, "--best-of", "'x'"},
    {{"event", "result", "e1", "--round", "1"}, "event", "e1"},
    {{"player", "search", "--page-size", "many"}, "--page-size", "many"},
    // Typed options: decimal only (CLI11 alone reads 0x1 as hex, 010 as
    // octal, and saturates an int64 overflow), and range-checked.
    {{"player", "get", "0x1"}, "id", "0x1"},
    {{"player", "get", "99999999999999999999"}, "id", "99999999999999999999"},
    {{"player", "get", " 1"}, "id", " 1"},
    {{"cert", "list", "--year", "99999999999"}, "--year", "99999999999"},
    {{"--timeout", "soon", "agency", "list"}, "--timeout", "soon"},
    {{"stock", "order", "--agency", "110", "--year", "20x", "--quantity", "1"},
     "--year",
     "20x"},
    {{"promotion", "evaluate", "--player", "1", "--player", "x"},
     "--player",
     "'x'"},
    {{"rating", "get", "x"}, "player", "'x'"},
    // Numbers inside --bye and --game specs (atoi read garbage as 0).
    {{"event", "result", "1", "--round", "1", "--bye", "abc"}, "--bye", "abc"},
    {{"event", "result", "1", "--round", "1", "--bye", "3:x"}, "--bye", "3:x"},
    {{"event", "result", "1", "--round", "1", "--game", "1-2:b,wbx"},
     "--game",
     "wbx"},
    {{"event", "result", "1", "--round", "1", "--game", "1-2:b,h"},
     "--game",
     "1-2:b,h"},
    {{"event", "result", "1", "--round", "1", "--game", "1-2:b,knan"},
     "--game",
     "knan"},
};

INSTANTIATE_TEST_SUITE_P(BadNumbers, RankctlUsageTest,
                         ::testing::ValuesIn(kCases));

}  // namespace
}  // namespace gorank::e2e
