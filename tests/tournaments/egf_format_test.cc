#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/data_table.h"
#include "services/tournaments/result_file.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string ReadTestFile(const std::string& name) {
  auto text = ReadTextFile(std::string(GORANK_TESTDATA_DIR) + "/" + name);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

TEST(EgfFormat, ImportsTheRoundRobinWithForfeits) {
  auto file = ReadEgf(ReadTestFile("egf/round_robin_forfeits.h9"));
  ASSERT_TRUE(file.ok()) << file.status();
  const Event& e = file->event;
  EXPECT_EQ(e.name, "Test Club Round Robin 2025");
  EXPECT_EQ(e.country, "CN");
  EXPECT_EQ(e.city, "Beijing");
  EXPECT_EQ(e.start.ToString(), "2025-05-01");
  EXPECT_EQ(e.end.ToString(), "2025-05-03");
  EXPECT_EQ(e.time.time_class, TimeClass::kB);
  EXPECT_EQ(e.rules.komi_x2, 15);
  EXPECT_EQ(e.rules.handicap_reduction, 9);
  EXPECT_EQ(e.time.adjusted_minutes, "75");
  EXPECT_EQ(e.time.system, "Japanese byo-yomi 60 min + 5x30s");
  EXPECT_EQ(e.format.rounds, 5);
  ASSERT_EQ(file->results.entrants.size(), 6u);
  const Entrant& first = file->results.entrants[0];
  EXPECT_EQ(first.family_name, "Qian");
  EXPECT_EQ(first.given_name, "Ming");
  EXPECT_EQ(first.rank->ToString(), "1d");
  EXPECT_EQ(first.club, "Bjng");
  EXPECT_EQ(first.egd_pin, "19990002");
  EXPECT_EQ(file->results.games.size(), 15u);  // 6 players x 5 rounds / 2
  int forfeits = 0;
  for (const Game& g : file->results.games) forfeits += g.forfeit ? 1 : 0;
  EXPECT_EQ(forfeits, 2);
  EXPECT_THAT(file->criteria_titles, ::testing::ElementsAre("NBW", "SBcn"));
}

TEST(EgfFormat, StandingsOfTheImportedRoundRobin) {
  auto file = ReadEgf(ReadTestFile("egf/round_robin_forfeits.h9"));
  ASSERT_TRUE(file.ok()) << file.status();
  file->event.format.kind = FormatKind::kRoundRobin;
  auto s = ComputeStandings(file->event, file->results);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->status, StandingsStatus::kFinal);
  // Hand-computed: points 2/1/0; A = beaten opponents' points + half the
  // drawn opponents' points (a forfeit win counts as a beaten opponent).
  struct Want {
    const char* name;
    int points;
    Rational a;
    int place;
  };
  const Want want[] = {
      {"Qian Ming", 7, Rational(29, 2), 1},  // beat 3,5,6 (6+4+2), drew 4 (5/2)
      {"Wu Fang", 6, Rational(16), 2},   // beat 3,1 (6+7), drew 6,5 (2/2+4/2)
      {"Zhao Lei", 6, Rational(11), 3},  // beat 5,6,4 (4+2+5)
      {"Zhou Jie", 5, Rational(23, 2), 4},  // beat 6,2 (2+6), drew 1 (7/2)
      {"Sun Li", 4, Rational(9), 5},        // beat 4 (5), drew 6,2 (2/2+6/2)
      {"Li Wei", 2, Rational(5), 6},        // drew 5,2 (4/2+6/2)
  };
  ASSERT_EQ(s->rows.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    SCOPED_TRACE(want[i].name);
    EXPECT_EQ(s->rows[i].name, want[i].name);
    EXPECT_EQ(s->rows[i].criteria[0], Rational(want[i].points));
    EXPECT_EQ(s->rows[i].criteria[1], want[i].a);
    EXPECT_EQ(s->rows[i].place, want[i].place);
  }
  EXPECT_EQ(s->entrants_played, 6);
}

