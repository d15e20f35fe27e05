// rankctl's settings through the real binaries: the config file (default
// ~/.config/rankctl/config.toml or $XDG_CONFIG_HOME's, --config), the
// environment (RANKCTL_SERVER, RANKCTL_TOKEN_FILE, RANKCTL_CA_FILE) over the
// file, flags over both, config errors as usage errors (exit 2); and
// `token create --out FILE`: the secret only in a new 0600 file.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/rankd_process.h"

namespace gorank::e2e {
namespace {

using testing::ReadFile;
using testing::RunProgram;
using testing::RunResult;

// rankd with HOME in the temp folder and RANKCTL_* unset
// (IsolatedRankdCliTest); rankctl is run with the arguments a test gives,
// without --server.
class RankctlConfigTest : public testing::IsolatedRankdCliTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(IsolatedRankdCliTest::SetUp());
    // An operator token, for telling token files apart by `token whoami`.
    const RunResult r =
        Ctl({"--server", server_, "--token-file", Admin(), "token", "create",
             "--role", "agency_operator", "--agency", "110", "--out",
             dir_.File("op.token")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  std::string Admin() const { return dir_.File("admin.token"); }
  RunResult Ctl(std::vector<std::string> args) {
    args.insert(args.begin(), RANKCTL_PATH);
    return RunProgram(args, dir_.File("rankctl" + std::to_string(++calls_)));
  }
  void Write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  // `token whoami` with `args` before it: the role line, or "exit N: stderr".
  std::string WhoAmI(std::vector<std::string> args = {}) {
    args.push_back("token");
    args.push_back("whoami");
    const RunResult r = Ctl(args);
    return r.exit_code == 0
               ? r.out
               : "exit " + std::to_string(r.exit_code) + ": " + r.err;
  }
};

TEST_F(RankctlConfigTest, TheDefaultConfigFileGivesServerAndTokenFile) {
  // Without any setting rankctl tries 127.0.0.1:50051, which is not this rankd.
  ASSERT_EQ(mkdir(dir_.File(".config").c_str(), 0700), 0);
  ASSERT_EQ(mkdir(dir_.File(".config/rankctl").c_str(), 0700), 0);
  Write(dir_.File(".config/rankctl/config.toml"),
        "# the national admin's desk\nserver = \"" + server_ +
            "\"\ntoken_file = \"" + Admin() + "\"\n");
  EXPECT_EQ(WhoAmI(), "national_admin\n");

  // $XDG_CONFIG_HOME wins over ~/.config; a relative token_file is taken from
  // the config file's folder.
  ASSERT_EQ(mkdir(dir_.File("xdg").c_str(), 0700), 0);
  ASSERT_EQ(mkdir(dir_.File("xdg/rankctl").c_str(), 0700), 0);
  Write(dir_.File("xdg/rankctl/config.toml"),
        "server = \"" + server_ + "\"\ntoken_file = \"../../op.token\"\n");
  setenv("XDG_CONFIG_HOME", dir_.File("xdg").c_str(), 1);
  EXPECT_EQ(WhoAmI(), "agency_operator of agency 110\n");
}

TEST_F(RankctlConfigTest, EnvironmentOverridesTheFileAndFlagsOverrideBoth) {
  const std::string config = dir_.File("desk.toml");
  Write(config,
        "server = \"" + server_ + "\"\ntoken_file = \"" + Admin() + "\"\n");
  EXPECT_EQ(WhoAmI({"--config", config}), "national_admin\n");

  setenv("RANKCTL_TOKEN_FILE", dir_.File("op.token").c_str(), 1);
  EXPECT_EQ(WhoAmI({"--config", config}), "agency_operator of agency 110\n");
  EXPECT_EQ(WhoAmI({"--config", config, "--token-file", Admin()}),
            "national_admin\n");
  // Written after the command, as every global flag may be.
  const RunResult after =
      Ctl({"--config", config, "token", "whoami", "--token-file", Admin()});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, "national_admin\n");
  setenv("RANKCTL_TOKEN_FILE", "", 1);  // empty counts as unset
  EXPECT_EQ(WhoAmI({"--config", config}), "national_admin\n");
  unsetenv("RANKCTL_TOKEN_FILE");

  // A server nobody listens on: from the environment over the file, and the
  // flag over the environment.
  setenv("RANKCTL_SERVER", "127.0.0.1:1", 1);
  const std::string refused = WhoAmI({"--config", config, "--timeout", "5"});
  EXPECT_NE(refused.find("exit 1: rankctl: UNAVAILABLE"), std::string::npos)
      << refused;
  EXPECT_NE(refused.find("127.0.0.1:1"), std::string::npos) << refused;
  EXPECT_EQ(WhoAmI({"--config", config, "--server", server_}),
            "national_admin\n");
  unsetenv("RANKCTL_SERVER");

  // The CA file: from the environment (a missing one is a usage error).
  setenv("RANKCTL_CA_FILE", dir_.File("no-ca.pem").c_str(), 1);
  const std::string no_ca = WhoAmI({"--config", config});
  EXPECT_EQ(no_ca.rfind("exit 2: ", 0), 0u) << no_ca;
  EXPECT_NE(no_ca.find("CA file"), std::string::npos) << no_ca;
  EXPECT_NE(no_ca.find("no-ca.pem"), std::string::npos) << no_ca;
}

TEST_F(RankctlConfigTest, ABadConfigFileIsAUsageErrorNamingFileAndKey) {
  const std::string missing = WhoAmI({"--config", dir_.File("nope.toml")});
  EXPECT_EQ(
      missing.rfind("exit 2: rankctl: --config: cannot read config file " +
                        dir_.File("nope.toml"),
                    0),
      0u)
      << missing;

  const std::string typo = dir_.File("typo.toml");
  Write(typo, "server = \"" + server_ + "\"\ntokenfile = \"x\"\n");
  const std::string unknown = WhoAmI({"--config", typo});
  EXPECT_EQ(unknown.rfind("exit 2: ", 0), 0u) << unknown;
  EXPECT_NE(unknown.find("typo.toml: unknown key 'tokenfile'"),
            std::string::npos)
      << unknown;

  const std::string number = dir_.File("number.toml");
  Write(number, "server = 50051\n");
  const std::string not_string = WhoAmI({"--config", number});
  EXPECT_NE(not_string.find("exit 2: rankctl: " + number +
                            ": key 'server' must be a string"),
            std::string::npos)
      << not_string;

  const std::string broken = dir_.File("broken.toml");
  Write(broken, "server = \"" + server_ + "\"\ntoken_file = \"unterminated\n");
  const std::string syntax = WhoAmI({"--config", broken});
  EXPECT_NE(syntax.find("exit 2: rankctl: " + broken + " line 2: "),
            std::string::npos)
      << syntax;

  // A default file that is not there is no error: rankctl uses its defaults.
  const RunResult r = Ctl({"--server", server_, "token", "whoami"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "public\n");
}

TEST_F(RankctlConfigTest, TokenCreateOutWritesTheSecretToANew0600File) {
  const std::string out = dir_.File("audit.token");
  umask(0);  // the file is 0600 whatever the umask
  RunResult r =
      Ctl({"--server", server_, "--token-file", Admin(), "token", "create",
           "--role", "auditor", "--label", "audit 2026", "--out", out});
  umask(022);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(auditor); secret written to " + out + " (mode 0600)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("rkd_"), std::string::npos) << r.out;
  struct stat st {};
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string secret = ReadFile(out);
  EXPECT_EQ(secret.rfind("rkd_", 0), 0u);
  EXPECT_EQ(secret.size(), 4u + 64u + 1u);  // "rkd_", 64 hex digits, newline
  EXPECT_EQ(WhoAmI({"--server", server_, "--token-file", out}), "auditor\n");

  auto token_count = [&] {
    const RunResult list = Ctl({"--server", server_, "--token-file", Admin(),
                                "--json", "token", "list"});
    EXPECT_EQ(list.exit_code, 0) << list.err;
    size_t n = 0;
    for (size_t at = list.out.find("\"id\""); at != std::string::npos;
         at = list.out.find("\"id\"", at + 1)) {
      ++n;
    }
    return n;
  };
  const size_t tokens = token_count();

  // Never over an existing file, and then no token is made.
  r = Ctl({"--server", server_, "--token-file", Admin(), "token", "create",
           "--role", "auditor", "--out", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--out " + out + ": the file exists"), std::string::npos)
      << r.err;
  EXPECT_EQ(ReadFile(out), secret);
  EXPECT_EQ(token_count(), tokens);

  // Refused by the server (an operator makes no tokens): exit 1, no file left.
  const std::string refused = dir_.File("refused.token");
  r = Ctl({"--server", server_, "--token-file", dir_.File("op.token"), "token",
           "create", "--role", "auditor", "--out", refused});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("PERMISSION_DENIED"), std::string::npos) << r.err;
  EXPECT_NE(access(refused.c_str(), F_OK), 0) << "file left behind";

  // --json: the answer without the secret.
  const std::string json_out = dir_.File("json.token");
  r = Ctl({"--server", server_, "--token-file", Admin(), "--json", "token",
           "create", "--role", "auditor", "--out", json_out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("secret"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("rkd_"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ROLE_AUDITOR"), std::string::npos) << r.out;
  EXPECT_EQ(ReadFile(json_out).rfind("rkd_", 0), 0u);
  EXPECT_EQ(StopRankd(), 0);
}

}  // namespace
}  // namespace gorank::e2e
