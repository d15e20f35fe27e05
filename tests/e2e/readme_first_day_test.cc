// README's "First day" section, run as written: every code block of the
// section (indented or fenced) is taken from README.md, in order, and run in
// one `bash -e` from a fresh folder laid out like the clone after
// `deploy/setup.sh run` (build/services/cli/rankctl, data/rankd.db with its
// admin token beside it), with HOME in that folder, against the real rankd.
// Only the two default addresses are swapped for the ports rankd picked.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
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

// The text of the section headed `heading` ("## First day"), up to the next
// "## " heading; "" when there is none.
std::string Section(const std::string& markdown, const std::string& heading) {
  const size_t start = markdown.find("\n" + heading + "\n");
  if (start == std::string::npos) return "";
  const size_t end = markdown.find("\n## ", start + 1);
  return markdown.substr(
      start + 1, end == std::string::npos ? std::string::npos : end - start);
}

// The shell code of `section`: fenced blocks and blocks indented by four
// spaces (after a blank line), in order, the indentation removed.
std::string CodeBlocks(const std::string& section) {
  std::istringstream in(section);
  std::string line, code;
  bool fenced = false, indented = false, after_blank = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      code += line + "\n";
    } else if (line.rfind("    ", 0) == 0 && (indented || after_blank)) {
      indented = true;
      code += line.substr(4) + "\n";
    } else {
      indented = indented && line.empty();
    }
    after_blank = line.empty();
  }
  return code;
}

void ReplaceAll(std::string* s, const std::string& from,
                const std::string& to) {
  for (size_t at = s->find(from); at != std::string::npos;
       at = s->find(from, at + to.size())) {
    s->replace(at, from.size(), to);
  }
}

// The clone's layout after `deploy/setup.sh run`: rankd on data/rankd.db
// (its admin token beside it), rankctl in build/services/cli; HOME in the
// temp folder (IsolatedRankdCliTest).
class ReadmeFirstDayTest : public testing::IsolatedRankdCliTest {
 protected:
  void SetUp() override {
    db_file_ = "data/rankd.db";
    ASSERT_EQ(mkdir(dir_.File("data").c_str(), 0700), 0);
    ASSERT_EQ(mkdir(dir_.File("build").c_str(), 0700), 0);
    ASSERT_EQ(mkdir(dir_.File("build/services").c_str(), 0700), 0);
    ASSERT_EQ(mkdir(dir_.File("build/services/cli").c_str(), 0700), 0);
    ASSERT_EQ(
        symlink(RANKCTL_PATH, dir_.File("build/services/cli/rankctl").c_str()),
        0);
    IsolatedRankdCliTest::SetUp();
  }
};

TEST_F(ReadmeFirstDayTest, TheSectionsCommandsRunAsWritten) {
  const std::string readme = ReadFile(GORANK_README);
  const std::string section = Section(readme, "## First day");
  ASSERT_FALSE(section.empty()) << "README.md has no \"## First day\" section";
  std::string code = CodeBlocks(section);
  ASSERT_NE(code.find("rankctl"), std::string::npos) << "no commands found:\n"
                                                     << section;
  // The section's defaults, which the test cannot take (ports are shared).
  ASSERT_NE(code.find("127.0.0.1:50051"), std::string::npos) << code;
  ASSERT_NE(code.find("127.0.0.1:8080"), std::string::npos) << code;

  ASSERT_TRUE(started_) << rankd_.output();
  ReplaceAll(&code, "127.0.0.1:50051", server_);
  ReplaceAll(&code, "127.0.0.1:8080",
             "127.0.0.1:" + std::to_string(rankd_.http_port()));

  const std::string script = dir_.File("first_day.sh");
  std::ofstream(script) << "set -euo pipefail\ncd '" << dir_.path() << "'\n"
                        << code;
  const RunResult r =
      RunProgram({"/bin/bash", "-x", script}, dir_.File("first_day"));
  const std::string shown =
      "script:\n" + code + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
  ASSERT_EQ(r.exit_code, 0) << shown;

  // Key lines of each step.
  EXPECT_NE(r.out.find("national_admin\n"), std::string::npos) << shown;
  EXPECT_NE(r.out.find("secret written to beijing.token (mode 0600)"),
            std::string::npos)
      << shown;
  EXPECT_NE(r.out.find("agency_operator of agency 110"), std::string::npos)
      << shown;
  EXPECT_NE(r.out.find("张三"), std::string::npos) << shown;
  // The players come from a file: a dry run, the import, and a second run
  // that matches both rows and changes nothing.
  EXPECT_NE(
      r.out.find("added 2, matched 0, refused 0: dry run, nothing stored"),
      std::string::npos)
      << shown;
  EXPECT_NE(r.out.find("added 2, matched 0, refused 0: stored"),
            std::string::npos)
      << shown;
  EXPECT_NE(r.out.find("added 0, matched 2, refused 0: nothing changed"),
            std::string::npos)
      << shown;
  EXPECT_NE(r.out.find("released"), std::string::npos) << shown;
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(r.out, m, std::regex("VALID  110([0-9]{2})0001  1d")))
      << shown;
  const std::string yy = m[1];
  EXPECT_NE(r.out.find("000" + yy + "0001"), std::string::npos) << shown;
  EXPECT_NE(r.out.find("\"outcome\":\"VERIFY_OUTCOME_UNDER_NOTICE\""),
            std::string::npos)
      << shown;
  EXPECT_EQ(r.out.find("rkd_"), std::string::npos)
      << "a secret on the terminal:\n"
      << shown;

  // The token files: 0600, one secret each.
  for (const char* name : {"beijing.token", "auditor.token"}) {
    struct stat st {};
    ASSERT_EQ(stat(dir_.File(name).c_str(), &st), 0) << name;
    EXPECT_EQ(st.st_mode & 0777, 0600u) << name;
    EXPECT_EQ(ReadFile(dir_.File(name)).rfind("rkd_", 0), 0u) << name;
  }
  EXPECT_EQ(StopRankd(), 0);
}

}  // namespace
}  // namespace gorank::e2e
