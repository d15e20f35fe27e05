// A gtest fixture that starts the real rankd on a fresh database in a temp
// folder (random port, read from its "serving on port N" log line) and runs
// the real rankctl against it with the national-admin token rankd wrote.
// Needs RANKD_PATH and RANKCTL_PATH defined by the test target and
// tests/e2e/process.cc and rankd_instance.cc linked in. rankd is stopped with
// SIGTERM after the test and must exit 0.
#ifndef GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_
#define GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/e2e/process.h"
#include "tests/e2e/rankd_instance.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {

class RankdCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // rankd writes the admin token beside its database: token_file_.
    const std::string error =
        rankd_.Start(RANKD_PATH, dir_.File("rankd.db"), dir_.File("rankd.log"));
    ASSERT_EQ(error, "");
    server_ = rankd_.server();
    started_ = true;
  }

  void TearDown() override {
    if (started_) {
      EXPECT_EQ(rankd_.Stop(), 0);
    }
  }

  // rankctl --server <rankd> [--token-file <admin token>] ARGS...
  RunResult Ctl(std::vector<std::string> args, bool admin = true) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", server_};
    if (admin) {
      argv.push_back("--token-file");
      argv.push_back(token_file_);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return e2e::Run(argv, dir_.File("rankctl" + std::to_string(++calls_)));
  }

  testing::TempDir dir_;
  const std::string token_file_ = dir_.File("admin.token");
  RankdInstance rankd_;
  bool started_ = false;
  std::string server_;
  int calls_ = 0;
};

// RankdCliTest with rankctl's HOME in the temp folder and its connection
// variables unset, so a developer's ~/.config/rankctl (or RANKCTL_*) cannot
// interfere; Write puts a file there.
class IsolatedRankdCliTest : public RankdCliTest {
 protected:
  void SetUp() override {
    setenv("HOME", dir_.path().c_str(), 1);
    for (const char* v : {"XDG_CONFIG_HOME", "RANKCTL_SERVER",
                          "RANKCTL_TOKEN_FILE", "RANKCTL_CA_FILE"}) {
      unsetenv(v);
    }
    RankdCliTest::SetUp();
  }

  // Writes `bytes` to NAME in the temp folder; returns its path.
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
};

inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gorank::e2e

#endif  // GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_
