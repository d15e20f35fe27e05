// `rankctl player import` with the real rankd and rankctl binaries: UTF-8,
// UTF-8 with BOM and GB18030 files, every refusal kind with its line number,
// a dry run stores nothing, a re-import changes nothing, operator scoping,
// --skip-bad and the refused-rows file, --json. HOME is a temp folder, so a
// developer's ~/.config/rankctl cannot interfere.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/rankd_process.h"

namespace gorank::e2e {
namespace {

using testing::Has;
using testing::ReadFile;
using testing::RunResult;

// A valid resident ID born on `birth` (YYYYMMDD): ISO 7064 MOD 11-2, computed
// here independently of the server's code.
std::string ResidentId(const std::string& birth, int seq) {
  const std::string first17 = "110105" + birth + std::to_string(100 + seq);
  static const int kWeights[] = {7, 9, 10, 5,  8, 4, 2, 1, 6,
                                 3, 7, 9,  10, 5, 8, 4, 2};
  int sum = 0;
  for (int i = 0; i < 17; ++i) sum += (first17[i] - '0') * kWeights[i];
  return first17 + "10X98765432"[sum % 11];
}

class PlayerImportE2eTest : public testing::IsolatedRankdCliTest {
 protected:
  // `rankctl player get ID --json` as JSON (null when the call fails).
  nlohmann::json Player(int id) {
    RunResult r = Ctl({"--json", "player", "get", std::to_string(id)});
    if (r.exit_code != 0) return nullptr;
    return nlohmann::json::parse(r.out)["player"];
  }
};

TEST_F(PlayerImportE2eTest, ReadsUtf8Utf8WithBomAndGb18030Files) {
  const std::string rid = ResidentId("20080110", 1);
  const std::string utf8 =
      Write("utf8.csv",
            "name,gender,resident_id,agency,rank,rank_date\n"
            "张三,男," +
                rid + ",110,业余2段,2019-07-01\n");
  const std::string bom = Write("bom.csv",
                                "\xEF\xBB\xBF"
                                "agency,name,gender\r\n"
                                "130,李四,女\r\n");
  // 王五,男,110,业余2段 in GB18030, as Excel on Chinese Windows saves it.
  const std::string gb = Write("gb.csv",
                               "name,gender,agency,rank\r\n"
                               "\xCD\xF5\xCE\xE5,\xC4\xD0,110,\xD2\xB5\xD3\xE0"
                               "2"
                               "\xB6\xCE\r\n");
  RunResult a = Ctl({"player", "import", utf8});
  ASSERT_EQ(a.exit_code, 0) << a.out << a.err;
  EXPECT_TRUE(Has(a.out, "(utf-8, 1 rows")) << a.out;
  EXPECT_TRUE(Has(a.out, "added 1, matched 0, refused 0: stored")) << a.out;
  RunResult b = Ctl({"player", "import", bom});
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
  EXPECT_TRUE(Has(b.out, "utf-8 with BOM")) << b.out;
  RunResult c = Ctl({"player", "import", gb});
  ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
  EXPECT_TRUE(Has(c.out, "gb18030")) << c.out;

  const nlohmann::json zhang = Player(1), li = Player(2), wang = Player(3);
  ASSERT_FALSE(zhang.is_null());
  EXPECT_EQ(zhang["name"], "张三");
  EXPECT_EQ(zhang["rank"]["notation"], "2d");
  EXPECT_EQ(li["name"], "李四");
  EXPECT_EQ(li["gender"], "GENDER_FEMALE");
  ASSERT_FALSE(wang.is_null());
  EXPECT_EQ(wang["name"], "王五");
  EXPECT_EQ(wang["gender"], "GENDER_MALE");
  EXPECT_EQ(wang["rank"]["notation"], "2d");
  // The rank history names the file and its SHA-256.
  RunResult h = Ctl({"player", "history", "1"});
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_TRUE(Has(h.out, "import")) << h.out;
  EXPECT_TRUE(Has(h.out, "import utf8.csv sha256:")) << h.out;
  EXPECT_TRUE(Has(h.out, "2019-07-01")) << h.out;
}

TEST_F(PlayerImportE2eTest,
       EveryRefusalKindIsReportedWithItsLineAndNothingIsStored) {
  const std::string rid = ResidentId("20080110", 2);
  const std::string path = Write(
      "bad.csv",
      "name,gender,birth_date,resident_id,agency,rank,rank_date,external_id\n"
      "好人,,,,"
      "110,,,X1\n"                        // line 2: fine
      ",,,,110,,,\n"                      // 3 name empty
      "甲,,,,,,,\n"                       // 4 agency empty
      "乙,,,,999,,,\n"                    // 5 unknown agency
      "丙,x,,,110,,,\n"                   // 6 gender
      "丁,,2008-13-01,,110,,,\n"          // 7 birth date
      "戊,,,110105200801101234,110,,,\n"  // 8 resident ID
      "己,,2008-01-11," +
          rid +
          ",110,,,\n"                 // 9 birth date vs ID
          "庚,,,,110,12 dan,,\n"      // 10 rank
          "辛,,,,110,3d,someday,\n"   // 11 rank date
          "壬,,,,110,,2020-01-01,\n"  // 12 rank date, no rank
          "癸,,,,110,,," +
          std::string(65, 'e') +
          "\n"                               // 13 external id
          "子,,,,110,,,X1\n"                 // 14 same external id
          "\"丑, the second\",,,,11,,,\n");  // 15 agency not 3 digits
  RunResult r = Ctl({"player", "import", path});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  for (const std::string& expected : {
           std::string("refused line 3, column name: name is empty"),
           std::string("refused line 4, column agency: agency is empty"),
           std::string(
               "refused line 5, column agency: agency 999 does not exist"),
           std::string(
               "refused line 6, column gender: gender 'x' is not one of"),
           std::string("refused line 7, column birth_date: birth_date "
                       "'2008-13-01' is not a date"),
           std::string("refused line 8, column resident_id:"),
           std::string("refused line 9, column birth_date: birth_date "
                       "2008-01-11 differs"),
           std::string(
               "refused line 10, column rank: rank '12 dan' is not a Go rank"),
           std::string("refused line 11, column rank_date: rank_date 'someday' "
                       "is not a date"),
           std::string(
               "refused line 12, column rank_date: rank_date without a rank"),
           std::string(
               "refused line 13, column external_id: external_id is 65 bytes"),
           std::string("refused line 14, column external_id: the same "
                       "external_id of agency "
                       "110 is on line 2"),
           std::string("refused line 15, column agency: agency '11' is not a "
                       "three-digit"),
           std::string("added 1, matched 0, refused 13: nothing stored"),
       }) {
    EXPECT_TRUE(Has(r.out, expected)) << expected << "\n" << r.out;
  }
  EXPECT_TRUE(Player(1).is_null()) << "a refused file stored a player";
}

TEST_F(PlayerImportE2eTest, DryRunStoresNothingAndAReimportChangesNothing) {
  const std::string path = Write("players.csv",
                                 "name,resident_id,agency,external_id,rank\n"
                                 "张三," +
                                     ResidentId("20080110", 3) +
                                     ",110,,1d\n"
                                     "李四,,110,BJ-2,\n");
  RunResult dry = Ctl({"player", "import", path, "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  EXPECT_TRUE(
      Has(dry.out, "added 2, matched 0, refused 0: dry run, nothing stored"))
      << dry.out;
  EXPECT_TRUE(Player(1).is_null());

  RunResult first = Ctl({"player", "import", path});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_TRUE(Has(first.out, "added 2, matched 0, refused 0: stored"))
      << first.out;
  const RunResult log_before = Ctl({"--json", "audit", "checkpoint"});
  RunResult again = Ctl({"player", "import", path});
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_TRUE(Has(again.out, "added 0, matched 2, refused 0: nothing changed"))
      << again.out;
  EXPECT_TRUE(Player(3).is_null());
  // No audit entry either.
  const RunResult log_after = Ctl({"--json", "audit", "checkpoint"});
  if (log_before.exit_code == 0 && log_after.exit_code == 0) {
    EXPECT_EQ(nlohmann::json::parse(log_before.out)["checkpoint"]["tree_size"],
              nlohmann::json::parse(log_after.out)["checkpoint"]["tree_size"]);
  }

  RunResult json = Ctl({"--json", "player", "import", path});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["added"], 0);
  EXPECT_EQ(j["matched"], 2);
  EXPECT_EQ(j["stored"], true);
}

TEST_F(PlayerImportE2eTest,
       AnOperatorImportsItsOwnAgencyAndSkipBadWritesTheRefusedRows) {
  RunResult t =
      Ctl({"token", "create", "--role", "agency_operator", "--agency", "110",
           "--label", "Beijing", "--out", dir_.File("op110.token")});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const std::string path = Write("beijing.csv",
                                 "name,agency,rank,external_id\n"
                                 "甲,110,3d,B1\n"
                                 "乙,130,,B2\n"
                                 "丙,110,5d,B3\n");
  auto as_operator = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--token-file", dir_.File("op110.token")});
    return Ctl(args, /*admin=*/false);
  };
  RunResult r = as_operator({"player", "import", path});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(
      Has(r.out,
          "refused line 3, column agency: an operator of agency 110 imports "
          "players of its own agency only"))
      << r.out;
  EXPECT_TRUE(
      Has(r.out,
          "refused line 4, column rank: an agency may record ranks up to 3d"))
      << r.out;
  EXPECT_TRUE(Player(1).is_null());

