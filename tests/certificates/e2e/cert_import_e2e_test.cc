// `rankctl cert import` with the real rankd and rankctl binaries: UTF-8,
// UTF-8 with BOM and GB18030 files; a dry run stores nothing; imported
// numbers verify publicly (rankctl without a token, and the web page's
// /api/v1/verify); a re-import changes nothing; the next `cert issue` takes
// the serial after the highest imported one; a refused row stops the file
// with its line and column, --skip-bad stores the rest and writes the
// refused rows beside the file; an operator cannot import another agency's
// certificates; --json. HOME is a temp folder, so a developer's
// ~/.config/rankctl cannot interfere.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/rankd_process.h"

namespace gorank::e2e {
namespace {

using testing::Has;
using testing::RunResult;

// The current year in Asia/Shanghai (UTC+8), as rankd dates issuance.
int ShanghaiYear() {
  const std::time_t t = std::time(nullptr) + 8 * 3600;
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm.tm_year + 1900;
}

class CertImportE2eTest : public testing::IsolatedRankdCliTest {
 protected:
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void MustRegister(const std::string& name) {
    RunResult r = Ctl({"player", "register", "--name", name, "--agency", "110",
                       "--gender", "female", "--birth-date", "1990-05-01"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  }
  // `rankctl cert verify` without a token, as the public.
  RunResult Verify(const std::string& number, const std::string& name) {
    return Ctl({"cert", "verify", number, "--name", name}, /*admin=*/false);
  }
};

TEST_F(CertImportE2eTest,
       HistoricNumbersVerifyPubliclyAndTheNextIssueTakesTheNextSerial) {
  MustRegister("李娜");  // player 1
  MustRegister("王芳");  // player 2
  const int year = ShanghaiYear();
  char yy[3];
  std::snprintf(yy, sizeof yy, "%02d", year % 100);
  const std::string current = "110" + std::string(yy) + "0007";
  const std::string file =
      Write("history.csv",
            "number,holder,grade,issue_date,issuing_agency,discipline\n"
            "110150001,1,业余2段,2015-03-01,110,\n" +
                current + ",2,1k," + std::to_string(year) +
                "-01-01,110,go\n"
                "000240003,1,6d,2024-05-01,000,\n");
  RunResult dry = Ctl({"cert", "import", file, "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_TRUE(Has(dry.out, "(utf-8, 3 rows")) << dry.out;
  EXPECT_TRUE(
      Has(dry.out, "added 3, matched 0, refused 0: dry run, nothing stored"))
      << dry.out;
  EXPECT_EQ(Verify("110150001", "李娜").exit_code, 3);  // NOT_VALID

  RunResult stored = Ctl({"cert", "import", file});
  ASSERT_EQ(stored.exit_code, 0) << stored.out << stored.err;
  EXPECT_TRUE(Has(stored.out, "added 3, matched 0, refused 0: stored"))
      << stored.out;
  RunResult v = Verify("110150001", "李娜");
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_TRUE(Has(v.out, "VALID  110150001  2d  2015-03-01")) << v.out;
  // The 2024 6d's public notice ran from its issue date: long over.
  v = Verify("000240003", "李娜");
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_TRUE(v.out.rfind("VALID", 0) == 0) << v.out;
  // The web page answers the same.
  RunResult web = testing::RunProgram(
      {"/usr/bin/curl", "-s", "-G", "--data-urlencode", "number=000240003",
       "--data-urlencode", "name=李娜",
       "http://127.0.0.1:" + std::to_string(rankd_.http_port()) +
           "/api/v1/verify"},
      dir_.File("curl"));
  ASSERT_EQ(web.exit_code, 0) << web.err;
  EXPECT_TRUE(Has(web.out, "\"outcome\":\"VERIFY_OUTCOME_VALID\"")) << web.out;
  EXPECT_TRUE(Has(web.out, "\"number\":\"000240003\"")) << web.out;

  RunResult again = Ctl({"cert", "import", file});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_TRUE(Has(again.out, "added 0, matched 3, refused 0: nothing changed"))
      << again.out;

  // The next certificate of 110 this year follows the imported serial 7;
  // the installation year's stock is released without a review.
  const std::string y = std::to_string(year);
  ASSERT_EQ(
      Ctl({"stock", "order", "--agency", "110", "--year", y, "--quantity", "5"})
          .exit_code,
      0);
  ASSERT_EQ(Ctl({"stock", "release", "--agency", "110", "--year", y}).exit_code,
            0);
  RunResult issued =
      Ctl({"--json", "cert", "issue", "--player", "2", "--grade", "1d",
           "--agency", "110", "--reference", "club league 2nd place"});
  ASSERT_EQ(issued.exit_code, 0) << issued.out << issued.err;
  EXPECT_EQ(nlohmann::json::parse(issued.out)["certificate"]["number"],
            "110" + std::string(yy) + "0008")
      << issued.out;
  RunResult got = Ctl({"--json", "cert", "get", current});
  ASSERT_EQ(got.exit_code, 0) << got.out << got.err;
  EXPECT_EQ(nlohmann::json::parse(got.out)["certificate"]["imported"], true)
      << got.out;
}

TEST_F(CertImportE2eTest, ReadsUtf8WithBomAndGb18030Files) {
  MustRegister("李娜");
  const std::string bom =
      Write("bom.csv",
            "\xEF\xBB\xBF"
            "issuing_agency,number,holder,grade,issue_date\r\n"
            "110,110150002,1,1d,2015-04-01\r\n");
  // 110150003,1,业余3段,... in GB18030, as Excel on Chinese Windows saves it.
  const std::string gb =
      Write("gb.csv",
            "number,holder,grade,issue_date,issuing_agency\r\n"
            "110150003,1,\xD2\xB5\xD3\xE0"
            "3"
            "\xB6\xCE,2015-05-01,110\r\n");
  RunResult a = Ctl({"cert", "import", bom});
  ASSERT_EQ(a.exit_code, 0) << a.out << a.err;
  EXPECT_TRUE(Has(a.out, "utf-8 with BOM")) << a.out;
  RunResult b = Ctl({"cert", "import", gb});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  EXPECT_TRUE(Has(b.out, "gb18030")) << b.out;
  RunResult v = Verify("110150003", "李娜");
  EXPECT_TRUE(Has(v.out, "VALID  110150003  3d  2015-05-01")) << v.out << v.err;
}

TEST_F(CertImportE2eTest, ARefusedRowStopsTheFileAndSkipBadStoresTheRest) {
  MustRegister("李娜");
  const std::string file =
      Write("batch.csv",
            "number,holder,grade,issue_date,issuing_agency\n"
            "110150004,1,1d,2015-04-01,110\n"
            "1101500,1,1d,2015-04-02,110\n"
            "110150005,1,5d,2015-04-03,110\n");
  RunResult r = Ctl({"cert", "import", file});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(Has(
      r.out,
      "refused line 3, column number: '1101500' is not a certificate number"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "refused line 4, column grade: rule: 4d..7d"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "nothing stored")) << r.out;
  EXPECT_EQ(Verify("110150004", "李娜").exit_code, 3);

  RunResult j = Ctl({"--json", "cert", "import", file, "--skip-bad"});
  ASSERT_EQ(j.exit_code, 0) << j.out << j.err;
  const nlohmann::json summary = nlohmann::json::parse(j.out);
  EXPECT_EQ(summary["stored"], true);
  EXPECT_EQ(summary["added"], 1);
  EXPECT_EQ(summary["refused"], 2);
  EXPECT_EQ(summary["refusals"][0]["line"], 3);
  EXPECT_EQ(Verify("110150004", "李娜").exit_code, 0);
  const std::string refused = Read(dir_.File("batch.refused.csv"));
  EXPECT_EQ(refused,
            "\xEF\xBB\xBFnumber,holder,grade,issue_date,issuing_agency\r\n"
            "1101500,1,1d,2015-04-02,110\r\n"
            "110150005,1,5d,2015-04-03,110\r\n");
}

TEST_F(CertImportE2eTest, AnOperatorCannotImportAnotherAgencysCertificates) {
  MustRegister("李娜");
  const std::string token = dir_.File("op120.token");
  RunResult t = Ctl({"token", "create", "--role", "agency_operator", "--agency",
                     "120", "--label", "Tianjin office", "--out", token});
  ASSERT_EQ(t.exit_code, 0) << t.out << t.err;
  const std::string file =
      Write("other.csv",
            "number,holder,grade,issue_date,issuing_agency\n"
            "110150006,1,1d,2015-04-01,110\n");
  RunResult r =
      Ctl({"--token-file", token, "cert", "import", file}, /*admin=*/false);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(
      Has(r.out,
          "refused line 2, column issuing_agency: an agency operator imports "
          "only certificates its own agency (120) issued"))
      << r.out;
}

}  // namespace
}  // namespace gorank::e2e
