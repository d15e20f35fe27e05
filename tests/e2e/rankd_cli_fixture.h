// A gtest fixture that starts the real rankd on a fresh database in a temp
// folder (random port, read from its "serving on port N" log line) and runs
// the real rankctl against it with the national-admin token rankd wrote.
// Needs RANKD_PATH and RANKCTL_PATH defined by the test target and
// tests/e2e/process.cc linked in. rankd is stopped with SIGTERM after the
// test and must exit 0.
#ifndef GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_
#define GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/e2e/process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {

class RankdCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rankd_ = std::make_unique<Child>(
        std::vector<std::string>{RANKD_PATH, "--db", dir_.File("rankd.db"), "--listen",
                                 "127.0.0.1:0", "--admin-token-file", token_file_},
        dir_.File("rankd.log"));
    ASSERT_TRUE(rankd_->started());
    const std::string marker = "serving on port ";
    int port = 0;
    // Bounded poll of the log (10 s at most) for the line rankd writes once
    // it listens.
    for (int attempt = 0; attempt < 500 && port == 0; ++attempt) {
      const std::string log = ReadFile(dir_.File("rankd.log"));
      const size_t at = log.find(marker);
      if (at != std::string::npos) port = std::atoi(log.c_str() + at + marker.size());
      if (port == 0) {
        ASSERT_TRUE(rankd_->running()) << "rankd exited:\n" << log;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    ASSERT_GT(port, 0) << ReadFile(dir_.File("rankd.log"));
    server_ = "127.0.0.1:" + std::to_string(port);
  }

  void TearDown() override {
    if (rankd_ && rankd_->running()) {
      rankd_->Signal(SIGTERM);
      EXPECT_EQ(rankd_->Wait(), 0);
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
  std::unique_ptr<Child> rankd_;
  std::string server_;
  int calls_ = 0;
};

inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gorank::e2e

#endif  // GORANK_TESTS_E2E_RANKD_CLI_FIXTURE_H_
