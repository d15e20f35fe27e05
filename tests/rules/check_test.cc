// The record check, rule by rule (SPEC section 7 and its readings).
#include "services/rules/go/check.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::rules::go {
namespace {

GameReport CheckOne(const std::string& sgf,
                    const CheckOptions& options = CheckOptions()) {
  absl::StatusOr<std::vector<GameReport>> reports = CheckRecords(sgf, options);
  EXPECT_TRUE(reports.ok()) << reports.status();
  if (!reports.ok() || reports->empty()) return GameReport();
  return reports->front();
}

std::string Violations(const GameReport& r) {
  std::string out;
  for (const Violation& v : r.violations) {
    if (!out.empty()) out += ",";
    out += std::to_string(v.move_number) + ":" + ViolationName(v.kind);
    if (v.kind == ViolationKind::kSuperko)
      out += "@" + std::to_string(v.repeats_move);
  }
  return out.empty() ? "-" : out;
}

// A ko shape with its top-left corner at (ox, oy): state 'a' = white holds
// the ko stone, 'b' = black has taken it.
std::string Ko(int ox, int oy, char state) {
  auto pt = [](int c, int r) { return "[" + ToSgf(Point{c, r}) + "]"; };
  std::string black = pt(ox + 1, oy) + pt(ox, oy + 1) + pt(ox + 1, oy + 2);
  std::string white = pt(ox + 2, oy) + pt(ox + 3, oy + 1) + pt(ox + 2, oy + 2);
  if (state == 'a') white += pt(ox + 1, oy + 1);
  if (state == 'b') black += pt(ox + 2, oy + 1);
  return "AB" + black + "AW" + white;
}

struct RuleCase {
  const char* name;
  std::string sgf;
  KoRule ko_rule;
  std::string violations;  // "move:kind[@repeats]" list or "-"
};

class Rules : public testing::TestWithParam<RuleCase> {};

TEST_P(Rules, ReportsExactlyTheseViolations) {
  const RuleCase& c = GetParam();
  CheckOptions options;
  options.ko_rule = c.ko_rule;
  GameReport r = CheckOne(c.sgf, options);
  EXPECT_EQ(Violations(r), c.violations);
  EXPECT_EQ(r.failed(), c.violations != "-");
}

constexpr KoRule kSsk = KoRule::kSituationalSuperko;
constexpr KoRule kPsk = KoRule::kPositionalSuperko;
constexpr KoRule kSimple = KoRule::kSimple;
constexpr KoRule kCycles = KoRule::kCyclesReported;

// Two kos; black has taken the right one, white to move. W retakes right,
// B takes left, W passes, B retakes right, W retakes left: the board of the
// start comes back with black to move. Black never faced it (situational:
// legal); the board repeats (positional: superko).
const std::string kDoubleKo = "(;SZ[9]" + Ko(0, 0, 'a') + Ko(5, 0, 'b') +
                              "PL[W];W[gb];B[cb];W[];B[hb];W[bb])";
// Three kos taken in rotation: after 6 moves the start position returns
// with the same side to move.
const std::string kTripleKo = "(;SZ[9]" + Ko(0, 0, 'a') + Ko(5, 0, 'a') +
                              Ko(0, 6, 'b') +
                              "PL[B];B[cb];W[bh];B[hb];W[bb];B[ch];W[gb])";

INSTANTIATE_TEST_SUITE_P(
    Go, Rules,
    testing::Values(
        RuleCase{"SingleStoneSuicide", "(;SZ[9]AW[ba][ab]PL[B];B[aa])", kSsk,
                 "1:suicide"},
        RuleCase{"MultiStoneSuicide", "(;SZ[9]AB[aa]AW[ca][ab][bb]PL[B];B[ba])",
                 kSsk, "1:suicide"},
        RuleCase{"CaptureBeforeSuicideTest",
                 "(;SZ[9]AB[da][bb][cb]AW[ba][ca][ab]PL[B];B[aa])", kSsk, "-"},
        RuleCase{"Snapback",
                 "(;SZ[9]AB[ca][cb][bc][ac]AW[ba][bb]PL[B];B[aa];W[ab];B[aa])",
                 kSsk, "-"},
        RuleCase{"ImmediateKoUnderEveryRule",
                 "(;SZ[9]" + Ko(0, 0, 'a') + "PL[B];B[cb];W[bb])", kSimple,
                 "2:ko"},
        RuleCase{"ImmediateKoIsKoNotSuperko",
                 "(;SZ[9]" + Ko(0, 0, 'a') + "PL[B];B[cb];W[bb])", kPsk,
                 "2:ko"},
        RuleCase{"KoAfterThreat",
                 "(;SZ[9]" + Ko(0, 0, 'a') + "PL[B];B[cb];W[ii];B[ih];W[bb])",
                 kSsk, "-"},
        RuleCase{"KoBanLapsesAfterPassSimpleKo",
                 "(;SZ[9]" + Ko(0, 0, 'a') + "PL[B];B[cb];W[];B[gg];W[bb])",
                 kSimple, "-"},
        RuleCase{"SituationalAllowsDoubleKoReturn", kDoubleKo, kSsk, "-"},
        RuleCase{"PositionalForbidsDoubleKoReturn", kDoubleKo, kPsk,
                 "5:superko@0"},
        RuleCase{"TripleKoIsSuperko", kTripleKo, kSsk, "6:superko@0"},
        RuleCase{"TripleKoUnderSimpleKo", kTripleKo, kSimple, "-"},
        RuleCase{"TripleKoCyclesReportedNotViolations", kTripleKo, kCycles,
                 "-"},
        RuleCase{"OccupiedPoint", "(;SZ[9];B[ee];W[ee];B[dd])", kSsk,
                 "2:occupied"},
        RuleCase{"DoubleMove", "(;SZ[9];B[ee];W[cc];B[gg];B[gc];W[cg])", kSsk,
                 "4:double_move"},
        RuleCase{"PassOutOfTurn", "(;SZ[9];B[ee];B[];W[cc])", kSsk,
                 "2:double_move"},
        RuleCase{"WhiteFirstInEvenGame", "(;SZ[9];W[ee];B[cc];W[gg])", kSsk,
                 "1:white_first"},
        RuleCase{"WhiteFirstAfterHandicapStones",
                 "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[cg])", kSsk, "-"},
        RuleCase{"HandicapStonesPlayedAsMoves",
                 "(;SZ[9]HA[2];B[cc];B[gg];W[ee];B[cg])", kSsk, "-"},
        RuleCase{"MovesAfterTwoPasses", "(;SZ[9];B[ee];W[];B[];W[cc];B[dd])",
                 kSsk, "4:after_end,5:after_end"},
        RuleCase{"VoidMoveIsForfeitedTurn",
                 "(;SZ[9]AW[ba][ab]PL[B];B[aa];W[ee];B[cc])", kSsk,
                 "1:suicide"},
        RuleCase{"TtIsPassOn19", "(;SZ[19];B[pd];W[tt];B[dp];W[];B[])", kSsk,
                 "-"}),
    [](const testing::TestParamInfo<RuleCase>& info) {
      return info.param.name;
    });

TEST(Check, ViolationCarriesArticleAndPenalty) {
  GameReport r = CheckOne("(;SZ[9]" + Ko(0, 0, 'a') + "PL[B];B[cb];W[bb])");
  ASSERT_EQ(r.violations.size(), 1u);
  const Violation& v = r.violations[0];
  EXPECT_EQ(v.color, Color::kWhite);
  EXPECT_EQ(ToSgf(v.point), "bb");
  EXPECT_TRUE(v.move_void);
  EXPECT_TRUE(v.turn_forfeited);
  EXPECT_TRUE(v.warning);
  EXPECT_NE(v.article.find("第20条第1款"), std::string::npos);
  EXPECT_NE(v.article.find("第18条第3款"), std::string::npos);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.white_warnings, 1);
  // The ko stone stays black: the recapture was void.
  EXPECT_EQ(r.final_position[1].substr(0, 4), "X.XO");
}

