// Issue #17 section 5 with the real rankd and rankctl: every CSV rankctl
// writes for people starts with a UTF-8 BOM (holder list, annual report,
// standings, the results CSV), the results CSV still imports (and an EGF
// file saved with a BOM), EGF goes out without one; holder lists, annual
// reports and standings as .xlsx, read back from the zip: bold header,
// numbers as numbers, dates as real dates, text kept as text (leading
// zeros, 18-character resident IDs, Chinese names), fitted column widths.
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/e2e/xlsx_reader.h"
#include "tests/testing/rankd_cli_fixture.h"
#include "tests/testing/rankd_process.h"

namespace gorank::e2e {
namespace {

using testing::Has;
using testing::ReadFile;
using testing::RunResult;

const std::string kBom = "\xEF\xBB\xBF";

bool StartsWithBom(const std::string& s) { return s.rfind(kBom, 0) == 0; }

// A Swiss of 3 rounds with a Chinese guest and SOS in thirds.
const char kSwiss[] =
    "; EV[Office Swiss]\n"
    ";\n"
    "; Pl Name Rk Co Club\n"
    "1 王 小明 1d CN Bj 2+/w0 3+/b0 0+\n"
    "2 Li Wei 1d CN Bj 1-/b0 0+ 3+/b0\n"
    "3 Zhao Gang 1d CN Bj 4+/w0 1-/w0 2-/w0\n"
    "4 Sun Li 1d CN Bj 3-/b0 5+/b0 0+\n"
    "5 Qian Hu 1d CN Bj 0+ 4-/w0 0-\n";

// rankctl reads no config file of the machine's user (IsolatedRankdCliTest).
class OfficeExportE2eTest : public testing::IsolatedRankdCliTest {
 protected:
  // The year rankd issues in (its wall clock is Asia/Shanghai, UTC+8).
  static int ShanghaiYear() {
    const std::time_t now = std::time(nullptr) + 8 * 3600;
    std::tm tm{};
    gmtime_r(&now, &tm);
    return tm.tm_year + 1900;
  }