TEST(EgfFormat, ExportReproducesTheFileAndIsStable) {
  const std::string original = ReadTestFile("egf/round_robin_forfeits.h9");
  auto file = ReadEgf(original);
  ASSERT_TRUE(file.ok()) << file.status();
  file->event.format.kind = FormatKind::kRoundRobin;
  auto s = ComputeStandings(file->event, file->results);
  ASSERT_TRUE(s.ok()) << s.status();
  auto first = WriteEgf(file->event, file->results, &*s, file->comments);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(*first, original);

  auto again = ReadEgf(*first);
  ASSERT_TRUE(again.ok()) << again.status();
  again->event.format.kind = FormatKind::kRoundRobin;
  auto s2 = ComputeStandings(again->event, again->results);
  ASSERT_TRUE(s2.ok()) << s2.status();
  auto second = WriteEgf(again->event, again->results, &*s2, again->comments);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(*second, *first);
}

TEST(EgfFormat, LenientReaderAcceptsCommonVariants) {
  // Blank place, rank without letter (= kyu), omitted handicap, "0=0",
  // trailing '!' forfeit form, a trailing comment, no header at all.
  const std::string text =
      "   1 Ma Xiao_Long   10 CN Shgh  2   2+/w    0=0 ; first\n"
      "     Lin Tao         2D CN Shgh  0   1-/b0   3+/b0!\n"
      "   3 Luo Jun         1k CN Shgh  0   0+     2-/w0!\n";
  auto file = ReadEgf(text);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->event.format.rounds, 2);
  EXPECT_EQ(file->results.entrants[0].given_name, "Xiao Long");
  EXPECT_EQ(file->results.entrants[0].rank->ToString(), "10k");
  EXPECT_EQ(file->results.entrants[1].rank->ToString(), "2d");
  ASSERT_EQ(file->results.games.size(), 2u);
  EXPECT_EQ(file->results.games[0].outcome,
            Outcome::kWhiteWins);  // 1 was white
  EXPECT_TRUE(file->results.games[1].forfeit);
  ASSERT_EQ(file->results.byes.size(),
            2u);  // 1 in round 2 (half), 3 in round 1
}

struct BadFile {
  const char* name;
  const char* text;
  std::vector<const char*> messages;
};

class EgfRefusal : public ::testing::TestWithParam<BadFile> {};

TEST_P(EgfRefusal, ReportsEveryProblemWithItsLine) {
  auto file = ReadEgf(GetParam().text);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  for (const char* m : GetParam().messages) {
    EXPECT_THAT(std::string(file.status().message()), HasSubstr(m));
  }
}

INSTANTIATE_TEST_SUITE_P(
    BadFiles, EgfRefusal,
    ::testing::Values(
        BadFile{"Asymmetric",
                "; EV[x]\n"
                "   1 A a  1d CN C   2+/w0\n"
                "   2 B b  1d CN C   1+/b0\n",
                {"line 2: round 1: game against row 2 (line 3): results do "
                 "not match"}},
        BadFile{"WrongRoundCount",
                "   1 A a  1d CN C   2+/w0   3+/b0\n"
                "   2 B b  1d CN C   1-/b0   3-/w0\n"
                "   3 C c  1d CN C   1-/w0\n",
                {"line 3: 1 round results, expected 2",
                 "line 1: round 2: names row 3 as opponent, but row 3 "
                 "(line 3) names row 0"}},
        BadFile{"UnknownOpponentRow",
                "   1 A a  1d CN C   2+/w0\n"
                "   2 B b  1d CN C   1-/b0\n"
                "   3 C c  1d CN C   7+/b0\n",
                {"line 3: round 1: unknown opponent row 7"}},
        BadFile{"BadRank",
                "   1 A a  1x CN C   2+/w0\n"
                "   2 B b  44d CN C  1-/b0\n",
                {"line 1: bad rank '1x'", "line 2: bad rank '44d'"}},
        BadFile{"SameColourAndBadHeader",
                "; KM[7.25]\n"
                "   1 A a  1d CN C   2+/w0\n"
                "   2 B b  1d CN C   1-/w0\n",
                {"line 1: KM[7.25]", "both sides played white"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(EgfFormat, RefusesToExportUnknownResults) {
  Event e;
  e.name = "x";
  EventResults r;
  for (int i = 1; i <= 2; ++i) {
    Entrant en;
    en.id = EntrantId{i};
    en.family_name = "P" + std::to_string(i);
    en.rank = registry::Rank::FromString("1d");
    r.entrants.push_back(en);
  }
  Game g;
  g.round = 1;
  g.black = EntrantId{1};
  g.white = EntrantId{2};
  r.games.push_back(g);
  auto out = WriteEgf(e, r, nullptr, {});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace gorank::tournaments