TEST(Check, SuperkoNamesTheRepeatedMove) {
  CheckOptions options;
  options.ko_rule = KoRule::kPositionalSuperko;
  GameReport r = CheckOne(kDoubleKo, options);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].repeats_move, 0);
  EXPECT_NE(r.violations[0].description.find("after move 0"),
            std::string::npos);
}

TEST(Check, CycleReportedWithTheEventRuling) {
  CheckOptions options;
  options.ko_rule = KoRule::kCyclesReported;
  options.cycle_ruling = CycleRuling::kDraw;
  GameReport r = CheckOne(kTripleKo, options);
  ASSERT_TRUE(r.cycle.has_value());
  EXPECT_EQ(r.cycle->move_number, 6);
  EXPECT_EQ(r.cycle->repeats_move, 0);
  EXPECT_EQ(r.outcome.kind, OutcomeKind::kDraw);
  EXPECT_EQ(r.outcome.basis, OutcomeBasis::kCycle);
}

TEST(Check, DoubleMoveGivesWarningAndTwoWarningsLose) {
  // Black moves twice (warning 1) and is warned by the referee (warning 2).
  GameReport r = CheckOne(
      "(;SZ[9]KM[7.5]RE[B+R];B[ee];W[cc];B[gg];B[gc]WARNB[phone rang];W[cg])");
  EXPECT_EQ(r.black_warnings, 2);
  EXPECT_EQ(r.two_warning_loser, Color::kBlack);
  EXPECT_EQ(r.outcome.kind, OutcomeKind::kWin);
  EXPECT_EQ(r.outcome.winner, Color::kWhite);
  EXPECT_EQ(r.outcome.basis, OutcomeBasis::kTwoWarnings);
  EXPECT_EQ(r.result_check, ResultCheck::kNotCompared);  // B+R: legality only
  ASSERT_EQ(r.warnings.size(), 2u);
  // A node's WARNB/WARNW come before the warning its move earns.
  EXPECT_EQ(r.warnings[0].source, WarningSource::kRecord);
  EXPECT_EQ(r.warnings[0].reason, "phone rang");
  EXPECT_EQ(r.warnings[0].move_number, 4);
  EXPECT_EQ(r.warnings[1].source, WarningSource::kViolation);
  EXPECT_EQ(r.warnings[1].reason, "double_move");
}

