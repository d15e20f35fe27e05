#include "services/audit/log_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/audit/encoding.h"
#include "tests/audit/log_fixture.h"

namespace gorank::audit {
namespace {

using ::gorank::audit::testing::FixtureEntries;
using ::gorank::audit::testing::FixtureKey;
using ::gorank::audit::testing::SignedLog;
using ::testing::HasSubstr;

TEST(LogFileTest, WritesTheDocumentedLines) {
  ExportedLog log = SignedLog({"a", "bc"}, {2}, FixtureKey());
  std::ostringstream out;
  ASSERT_TRUE(WriteLogFile(log, out).ok());
  std::string expected =
      "{\"format\":\"gorank-audit-log\",\"version\":1}\n"
      "{\"entry\":\"YQ==\",\"index\":0,\"leaf_hash\":\"" +
      HexEncode(log.entries[0].leaf_hash) +
      "\"}\n"
      "{\"entry\":\"YmM=\",\"index\":1,\"leaf_hash\":\"" +
      HexEncode(log.entries[1].leaf_hash) +
      "\"}\n"
      "{\"checkpoint\":" +
      log.checkpoints[0].ToJson() + "}\n";
  EXPECT_EQ(out.str(), expected);
}

TEST(LogFileTest, RoundTrip) {
  ExportedLog log = SignedLog(FixtureEntries(40), {0, 7, 8, 40}, FixtureKey());
  log.entries[3].leaf_hash.clear();  // leaf hashes are optional
  std::stringstream file;
  ASSERT_TRUE(WriteLogFile(log, file).ok());
  absl::StatusOr<ExportedLog> read = ReadLogFile(file);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, log);
}

TEST(LogFileTest, CheckpointsFollowTheEntryThatCompletesThem) {
  ExportedLog log = SignedLog({"a", "b", "c"}, {1, 3}, FixtureKey());
  std::ostringstream out;
  ASSERT_TRUE(WriteLogFile(log, out).ok());
  std::vector<std::string> kinds;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    kinds.push_back(line.substr(2, line.find('"', 2) - 2));
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"format", "entry", "checkpoint",
                                             "entry", "entry", "checkpoint"}));
}

TEST(LogFileTest, WriterRejectsBadLeafHash) {
  std::ostringstream out;
  LogFileWriter writer(&out);
  EXPECT_EQ(writer.AddEntry("x", "short").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(writer.AddEntry("x").ok());
  EXPECT_EQ(writer.entries_written(), 1);
}

TEST(LogFileTest, ReadErrorsNameTheLine) {
  const std::string header =
      "{\"format\":\"gorank-audit-log\",\"version\":1}\n";
  const std::string e0 = "{\"entry\":\"YQ==\",\"index\":0}\n";
  const std::string e1 = "{\"entry\":\"YQ==\",\"index\":1}\n";
  const std::string e2 = "{\"entry\":\"YQ==\",\"index\":2}\n";
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"empty", "", "no gorank-audit-log header"},
      {"no header", e0, "line 1: the file does not start with"},
      {"other version", "{\"format\":\"gorank-audit-log\",\"version\":2}\n",
       "line 1: header"},
      {"not JSON", header + "{oops\n", "line 2: not a JSON object"},
      {"unknown line", header + "{\"x\":1}\n", "line 2: neither"},
      {"bad base64", header + "{\"entry\":\"Y\",\"index\":0}\n",
       "line 2: entry 0: base64"},
      {"bad leaf hash",
       header + "{\"entry\":\"YQ==\",\"index\":0,\"leaf_hash\":\"00\"}\n",
       "line 2: entry 0: 'leaf_hash' is not 64 hex digits"},
      {"negative index", header + "{\"entry\":\"YQ==\",\"index\":-1}\n",
       "line 2: entry line needs a non-negative integer 'index'"},
      {"missing entry", header + e0 + e2,
       "line 3: entry index 2 where 1 was "
       "expected (entries 1..1 are missing)"},
      {"repeated entry", header + e0 + e1 + e1,
       "line 4: entry index 1 where 2 was expected (entry repeated"},
      {"bad checkpoint", header + "{\"checkpoint\":{\"tree_size\":1}}\n",
       "line 2: checkpoint field"},
  };
  for (const Case& c : cases) {
    std::istringstream in(c.text);
    absl::Status status = ReadLogFile(in).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message)) << c.name;
  }
}

TEST(LogFileTest, MissingFileIsNotFound) {
  EXPECT_EQ(ReadLogFileAt("/nonexistent/audit.jsonl").status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::audit