  RunResult skip = as_operator({"player", "import", path, "--skip-bad"});
  ASSERT_EQ(skip.exit_code, 0) << skip.out << skip.err;
  EXPECT_TRUE(Has(skip.out, "added 1, matched 0, refused 2: stored"))
      << skip.out;
  const std::string refused = ReadFile(dir_.File("beijing.refused.csv"));
  EXPECT_EQ(refused,
            "\xEF\xBB\xBF"
            "name,agency,rank,external_id\r\n乙,130,,B2\r\n丙,110,5d,B3\r\n");
  EXPECT_EQ(Player(1)["name"], "甲");

  // --skip-bad=OUT names the file; the auditor may not import at all.
  RunResult named = as_operator(
      {"player", "import", path, "--skip-bad=" + dir_.File("out.csv")});
  EXPECT_EQ(named.exit_code, 0) << named.out << named.err;
  EXPECT_TRUE(Has(named.out, "added 0, matched 1, refused 2: stored"))
      << named.out;
  EXPECT_TRUE(Has(ReadFile(dir_.File("out.csv")), "丙,110,5d,B3"));
  RunResult a = Ctl({"token", "create", "--role", "auditor", "--out",
                     dir_.File("aud.token")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  RunResult denied =
      Ctl({"--token-file", dir_.File("aud.token"), "player", "import", path},
          /*admin=*/false);
  EXPECT_EQ(denied.exit_code, 1);
  EXPECT_TRUE(Has(denied.err, "PERMISSION_DENIED")) << denied.err;
}

TEST_F(PlayerImportE2eTest, AnUnknownColumnOrAMissingFileIsAUsageError) {
  RunResult unknown =
      Ctl({"player", "import", Write("u.csv", "name,agency,club\n甲,110,x\n")});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(Has(unknown.err, "unknown column 'club'")) << unknown.err;
  RunResult missing = Ctl({"player", "import", dir_.File("none.csv")});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
}

}  // namespace
}  // namespace gorank::e2e