TEST(Check, WarningCostsOneStoneInTheCount) {
  // 2x2 board, black owns everything: 4 points, par 2, komi 0.
  const std::string sgf = "(;SZ[2]KM[0]AB[aa][bb];B[];W[])";
  GameReport plain = CheckOne(sgf);
  EXPECT_EQ(plain.count.margin_half_points, 8);  // B+4
  CheckOptions options;
  options.black_warnings = 1;
  GameReport warned = CheckOne(sgf, options);
  EXPECT_EQ(warned.count.margin_half_points, 4);  // B+2: one stone = 2 points
  EXPECT_EQ(warned.count.result, "B+2");
  EXPECT_EQ(warned.warnings[0].source, WarningSource::kRequest);
}

TEST(Check, SekiAndSharedPointsCountHalfEach) {
  GameReport r = CheckOne(
      "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RU[Chinese]RE[W+12.5]"
      "AB[da][ga][ha][ia][db][gb][hb][dc][ec][gc][hc][ic][fd][gd][hd][id][fe]["
      "ge][he][ie]"
      "[ff][gf][hf][if][fg][gg][ig][fh][gh][hh][ih][fi][gi][hi][ii]"
      "AW[aa][ba][ca][fa][bb][cb][fb][ac][bc][cc][fc][ad][bd][cd][dd][ed][ae]["
      "be][ce][de]"
      "[ee][af][bf][cf][df][ef][ag][cg][dg][eg][ah][bh][ch][dh][eh][ai][bi][ci]"
      "[di][ei]"
      "PL[B];B[];W[])");
  EXPECT_EQ(r.count.black_stones, 35);
  EXPECT_EQ(r.count.white_stones, 40);
  EXPECT_EQ(r.count.shared_points, 2);    // the two seki liberties ea, eb
  EXPECT_EQ(r.count.black_area, 35 + 2);  // eyes at ib and hg
  EXPECT_EQ(r.count.white_area, 40 + 2);  // eyes at ab and bg
  // 2*37 + 2 - (2*42 + 2) - 15 = -25 half points.
  EXPECT_EQ(r.count.margin_half_points, -25);
  EXPECT_EQ(r.count.result, "W+12.5");
  EXPECT_EQ(r.count.chinese, "白胜6又1/4子");
  EXPECT_EQ(r.result_check, ResultCheck::kAgrees);
}

