// GoogleTest fixtures that start the real rankd on a fresh database in a temp
// folder (gRPC and the public web page on ports it picks itself, read from
// its log lines as they arrive) and run the real rankctl against it with the
// national-admin token rankd wrote beside its database. The test target
// defines RANKD_PATH and RANKCTL_PATH and links testing_process. rankd is
// stopped with SIGTERM after the test and must exit 0.
#ifndef GORANK_TESTS_TESTING_RANKD_CLI_FIXTURE_H_
#define GORANK_TESTS_TESTING_RANKD_CLI_FIXTURE_H_

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::testing {

class RankdCliTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(StartRankd(), ""); }

  void TearDown() override {
    if (started_) {
      EXPECT_EQ(rankd_.Stop(), 0) << rankd_.output();
    }
  }

  // Starts rankd on `db_file_` in the temp folder (again after a Stop),
  // logging to `log_name` there; "" once it serves, else why.
  std::string StartRankd(const std::string& log_name = "rankd.log") {
    RankdOptions options;
    options.db = dir_.File(db_file_);
    options.web = true;
    options.log_path = dir_.File(log_name);
    const std::string error = rankd_.Start(RANKD_PATH, options);
    started_ = error.empty();
    server_ = rankd_.address();
    return error;
  }

  // SIGTERM; rankd's exit code. TearDown then leaves it alone.
  int StopRankd() {
    started_ = false;
    return rankd_.Stop();
  }

  // rankctl --server <rankd> [--token-file <admin token>] ARGS...
  RunResult Ctl(std::vector<std::string> args, bool admin = true) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", server_};
    if (admin) {
      argv.push_back("--token-file");
      argv.push_back(token_file_);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram(argv, dir_.File("rankctl" + std::to_string(++calls_)));
  }

  TempDir dir_;
  // The database, relative to the temp folder; rankd writes the admin token
  // beside it (admin.token), as `deploy/setup.sh run` does.
  std::string db_file_ = "rankd.db";
  const std::string token_file_ = dir_.File("admin.token");
  RankdProcess rankd_;
  bool started_ = false;
  std::string server_;
  int calls_ = 0;
};

// RankdCliTest with HOME in the temp folder and rankctl's connection
// variables unset for the test (restored after it), so a developer's
// ~/.config/rankctl (or RANKCTL_*) cannot interfere; Write puts a file there.
class IsolatedRankdCliTest : public RankdCliTest {
 protected:
  void SetUp() override {
    for (const char* v : kVariables) {
      const char* value = std::getenv(v);
      saved_.emplace_back(
          v, value ? std::optional<std::string>(value) : std::nullopt);
      unsetenv(v);
    }
    setenv("HOME", dir_.path().c_str(), 1);
    RankdCliTest::SetUp();
  }

  void TearDown() override {
    RankdCliTest::TearDown();
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name.c_str(), value->c_str(), 1);
      } else {
        unsetenv(name.c_str());
      }
    }
  }

  // Writes `bytes` to NAME in the temp folder; returns its path.
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

 private:
  static constexpr const char* kVariables[] = {
      "HOME", "XDG_CONFIG_HOME", "RANKCTL_SERVER", "RANKCTL_TOKEN_FILE",
      "RANKCTL_CA_FILE"};
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_RANKD_CLI_FIXTURE_H_
