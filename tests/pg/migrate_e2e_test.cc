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
#include "tests/audit/rankd_process.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank {
namespace {

using audit::CommandResult;
using audit::RankdProcess;
using audit::RunCommand;
using ::testing::HasSubstr;

class EngineMigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::TestOnPostgres())
      GTEST_SKIP() << "needs the PostgreSQL test server";
  }

  std::unique_ptr<RankdProcess> Start(const std::string& db) {
    auto rankd = std::make_unique<RankdProcess>(
        RANKD_PATH, db, 30,
        std::vector<std::string>{"--admin-token-file", token_,
                                 "--audit-key-file", key_});
    EXPECT_GT(rankd->port(), 0) << rankd->output();
    address_ = rankd->address();
    return rankd;
  }

  CommandResult Ctl(std::vector<std::string> args, bool admin = true) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", address_};
    if (admin) {
      argv.push_back("--token-file");
      argv.push_back(token_);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCommand(argv);
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
      CommandResult r = Ctl(args);
      EXPECT_EQ(r.exit_code, 0) << r.output;
      out += r.output + "\n";
    }
    return out;
  }

  // The certificate number in `rankctl cert issue` output.
  static std::string Number(const CommandResult& r) {
    const std::string marker = "number";
    const size_t at = r.output.find(marker);
    if (at == std::string::npos) return "";
    const size_t start = r.output.find_first_of("0123456789", at);
    return start == std::string::npos ? "" : r.output.substr(start, 9);
  }

  // The fingerprint `rankd --migrate-to` logs.
  static std::string Fingerprint(const CommandResult& r) {
    const std::string marker = "fingerprint ";
    const size_t at = r.output.find(marker);
    return at == std::string::npos ? ""
                                   : r.output.substr(at + marker.size(), 64);
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
      CommandResult r =
          Ctl({"player", "register", "--name", name, "--agency", "110",
               "--gender", "male", "--birth-date", "2001-02-03", "--rank", "1k",
               "--rank-basis", "club"});
      ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    for (const char* player : {"1", "2", "3"}) {
      CommandResult r = Ctl({"cert", "issue", "--player", player, "--grade",
                             "1d", "--reference", "city open"});
      ASSERT_EQ(r.exit_code, 0) << r.output;
      numbers.push_back(Number(r));
      ASSERT_EQ(numbers.back().size(), 9u) << r.output;
    }
    CommandResult r =
        Ctl({"cert", "revoke", numbers[1], "--reason", "wrong player"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = Ctl({"token", "create", "--role", "auditor", "--label",
             "provincial auditor"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = Ctl({"audit", "checkpoint", "--out", old_json_});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    before = Listing();
    ASSERT_THAT(before, HasSubstr(numbers[2]));
    ASSERT_EQ(rankd->Stop(), 0);
  }

  const std::string pg = testing::TestDatabaseUrl(dir_);
  CommandResult to_pg =
      RunCommand({RANKD_PATH, "--db", sqlite, "--migrate-to", pg});
  ASSERT_EQ(to_pg.exit_code, 0) << to_pg.output;
  const std::string fingerprint = Fingerprint(to_pg);
  ASSERT_EQ(fingerprint.size(), 64u) << to_pg.output;

  // A database that holds anything is refused, and stays as it was.
  CommandResult again =
      RunCommand({RANKD_PATH, "--db", sqlite, "--migrate-to", pg});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.output, HasSubstr("not empty"));

  // Export again, PostgreSQL -> a new SQLite file: the same fingerprint.
  const std::string back = dir_.File("back.db");
  CommandResult to_sqlite =
      RunCommand({RANKD_PATH, "--db", pg, "--migrate-to", back});
  ASSERT_EQ(to_sqlite.exit_code, 0) << to_sqlite.output;
  EXPECT_EQ(Fingerprint(to_sqlite), fingerprint);
  // An existing file is never overwritten.
  CommandResult onto_file =
      RunCommand({RANKD_PATH, "--db", pg, "--migrate-to", back});
  EXPECT_EQ(onto_file.exit_code, 1);
  EXPECT_THAT(onto_file.output, HasSubstr("exists"));

  for (const std::string& db : {pg, back}) {
    SCOPED_TRACE(db);
    auto rankd = Start(db);
    ASSERT_GT(rankd->port(), 0);
    CommandResult v = Ctl({"audit", "verify", "--checkpoint", old_json_});
    EXPECT_EQ(v.exit_code, 0) << v.output;
    EXPECT_THAT(v.output, HasSubstr("consistent with the trusted checkpoint"));
    EXPECT_EQ(Listing(), before);
    EXPECT_EQ(rankd->Stop(), 0);
  }

  // rankd goes on on PostgreSQL: the next serial, a log that still verifies.
  auto rankd = Start(pg);
  ASSERT_GT(rankd->port(), 0);
  CommandResult next = Ctl({"cert", "issue", "--player", "2", "--grade", "1d",
                            "--reference", "city open"});
  ASSERT_EQ(next.exit_code, 0) << next.output;
  EXPECT_EQ(Number(next), numbers[0].substr(0, 5) + "0004");
  CommandResult v = Ctl({"audit", "verify", "--checkpoint", old_json_});
  EXPECT_EQ(v.exit_code, 0) << v.output;
  EXPECT_EQ(rankd->Stop(), 0);
}

}  // namespace
}  // namespace gorank
