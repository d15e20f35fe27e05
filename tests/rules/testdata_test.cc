// Every record of the shared test data (testdata/go/) against expected.tsv.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/rules/go/check.h"

namespace gorank::rules::go {
namespace {

struct Expectation {
  std::string file;
  std::string ruleset;
  std::string violations;  // "1:suicide,4:ko" or "-"
  std::string end;         // move number or "-"
  std::string result;      // "W+12.5" or "-"
};

std::string Dir() { return std::string(GORANK_TESTDATA_DIR) + "/go/"; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Expectation> LoadExpectations() {
  std::vector<Expectation> out;
  std::istringstream lines(ReadFile(Dir() + "expected.tsv"));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) cols.push_back(field);
    if (cols.size() != 5) continue;
    out.push_back({cols[0], cols[1], cols[2], cols[3], cols[4]});
  }
  return out;
}

std::string ViolationList(const GameReport& report) {
  std::string out;
  for (const Violation& v : report.violations) {
    if (!out.empty()) out += ",";
    out += std::to_string(v.move_number) + ":" + ViolationName(v.kind);
  }
  return out.empty() ? "-" : out;
}

class SharedTestdata : public testing::TestWithParam<Expectation> {};

TEST_P(SharedTestdata, MatchesExpectedTsv) {
  const Expectation& e = GetParam();
  ASSERT_EQ(e.ruleset, "chinese");
  std::string bytes = ReadFile(Dir() + e.file);
  ASSERT_FALSE(bytes.empty()) << e.file;
  absl::StatusOr<std::vector<GameReport>> reports =
      CheckRecords(bytes, CheckOptions());
  ASSERT_TRUE(reports.ok()) << reports.status();
  ASSERT_EQ(reports->size(), 1u);
  const GameReport& r = reports->front();
  EXPECT_EQ(ViolationList(r), e.violations);
  if (e.end == "-") {
    EXPECT_EQ(r.end, GameEnd::kUnfinished) << GameEndName(r.end);
  } else {
    EXPECT_EQ(r.end, GameEnd::kTwoPasses);
    EXPECT_EQ(std::to_string(r.end_move), e.end);
  }
  if (e.result != "-") {
    EXPECT_EQ(r.count.result, e.result);
    EXPECT_EQ(r.result_check, ResultCheck::kAgrees) << r.result_check_detail;
  }
  EXPECT_EQ(r.failed(), e.violations != "-");
}

INSTANTIATE_TEST_SUITE_P(Go, SharedTestdata,
                         testing::ValuesIn(LoadExpectations()),
                         [](const testing::TestParamInfo<Expectation>& info) {
                           std::string name = info.param.file.substr(
                               0, info.param.file.find('.'));
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return name;
                         });

TEST(SharedTestdataFiles, AllTenRecordsAreListed) {
  EXPECT_EQ(LoadExpectations().size(), 10u);
}

}  // namespace
}  // namespace gorank::rules::go