  // Two certificates of this year: 张三's 1d from agency 110 (resident ID
  // given, a basis that reads like a formula) and 李四's 4d from 000.
  void IssueTwo() {
    year_ = std::to_string(ShanghaiYear());
    yy_ = year_.substr(2);
    const std::string op = dir_.File("bj.token");
    ASSERT_EQ(Ctl({"token", "create", "--role", "agency_operator", "--agency",
                   "110", "--label", "bj", "--out", op})
                  .exit_code,
              0);
    RunResult r = Ctl({"player", "register", "--name", "张三", "--latin-name",
                       "Zhang San", "--gender", "male", "--birth-date",
                       "2008-01-10", "--resident-id", "44030520080110005X",
                       "--agency", "110", "--rank", "1k"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Ctl({"player", "register", "--name", "李四", "--latin-name", "Li Si",
             "--gender", "female", "--birth-date", "1998-07-09", "--agency",
             "110", "--rank", "3d"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(Ctl({"stock", "order", "--agency", "110", "--year", year_,
                   "--quantity", "10"})
                  .exit_code,
              0);
    ASSERT_EQ(
        Ctl({"stock", "release", "--agency", "110", "--year", year_}).exit_code,
        0);
    r = Ctl({"--token-file", op, "cert", "issue", "--player", "1", "--grade",
             "1d", "--reference", "=1+2 club league, 2nd"},
            false);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Ctl({"cert", "issue", "--player", "2", "--grade", "4d", "--reference",
             "national amateur championship 3rd"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  std::string CreateSwiss() {
    RunResult r =
        Ctl({"event", "create", "--name", "Office Swiss", "--organiser", "110",
             "--start", "2025-05-01", "--competition", "club_event", "--level",
             "club", "--sub-event", "open_individual", "--format", "swiss",
             "--rounds", "3", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto created = nlohmann::json::parse(r.out, nullptr, false);
    if (created.is_discarded()) return "";
    return created["event"]["id"].get<std::string>();
  }

  std::string year_, yy_;
};

TEST_F(OfficeExportE2eTest, HolderListAsCsvWithBomAndAsXlsx) {
  ASSERT_NO_FATAL_FAILURE(IssueTwo());
  RunResult r = Ctl({"cert", "export", "--agency", "110", "--year", year_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(StartsWithBom(r.out)) << r.out;
  EXPECT_EQ(r.out.substr(3, r.out.find('\n') - 3),
            "number,grade,issue_date,basis,basis_reference,state,name,latin_"
            "name,gender,"
            "birth_date,home_agency,resident_id");
  const std::string row = "110" + yy_ + "0001,1d,";
  EXPECT_TRUE(Has(r.out, "\n" + row)) << r.out;
  EXPECT_TRUE(Has(
      r.out,
      ",\"'=1+2 club league, 2nd\",effective,张三,Zhang San,male,2008-01-10,"
      "110,44030520080110005X\n"))
      << r.out;  // a formula-looking cell is shown as text

  // --out FILE.csv writes the same bytes.
  const std::string csv = dir_.File("holders.csv");
  RunResult w =
      Ctl({"cert", "export", "--agency", "110", "--year", year_, "--out", csv});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_TRUE(Has(w.out, "wrote 1 certificate(s) to " + csv)) << w.out;
  EXPECT_EQ(ReadFile(csv), r.out);

  const std::string xlsx =
      dir_.File("holders.XLSX");  // the extension in any case
  w = Ctl(
      {"cert", "export", "--agency", "000", "--year", year_, "--out", xlsx});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  Xlsx book;
  ASSERT_EQ(book.Open(xlsx), "");
  EXPECT_EQ(book.SheetNames(), "holders");
  auto cells = book.Sheet(1);
  EXPECT_EQ(cells["A1"].value, "number");
  EXPECT_TRUE(book.Bold(cells["A1"].style));
  EXPECT_EQ(cells["L1"].value, "resident_id");
  EXPECT_EQ(cells["A2"].type,
            "s");  // text: the national prefix keeps its zeros
  EXPECT_EQ(cells["A2"].value, "000" + yy_ + "0001");
  EXPECT_FALSE(book.Bold(cells["A2"].style));
  EXPECT_EQ(cells["B2"].value, "4d");
  EXPECT_EQ(cells["F2"].value, "under notice");
  EXPECT_EQ(cells["G2"].value, "李四");
  EXPECT_EQ(cells["J2"].type, "");  // a real date
  EXPECT_EQ(cells["J2"].value, std::to_string(ExcelSerial(1998, 7, 9)));
  EXPECT_EQ(book.NumberFormat(cells["J2"].style), "yyyy-mm-dd");
  EXPECT_EQ(book.NumberFormat(cells["C2"].style), "yyyy-mm-dd");
  EXPECT_EQ(cells.count("A3"), 0u);
  const std::string& sheet = book.entries().at("xl/worksheets/sheet1.xml");
  EXPECT_TRUE(Has(sheet, "<col min=\"5\" max=\"5\" width=\""))
      << sheet;  // widths set
  EXPECT_TRUE(Has(sheet, "state=\"frozen\"")) << sheet;

  // Agency 110's list: the resident ID stays 18 characters of text and the
  // formula-looking basis is a plain string.
  w = Ctl(
      {"cert", "export", "--agency", "110", "--year", year_, "--out", xlsx});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  Xlsx again;
  ASSERT_EQ(again.Open(xlsx), "");
  cells = again.Sheet(1);
  EXPECT_EQ(cells["L2"].type, "s");
  EXPECT_EQ(cells["L2"].value, "44030520080110005X");
  EXPECT_EQ(cells["E2"].value, "=1+2 club league, 2nd");
  EXPECT_EQ(cells["G2"].value, "张三");
  EXPECT_EQ(cells["K2"].value, "110");

  // A file that cannot be written: a usage error naming it, nothing left.
  const std::string bad = dir_.File("no-such-folder/h.xlsx");
  w = Ctl({"cert", "export", "--agency", "110", "--year", year_, "--out", bad});
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_TRUE(Has(w.err, "cannot create " + bad)) << w.err;
  EXPECT_FALSE(Has(w.err, "[ERROR]")) << w.err;
}

TEST_F(OfficeExportE2eTest, AnnualReportAsCsvWithBomAndAsXlsx) {
  ASSERT_NO_FATAL_FAILURE(IssueTwo());
  RunResult r =
      Ctl({"audit", "report", "--agency", "110", "--year", year_, "--csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(StartsWithBom(r.out)) << r.out;
  EXPECT_EQ(r.out.substr(3, r.out.find('\n') - 3),
            "section,number,grade,detail");
  EXPECT_TRUE(Has(r.out, "\nby_grade,,1d,1\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "\nstock,,,ordered=10 released=1 used=1\n")) << r.out;

  const std::string xlsx = dir_.File("report.xlsx");
  r = Ctl(
      {"audit", "report", "--agency", "110", "--year", year_, "--out", xlsx});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "wrote the report of 110 " + year_ + " to " + xlsx))
      << r.out;
  EXPECT_TRUE(Has(r.out, "checkpoint: {")) << r.out;
  Xlsx book;
  ASSERT_EQ(book.Open(xlsx), "");
  auto cells = book.Sheet(1);
  EXPECT_EQ(cells["A1"].value, "section");
  EXPECT_TRUE(book.Bold(cells["D1"].style));
  EXPECT_EQ(cells["A2"].value, "by_grade");
  EXPECT_EQ(cells["C2"].value, "1d");
  EXPECT_EQ(cells["D2"].type, "");  // the count is a number
  EXPECT_EQ(cells["D2"].value, "1");

  const std::string csv = dir_.File("report.csv");
  r = Ctl(
      {"audit", "report", "--agency", "110", "--year", year_, "--out", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string file = ReadFile(csv);
  EXPECT_TRUE(StartsWithBom(file));
  EXPECT_TRUE(Has(file, "\nby_grade,,1d,1\n")) << file;
}

TEST_F(OfficeExportE2eTest, StandingsAndResultsFiles) {
  const std::string id = CreateSwiss();
  ASSERT_NE(id, "");
  const std::string egf = dir_.File("swiss.h9");
  std::ofstream(egf, std::ios::binary)
      << kBom << kSwiss;  // saved "UTF-8 with BOM"
  RunResult r = Ctl({"event", "import", egf, "--event", id, "--allow-guests",
                     "--withdrawn", "5=2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "5 players, 5 games")) << r.out;

  // Standings: CSV with a BOM, and a workbook with numbers, thirds as
  // fractions.
  const std::string csv = dir_.File("standings.csv");
  r = Ctl({"event", "standings", id, "--out", csv}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "王小明")) << r.out;  // the table is printed as well
  EXPECT_TRUE(Has(r.out, "wrote the standings to " + csv)) << r.out;
  std::string file = ReadFile(csv);
  ASSERT_TRUE(StartsWithBom(file)) << file;
  EXPECT_EQ(file.substr(3, file.find('\n') - 3),
            "place,id,name,points,SOS,total,warnings,note");
  EXPECT_TRUE(Has(file, "\n1,1,王小明,6,9,6,0,\n")) << file;
  EXPECT_TRUE(Has(file, "\n2,2,Li Wei,4,11,4 2/3,0,\n")) << file;

  const std::string xlsx = dir_.File("standings.xlsx");
  r = Ctl({"event", "standings", id, "--out", xlsx}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Xlsx book;
  ASSERT_EQ(book.Open(xlsx), "");
  auto cells = book.Sheet(1);
  EXPECT_EQ(cells["C1"].value, "name");
  EXPECT_TRUE(book.Bold(cells["C1"].style));
  EXPECT_EQ(cells["A2"].type, "");
  EXPECT_EQ(cells["A2"].value, "1");
  EXPECT_EQ(cells["C2"].value, "王小明");
  EXPECT_EQ(cells["D2"].value, "6");
  EXPECT_EQ(cells["A4"].value, "3=");  // a shared place stays as written
  EXPECT_EQ(cells["F3"].type, "");     // 4 2/3 as a number shown as a fraction
  EXPECT_EQ(cells["F3"].value.substr(0, 6), "4.6666");
  EXPECT_EQ(book.NumberFormat(cells["F3"].style), "# ?/?");
  EXPECT_TRUE(Has(cells["H6"].value, "withdrew after round 2"))
      << cells["H6"].value;

  // The results CSV starts with a BOM and imports again (dry run, and into
  // a second event); EGF goes out without one.
  r = Ctl({"event", "export", id, "--format", "csv"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(StartsWithBom(r.out)) << r.out;
  EXPECT_TRUE(Has(r.out, "\n1,王,小明,1d,CN,Bj,,,,2+/w0,3+/b0,0+\n")) << r.out;
  const std::string results = dir_.File("results.csv");
  std::ofstream(results, std::ios::binary) << r.out;
  r = Ctl({"event", "import", results, "--format", "csv", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "5 players, 5 games")) << r.out;
  const std::string second = CreateSwiss();
  r = Ctl({"event", "import", results, "--format", "csv", "--event", second,
           "--allow-guests"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Ctl({"event", "standings", second}, false).out,
            Ctl({"event", "standings", id}, false).out);

  r = Ctl({"event", "export", id, "--format", "egf"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("; ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace gorank::e2e