TEST(Check, HandicapCompensationAndKomi) {
  // Black owns 41 of 81 points: 2*41-81 = +1; HA[2] returns 2 points: W+1.
  GameReport r = CheckOne(
      "(;SZ[9]HA[2]KM[0]RE[W+1]AB[aa][ba][ca][da][ea][ab][bb][cb][db][eb][ac]["
      "bc][cc][dc]"
      "[ec][ad][bd][cd][dd][ed][ae][be][ce][de][ee][af][bf][cf][df][ag][bg][cg]"
      "[dg][ah][bh]"
      "[ch][dh][ai][bi][ci][di]AW[fa][ga][ha][ia][fb][gb][hb][ib][fc][gc][hc]["
      "ic][fd][gd][hd]"
      "[id][fe][ge][he][ie][ef][ff][gf][hf][if][eg][fg][gg][hg][ig][eh][fh][gh]"
      "[hh][ih][ei]"
      "[fi][gi][hi][ii];W[];B[])");
  EXPECT_EQ(r.count.black_area, 41);
  EXPECT_EQ(r.count.handicap_half_points, 4);
  EXPECT_EQ(r.count.result, "W+1");
  EXPECT_EQ(r.count.chinese, "白胜1/2子");
  EXPECT_EQ(r.result_check, ResultCheck::kAgrees);
}

struct KomiCase {
  const char* name;
  std::string root;  // root properties
  int komi_half_points;
  bool note;
};

class KomiTable : public testing::TestWithParam<KomiCase> {};

TEST_P(KomiTable, KomiApplied) {
  GameReport r = CheckOne("(;SZ[9]" + GetParam().root + ";B[ee])");
  EXPECT_EQ(r.count.komi_half_points, GetParam().komi_half_points);
  EXPECT_EQ(!r.notes.empty(), GetParam().note);
}

INSTANTIATE_TEST_SUITE_P(
    Go, KomiTable,
    testing::Values(KomiCase{"Plain", "KM[7.5]", 15, false},
                    KomiCase{"Missing", "", 15, true},
                    KomiCase{"FoxScale", "KM[375]", 15, true},
                    KomiCase{"GoGoDStones", "KM[3.75]", 15, true},
                    KomiCase{"Fox550", "KM[550]", 11, true},
                    KomiCase{"HandicapOneNoKomi", "HA[1]KM[7.5]", 0, true},
                    KomiCase{"HandicapTwoNoKm", "HA[2]AB[cc][gg]", 0, true}),
    [](const testing::TestParamInfo<KomiCase>& info) {
      return info.param.name;
    });

