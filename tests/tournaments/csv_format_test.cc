#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/data_table.h"
#include "services/tournaments/result_file.h"

namespace gorank::tournaments {
namespace {

using ::testing::HasSubstr;

constexpr char kCsv[] =
    "# three players, two rounds\n"
    "row,family_name,given_name,rank,country,club,egd_pin,player_id,withdrawn_"
    "after,r1,r2\n"
    "1,\"Ma, Jr.\",Xiao Long,3d,CN,Shgh,19990016,42,,2+/b0,0+\n"
    "2,Lin,Tao,2d,CN,Shgh,,,,1-/w0,3=/w0\n"
    "3,Luo,Jun,1k,CN,Shgh,,,1,0-,2=/b0\n";

TEST(CsvFormat, ReadsTheDocumentedFormat) {
  auto file = ReadCsv(kCsv);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->event.format.rounds, 2);
  const auto& e = file->results.entrants;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].family_name, "Ma, Jr.");
  EXPECT_EQ(e[0].given_name, "Xiao Long");
  EXPECT_EQ(e[0].player_id, registry::PlayerId{42});
  EXPECT_FALSE(e[1].player_id.has_value());
  EXPECT_EQ(e[2].withdrawn_after_round, 1);
  ASSERT_EQ(file->results.games.size(), 2u);
  EXPECT_EQ(file->results.games[0].outcome, Outcome::kBlackWins);
  EXPECT_EQ(file->results.games[1].outcome, Outcome::kDraw);
  ASSERT_EQ(file->results.byes.size(), 1u);
}

TEST(CsvFormat, WriteReadWriteIsByteIdentical) {
  auto file = ReadCsv(kCsv);
  ASSERT_TRUE(file.ok()) << file.status();
  auto first = WriteCsv(file->event, file->results);
  ASSERT_TRUE(first.ok()) << first.status();
  // The writer drops comments and is otherwise the input.
  EXPECT_EQ(*first, std::string(kCsv).substr(std::string(kCsv).find('\n') + 1));
  auto again = ReadCsv(*first);
  ASSERT_TRUE(again.ok()) << again.status();
  auto second = WriteCsv(again->event, again->results);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, *first);
}

// `rankctl event export --format csv` and Excel's "CSV UTF-8" start with a
// BOM; a file saved "UTF-8 with BOM" may hold EGF too. Both read as without.
TEST(CsvFormat, LeadingUtf8BomIsSkipped) {
  const std::string bom = "\xEF\xBB\xBF";
  auto csv = WriteCsv(ReadCsv(kCsv)->event, ReadCsv(kCsv)->results);
  ASSERT_TRUE(csv.ok()) << csv.status();
  auto with_bom = ReadCsv(bom + *csv);
  ASSERT_TRUE(with_bom.ok()) << with_bom.status();
  EXPECT_EQ(*WriteCsv(with_bom->event, with_bom->results), *csv);
  // Only at the start: a BOM before a later row is data (a bad row number).
  EXPECT_FALSE(ReadCsv(*csv + bom + "4,Li,Wei,1d,CN,,,,,0-,0-\n").ok());

  auto text = ReadTextFile(std::string(GORANK_TESTDATA_DIR) +
                           "/egf/round_robin_forfeits.h9");
  ASSERT_TRUE(text.ok());
  auto egf = ReadEgf(bom + *text);
  ASSERT_TRUE(egf.ok()) << egf.status();
  EXPECT_EQ(egf->results.games.size(), ReadEgf(*text)->results.games.size());
  EXPECT_EQ(egf->event.name, ReadEgf(*text)->event.name);
}

TEST(CsvFormat, EgfFileConvertsToCsvAndBack) {
  auto text = ReadTextFile(std::string(GORANK_TESTDATA_DIR) +
                           "/egf/round_robin_forfeits.h9");
  ASSERT_TRUE(text.ok());
  auto egf = ReadEgf(*text);
  ASSERT_TRUE(egf.ok()) << egf.status();
  auto csv = WriteCsv(egf->event, egf->results);
  ASSERT_TRUE(csv.ok()) << csv.status();
  auto back = ReadCsv(*csv);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->results.games.size(), egf->results.games.size());
  EXPECT_EQ(*WriteCsv(back->event, back->results), *csv);
}

TEST(CsvFormat, ReportsEveryProblemWithItsLine) {
  auto file = ReadCsv(
      "row,family_name,given_name,rank,country,club,egd_pin,player_id,"
      "withdrawn_after,r1\n"
      "1,A,a,1d,CN,C,,x,,2+/b0\n"
      "3,B,b,1d,CN,C,,,,1+/w0\n"
      "3,C,c,1d,CN,C,,,,2+/w0,1-/b0\n"
      "4,\"D,d,1d,CN,C,,,,0+\n");
  ASSERT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(file.status().message());
  EXPECT_THAT(m, HasSubstr("line 2: player_id 'x' is not a number"));
  EXPECT_THAT(m, HasSubstr("line 3: row must be 2"));
  EXPECT_THAT(m, HasSubstr("line 4: 2 round results, expected 1"));
  EXPECT_THAT(m, HasSubstr("line 5: unterminated quote"));
}

TEST(CsvFormat, CrossTableProblemsAreReportedToo) {
  auto file = ReadCsv(
      "row,family_name,given_name,rank,country,club,egd_pin,player_id,"
      "withdrawn_after,r1\n"
      "1,A,a,1d,CN,C,,,,2+/b0\n"
      "2,B,b,9x,CN,C,,,,1+/w0\n");
  ASSERT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string m(file.status().message());
  EXPECT_THAT(m, HasSubstr("line 3: bad rank '9x'"));
  EXPECT_THAT(m, HasSubstr("line 2: round 1: game against row 2 (line 3): "
                           "results do not match"));
}

TEST(CsvFormat, BadHeaderIsRefused) {
  auto file = ReadCsv("name,rank\n");
  ASSERT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(file.status().message()),
              HasSubstr("line 1: header"));
}

}  // namespace
}  // namespace gorank::tournaments
