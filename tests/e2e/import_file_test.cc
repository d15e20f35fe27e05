// rankctl's reader of import files (services/cli/import_file.h) on its own:
// encodings, RFC 4180 quoting, line numbers, header checks.
#include "services/cli/import_file.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gorank::cli {
namespace {

using ::testing::HasSubstr;

// 张三 in GB18030 (GBK): D5C5 C8FD.
constexpr char kGbName[] = "\xD5\xC5\xC8\xFD";
constexpr char kUtf8Name[] = "\xE5\xBC\xA0\xE4\xB8\x89";

TEST(ImportFileTest, PlainUtf8WithHeaderAndLineNumbers) {
  auto f = ParseCsv("Name,Agency\n张三,110\n李四,310\n", FileEncoding::kAuto,
                    "p.csv");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->encoding, "utf-8");
  EXPECT_EQ(f->header, (std::vector<std::string>{"name", "agency"}));
  ASSERT_EQ(f->records.size(), 2u);
  EXPECT_EQ(f->records[0].line, 2);
  EXPECT_EQ(f->records[0].fields, (std::vector<std::string>{"张三", "110"}));
  EXPECT_EQ(f->records[1].line, 3);
  EXPECT_EQ(f->records[1].text, "李四,310");
  EXPECT_EQ(f->sha256.size(), 64u);
}

TEST(ImportFileTest, BomIsDetectedAndStripped) {
  auto f =
      ParseCsv("\xEF\xBB\xBFname,agency\r\n张三,110\r\n", FileEncoding::kAuto);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->encoding, "utf-8 with BOM");
  EXPECT_EQ(f->header[0], "name");  // no BOM left in the first column name
  EXPECT_EQ(f->records[0].fields[1], "110");  // no \r left either
}

TEST(ImportFileTest, Gb18030IsDetectedAndDecoded) {
  const std::string bytes = std::string("name,agency\n") + kGbName + ",110\n";
  auto f = ParseCsv(bytes, FileEncoding::kAuto);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->encoding, "gb18030");
  EXPECT_EQ(f->records[0].fields[0], kUtf8Name);
  // Forced: the same bytes as UTF-8 are refused with the line.
  auto forced = ParseCsv(bytes, FileEncoding::kUtf8);
  ASSERT_FALSE(forced.ok());
  EXPECT_EQ(forced.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(forced.status().message()), HasSubstr("line 2"));
  // Forced GB18030 on a pure-ASCII file decodes it unchanged.
  auto ascii = ParseCsv("name\nZhang San\n", FileEncoding::kGb18030);
  ASSERT_TRUE(ascii.ok());
  EXPECT_EQ(ascii->records[0].fields[0], "Zhang San");
}

TEST(ImportFileTest, NeitherEncodingIsRefusedWithTheLine) {
  auto f = ParseCsv("name\nok\n\xFF\xFF\n", FileEncoding::kAuto);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(f.status().message()), HasSubstr("line 3"));
}

TEST(ImportFileTest, QuotedFieldsHoldCommasQuotesAndLineBreaks) {
  auto f =
      ParseCsv("name,note\n\"Li, Si\",\"said \"\"hi\"\"\nthen left\"\nnext,x\n",
               FileEncoding::kAuto);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->records.size(), 2u);
  EXPECT_EQ(f->records[0].fields[0], "Li, Si");
  EXPECT_EQ(f->records[0].fields[1], "said \"hi\"\nthen left");
  EXPECT_EQ(f->records[0].line, 2);
  EXPECT_EQ(f->records[1].line, 4);  // the quoted line break counts
}

TEST(ImportFileTest, BlankLinesAreSkippedButCounted) {
  auto f = ParseCsv("name\n\nA\n,\nB", FileEncoding::kAuto);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->records.size(), 2u);
  EXPECT_EQ(f->records[0].line, 3);
  EXPECT_EQ(f->records[1].line, 5);
  EXPECT_EQ(f->records[1].fields[0], "B");  // no final newline
}

TEST(ImportFileTest, BrokenFilesAreRefusedWithTheLine) {
  struct Case {
    std::string bytes, want;
  };
  for (const Case& c : std::vector<Case>{
           {"", "empty"},
           {"\n\n", "empty"},
           {"name,agency\nA,\"110\n", "line 2"},
           {"name,agency\n\"A\"x,110\n", "line 2"},
           {"name,,agency\nA,B,C\n", "no name"},
           {"name,Name\nA,B\n", "twice"},
       }) {
    auto f = ParseCsv(c.bytes, FileEncoding::kAuto);
    ASSERT_FALSE(f.ok()) << c.bytes;
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(f.status().message()), HasSubstr(c.want))
        << c.bytes;
  }
}

TEST(ImportFileTest, ColumnsAreCheckedAgainstTheKnownAndRequiredOnes) {
  auto f = ParseCsv("name,rank\nA,3d\n", FileEncoding::kAuto, "p.csv");
  ASSERT_TRUE(f.ok());
  auto missing = MapColumns(*f, {"name", "rank", "agency"}, {"name", "agency"});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("agency"));
  auto unknown = MapColumns(*f, {"name", "agency"}, {"name"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()),
              HasSubstr("unknown column 'rank'"));
  auto ok = MapColumns(*f, {"name", "rank", "agency"}, {"name"});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(Field(f->records[0], *ok, "rank"), "3d");
  EXPECT_EQ(Field(f->records[0], *ok, "agency"), "");  // not in the file
}

TEST(ImportFileTest, MissingFileIsNotFound) {
  auto f = ReadCsvFile("/nonexistent/players.csv", FileEncoding::kAuto);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), absl::StatusCode::kNotFound);
}

TEST(ImportFileTest, EncodingNames) {
  FileEncoding e;
  EXPECT_TRUE(ParseFileEncoding("UTF-8", &e));
  EXPECT_EQ(e, FileEncoding::kUtf8);
  EXPECT_TRUE(ParseFileEncoding("gbk", &e));
  EXPECT_EQ(e, FileEncoding::kGb18030);
  EXPECT_TRUE(ParseFileEncoding("auto", &e));
  EXPECT_EQ(e, FileEncoding::kAuto);
  EXPECT_FALSE(ParseFileEncoding("latin1", &e));
}

}  // namespace
}  // namespace gorank::cli