TEST(Check, DeadStonesFromTerritoryMarkup) {
  // 5x5: black wall on column c, a dead white stone at ea in black's area.
  const std::string base =
      "(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce][da]AW[ba][bb][bc][bd][be][ea];B[];W["
      "]";
  GameReport alive = CheckOne(base + ")");
  EXPECT_TRUE(alive.dead_stones.empty());
  GameReport marked = CheckOne(
      base + "TB[ea][eb][ec][ed][ee][db][dc][dd][de]TW[aa][ab][ac][ad][ae])");
  ASSERT_EQ(marked.dead_stones.size(), 1u);
  EXPECT_EQ(ToSgf(marked.dead_stones[0]), "ea");
  EXPECT_EQ(marked.dead_stones_source, "record");
  EXPECT_EQ(marked.count.black_area, 15);
  EXPECT_EQ(marked.count.white_area, 10);
  EXPECT_EQ(marked.count.result, "B+5");
  CheckOptions options;
  options.dead_stones = std::vector<Point>{Point{4, 0}};
  GameReport requested = CheckOne(base + ")", options);
  EXPECT_EQ(requested.dead_stones_source, "request");
  EXPECT_EQ(requested.count.result, "B+5");
  options.dead_stones = std::vector<Point>{Point{9, 9}};
  EXPECT_EQ(CheckRecords(base + ")", options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Check, JapaneseTerritoryCounting) {
  // Same position: territory black 9 + 1 prisoner (the dead stone), white 5.
  const std::string sgf =
      "(;SZ[5]AB[ca][cb][cc][cd][ce][da]AW[ba][bb][bc][bd][be][ea];B[];W[]"
      "TB[ea][eb][ec][ed][ee][db][dc][dd][de]TW[aa][ab][ac][ad][ae])";
  CheckOptions options;
  options.ruleset = Ruleset::kJapanese;
  GameReport r = CheckOne(sgf, options);
  EXPECT_EQ(r.count.method, ScoringMethod::kTerritory);
  EXPECT_EQ(r.count.black_territory, 9);
  EXPECT_EQ(r.count.black_prisoners, 1);
  EXPECT_EQ(r.count.white_territory, 5);
  EXPECT_EQ(r.count.komi_half_points, 13);  // 6.5 by default
  EXPECT_EQ(r.count.result, "W+1.5");       // 9 + 1 - 5 - 6.5
}

struct ResultCase {
  const char* name;
  std::string re;
  ResultCheck expected;
};

class DeclaredResults : public testing::TestWithParam<ResultCase> {};

// 2x2, komi 0.5, black owns everything: B+3.5.
TEST_P(DeclaredResults, ComparedWithTheCount) {
  GameReport r =
      CheckOne("(;SZ[2]KM[0.5]RE[" + GetParam().re + "]AB[aa][bb];B[];W[])");
  ASSERT_EQ(r.count.result, "B+3.5");
  EXPECT_EQ(r.result_check, GetParam().expected) << r.result_check_detail;
}

INSTANTIATE_TEST_SUITE_P(
    Go, DeclaredResults,
    testing::Values(
        ResultCase{"ExactPoints", "B+3.5", ResultCheck::kAgrees},
        ResultCase{"ChineseStones", "黑胜1又3/4子", ResultCheck::kAgrees},
        ResultCase{"WinnerOnly", "B+", ResultCheck::kAgrees},
        ResultCase{"WrongMargin", "B+1.5", ResultCheck::kContradicted},
        ResultCase{"WrongWinner", "W+3.5", ResultCheck::kContradicted},
        ResultCase{"Draw", "0", ResultCheck::kContradicted},
        ResultCase{"Resignation", "W+R", ResultCheck::kNotCompared},
        ResultCase{"ChineseResignation", "白中盘胜", ResultCheck::kNotCompared},
        ResultCase{"Time", "W+T", ResultCheck::kNotCompared},
        ResultCase{"Void", "Void", ResultCheck::kNotCompared},
        ResultCase{"Unknown", "?", ResultCheck::kNotDeclared},
        ResultCase{"Garbage", "black won, I think", ResultCheck::kNotDeclared}),
    [](const testing::TestParamInfo<ResultCase>& info) {
      return info.param.name;
    });

TEST(Check, GameEndsFromTheRecord) {
  EXPECT_EQ(CheckOne("(;SZ[9]RE[B+R];B[ee];W[cc])").end, GameEnd::kResignation);
  EXPECT_EQ(CheckOne("(;SZ[9]RE[W+T];B[ee];W[cc])").end, GameEnd::kTime);
  EXPECT_EQ(CheckOne("(;SZ[9]RE[W+F])").end, GameEnd::kForfeit);
  GameReport agreed = CheckOne("(;SZ[9]RE[W+7.5];B[ee];W[cc])");
  EXPECT_EQ(agreed.end, GameEnd::kAgreement);
  EXPECT_EQ(agreed.end_move, 2);
  EXPECT_EQ(CheckOne("(;SZ[9];B[ee];W[cc])").end, GameEnd::kUnfinished);
}

TEST(Check, TtIsAMoveAbove19) {
  GameReport r = CheckOne("(;SZ[21];B[tt])");
  EXPECT_EQ(r.final_position[19][19], 'X');
}

TEST(Check, ChosenVariationIsReplayed) {
  const std::string sgf = "(;SZ[9]AW[ba][ab]PL[B](;B[ee])(;B[aa]))";
  EXPECT_EQ(Violations(CheckOne(sgf)), "-");
  CheckOptions options;
  options.variation = {1};
  EXPECT_EQ(Violations(CheckOne(sgf, options)), "1:suicide");
}

TEST(Check, CollectionGivesOneReportPerGame) {
  absl::StatusOr<std::vector<GameReport>> reports = CheckRecords(
      "(;SZ[9];B[ee])(;SZ[9];W[ee])(;SZ[13];B[gg])", CheckOptions());
  ASSERT_TRUE(reports.ok()) << reports.status();
  ASSERT_EQ(reports->size(), 3u);
  EXPECT_FALSE((*reports)[0].failed());
  EXPECT_TRUE((*reports)[1].failed());
  EXPECT_EQ((*reports)[2].record.size, 13);
  EXPECT_EQ((*reports)[2].game_index, 2);
}

struct BadRecord {
  const char* name;
  std::string sgf;
  std::string message_part;
};

class MalformedRecords : public testing::TestWithParam<BadRecord> {};

TEST_P(MalformedRecords, InvalidArgumentWithOffset) {
  absl::Status status = CheckRecords(GetParam().sgf, CheckOptions()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find(GetParam().message_part), std::string::npos)
      << status;
}

INSTANTIATE_TEST_SUITE_P(
    Go, MalformedRecords,
    testing::Values(
        BadRecord{"OffBoardMove", "(;SZ[9];B[ee];W[jj])",
                  "byte offset 15: point 'jj' is off the 9x9 board"},
        BadRecord{"OffBoard21", "(;SZ[21];B[tt];W[vv])", "off the 21x21 board"},
        BadRecord{"NonSquare", "(;SZ[19:13];B[aa])",
                  "non-square boards are not supported"},
        BadRecord{"TooLarge", "(;SZ[26])", "board sizes 2..25"},
        BadRecord{"NotGo", "(;GM[4]SZ[15])", "not a Go record"},
        BadRecord{"BadPoint", "(;SZ[9];B[e])", "not an SGF point"},
        BadRecord{"BothColours", "(;SZ[9];B[aa]W[bb])",
                  "a node holds two moves"},
        BadRecord{"BadKomi", "(;SZ[9]KM[seven])", "not a number"},
        BadRecord{"SecondGameNamed", "(;SZ[9])(;SZ[9];B[zz])", "game 1: "}),
    [](const testing::TestParamInfo<BadRecord>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace gorank::rules::go
