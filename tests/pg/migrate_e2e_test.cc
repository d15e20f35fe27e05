// Moving a registry between engines with the real binaries (issue #10):
// rankd on SQLite records players, certificates (one revoked), a token and
// a signed checkpoint; `rankd --migrate-to` copies it into an empty
// PostgreSQL schema and from there into a new SQLite file. Both copies carry
// the same registry (the same answers to rankctl, the same fingerprint over
// every row digest and log entry) and a log that verifies against the
// checkpoint kept before the move. rankd then serves on PostgreSQL and goes
// on issuing from the next serial. Runs only in the "pg." runs.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank {
namespace {

using ::testing::HasSubstr;
using testing::RankdOptions;
using testing::RankdProcess;
using testing::RunCombined;
using testing::RunResult;

class EngineMigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::TestOnPostgres())
      GTEST_SKIP() << "needs the PostgreSQL test server";
  }

  std::unique_ptr<RankdProcess> Start(const std::string& db) {
    auto rankd = std::make_unique<RankdProcess>();
    RankdOptions options;
    options.db = db;
    options.flags = {"--log-level",      "info", "--admin-token-file", token_,
                     "--audit-key-file", key_};
    rankd->Start(RANKD_PATH, options);  // port() is 0 when it failed
    EXPECT_GT(rankd->port(), 0) << rankd->output();
    address_ = rankd->address();
    return rankd;
  }

  RunResult Ctl(std::vector<std::string> args, bool admin = true) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", address_};
    if (admin) {
      argv.push_back("--token-file");
      argv.push_back(token_);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCombined(argv);
  }

  // What an association sees of the registry, as JSON.
  std::string Listing() {
    std::string out;
    for (std::vector<std::string> args :
         {std::vector<std::string>{"--json", "cert", "list", "--agency", "110"},
          {"--json", "cert", "list", "--agency", "000"},
          {"--json", "player", "search", "--page-size", "200"},
          {"--json", "token", "list"},
          {"--json", "player", "history", "1"}}) {
      RunResult r = Ctl(args);
      EXPECT_EQ(r.exit_code, 0) << r.out;
      out += r.out + "\n";
    }
    return out;
  }

  // The certificate number in `rankctl cert issue` output.
  static std::string Number(const RunResult& r) {
    const std::string marker = "number";
    const size_t at = r.out.find(marker);
    if (at == std::string::npos) return "";
    const size_t start = r.out.find_first_of("0123456789", at);
    return start == std::string::npos ? "" : r.out.substr(start, 9);
  }

  // The fingerprint `rankd --migrate-to` logs.
  static std::string Fingerprint(const RunResult& r) {
    const std::string marker = "fingerprint ";
    const size_t at = r.out.find(marker);
    return at == std::string::npos ? "" : r.out.substr(at + marker.size(), 64);
  }

  testing::TempDir dir_;
  const std::string token_ = dir_.File("admin.token");
  const std::string key_ = dir_.File("audit_ed25519.pem");
  const std::string old_json_ = dir_.File("old.json");
  std::string address_;
};

TEST_F(EngineMigrationTest, SqliteToPostgresAndBackKeepsTheRegistryAndTheLog) {
  const std::string sqlite = dir_.File("rankd.db");
  std::string before;
  std::vector<std::string>
      numbers;  // issued by the national body, serials 1..3
  {
    auto rankd = Start(sqlite);
    ASSERT_GT(rankd->port(), 0);
    for (const char* name : {"张三", "李四", "王五"}) {
      RunResult r = Ctl({"player", "register", "--name", name, "--agency",
                         "110", "--gender", "male", "--birth-date",
                         "2001-02-03", "--rank", "1k", "--rank-basis", "club"});
      ASSERT_EQ(r.exit_code, 0) << r.out;
    }
    for (const char* player : {"1", "2", "3"}) {
      RunResult r = Ctl({"cert", "issue", "--player", player, "--grade", "1d",
                         "--reference", "city open"});
      ASSERT_EQ(r.exit_code, 0) << r.out;
      numbers.push_back(Number(r));
      ASSERT_EQ(numbers.back().size(), 9u) << r.out;
    }
    RunResult r =
        Ctl({"cert", "revoke", numbers[1], "--reason", "wrong player"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    r = Ctl({"token", "create", "--role", "auditor", "--label",
             "provincial auditor"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    r = Ctl({"audit", "checkpoint", "--out", old_json_});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    before = Listing();
    ASSERT_THAT(before, HasSubstr(numbers[2]));
    ASSERT_EQ(rankd->Stop(), 0);
  }

  const std::string pg = testing::TestDatabaseUrl(dir_);
  RunResult to_pg =
      RunCombined({RANKD_PATH, "--db", sqlite, "--migrate-to", pg});
  ASSERT_EQ(to_pg.exit_code, 0) << to_pg.out;
  const std::string fingerprint = Fingerprint(to_pg);
  ASSERT_EQ(fingerprint.size(), 64u) << to_pg.out;

  // A database that holds anything is refused, and stays as it was.
  RunResult again =
      RunCombined({RANKD_PATH, "--db", sqlite, "--migrate-to", pg});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.out, HasSubstr("not empty"));

  // Export again, PostgreSQL -> a new SQLite file: the same fingerprint.
  const std::string back = dir_.File("back.db");
  RunResult to_sqlite =
      RunCombined({RANKD_PATH, "--db", pg, "--migrate-to", back});
  ASSERT_EQ(to_sqlite.exit_code, 0) << to_sqlite.out;
  EXPECT_EQ(Fingerprint(to_sqlite), fingerprint);
  // An existing file is never overwritten.
  RunResult onto_file =
      RunCombined({RANKD_PATH, "--db", pg, "--migrate-to", back});
  EXPECT_EQ(onto_file.exit_code, 1);
  EXPECT_THAT(onto_file.out, HasSubstr("exists"));

  for (const std::string& db : {pg, back}) {
    SCOPED_TRACE(db);
    auto rankd = Start(db);
    ASSERT_GT(rankd->port(), 0);
    RunResult v = Ctl({"audit", "verify", "--checkpoint", old_json_});
    EXPECT_EQ(v.exit_code, 0) << v.out;
    EXPECT_THAT(v.out, HasSubstr("consistent with the trusted checkpoint"));
    EXPECT_EQ(Listing(), before);
    EXPECT_EQ(rankd->Stop(), 0);
  }

  // rankd goes on on PostgreSQL: the next serial, a log that still verifies.
  auto rankd = Start(pg);
  ASSERT_GT(rankd->port(), 0);
  RunResult next = Ctl({"cert", "issue", "--player", "2", "--grade", "1d",
                        "--reference", "city open"});
  ASSERT_EQ(next.exit_code, 0) << next.out;
  EXPECT_EQ(Number(next), numbers[0].substr(0, 5) + "0004");
  RunResult v = Ctl({"audit", "verify", "--checkpoint", old_json_});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_EQ(rankd->Stop(), 0);
}

}  // namespace
}  // namespace gorank
