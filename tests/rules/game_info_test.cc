#include "services/rules/go/game_info.h"

#include "gtest/gtest.h"

namespace gorank::rules::go {
namespace {

struct ReCase {
  std::string text;
  ResultKind kind;
  Color winner;
  WinReason reason;
  int margin_half_points;  // -1: no margin
};

class ResultSpellings : public testing::TestWithParam<ReCase> {};

TEST_P(ResultSpellings, Parsed) {
  const ReCase& c = GetParam();
  DeclaredResult r = ParseResult(c.text);
  EXPECT_EQ(r.kind, c.kind) << c.text;
  EXPECT_EQ(r.winner, c.winner) << c.text;
  EXPECT_EQ(r.reason, c.reason) << c.text;
  EXPECT_EQ(r.has_margin, c.margin_half_points >= 0) << c.text;
  if (c.margin_half_points >= 0) {
    EXPECT_EQ(r.margin_half_points, c.margin_half_points) << c.text;
  }
}

constexpr Color B = Color::kBlack, W = Color::kWhite, N = Color::kEmpty;
constexpr ResultKind kWin = ResultKind::kWin;
INSTANTIATE_TEST_SUITE_P(
    Go, ResultSpellings,
    testing::Values(
        ReCase{"B+R", kWin, B, WinReason::kResignation, -1},
        ReCase{"W+Resign", kWin, W, WinReason::kResignation, -1},
        ReCase{" b+resign ", kWin, B, WinReason::kResignation, -1},
        ReCase{"B+3.5", kWin, B, WinReason::kScore, 7},
        ReCase{"W+64", kWin, W, WinReason::kScore, 128},
        ReCase{"B+T", kWin, B, WinReason::kTime, -1},
        ReCase{"W+Time", kWin, W, WinReason::kTime, -1},
        ReCase{"B+F", kWin, B, WinReason::kForfeit, -1},
        ReCase{"White+2.5", kWin, W, WinReason::kScore, 5},
        ReCase{"B+", kWin, B, WinReason::kUnspecified, -1},
        ReCase{"0", ResultKind::kDraw, N, WinReason::kUnspecified, -1},
        ReCase{"Draw", ResultKind::kDraw, N, WinReason::kUnspecified, -1},
        ReCase{"Jigo", ResultKind::kDraw, N, WinReason::kUnspecified, -1},
        ReCase{"Void", ResultKind::kVoid, N, WinReason::kUnspecified, -1},
        ReCase{"?", ResultKind::kUnknown, N, WinReason::kUnspecified, -1},
        ReCase{"", ResultKind::kAbsent, N, WinReason::kUnspecified, -1},
        ReCase{"黑中盘胜", kWin, B, WinReason::kResignation, -1},
        ReCase{"白中押勝", kWin, W, WinReason::kResignation, -1},
        ReCase{"黑不计点胜", kWin, B, WinReason::kResignation, -1},
        ReCase{"白胜1/4子", kWin, W, WinReason::kScore, 1},
        ReCase{"黑胜3又3/4子", kWin, B, WinReason::kScore, 15},
        ReCase{"白胜1又1/4子", kWin, W, WinReason::kScore, 5},
        ReCase{"黑胜半子", kWin, B, WinReason::kScore, 2},
        ReCase{"白胜2子", kWin, W, WinReason::kScore, 8},
        ReCase{"白胜43.5目", kWin, W, WinReason::kScore, 87},
        ReCase{"黑胜1目半", kWin, B, WinReason::kScore, 3},
        ReCase{"黑超时负", kWin, W, WinReason::kTime, -1},
        ReCase{"白超时胜", kWin, W, WinReason::kTime, -1},
        ReCase{"黑弃权负", kWin, W, WinReason::kForfeit, -1},
        ReCase{"黑胜", kWin, B, WinReason::kUnspecified, -1},
        ReCase{"和棋", ResultKind::kDraw, N, WinReason::kUnspecified, -1},
        ReCase{"无胜负", ResultKind::kVoid, N, WinReason::kUnspecified, -1},
        ReCase{"B+lots", ResultKind::kUnparsed, N, WinReason::kUnspecified, -1},
        ReCase{"won", ResultKind::kUnparsed, N, WinReason::kUnspecified, -1}));

struct KomiCase {
  std::string text;
  int half_points;
  bool note;
};

class KomiSpellings : public testing::TestWithParam<KomiCase> {};

TEST_P(KomiSpellings, Read) {
  absl::StatusOr<Komi> k = ReadKomi(GetParam().text);
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_EQ(k->half_points, GetParam().half_points) << GetParam().text;
  EXPECT_EQ(!k->note.empty(), GetParam().note) << k->note;
}

INSTANTIATE_TEST_SUITE_P(
    Go, KomiSpellings,
    testing::Values(KomiCase{"7.5", 15, false}, KomiCase{"6.5", 13, false},
                    KomiCase{"0", 0, false}, KomiCase{"-5.5", -11, false},
                    KomiCase{"0.5", 1, false}, KomiCase{"375", 15, true},
                    KomiCase{"750", 15, true}, KomiCase{"275", 11, true},
                    KomiCase{"650", 13, true}, KomiCase{"350", 14, true},
                    KomiCase{"50", 1, true}, KomiCase{"3.75", 15, true},
                    KomiCase{"2.75", 11, true}));

TEST(ReadKomi, RefusesNonsense) {
  EXPECT_EQ(ReadKomi("seven").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadKomi("0.3").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadKomi("").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ReadKomi, NoteSaysWhatWasRead) {
  absl::StatusOr<Komi> k = ReadKomi("375");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->note,
            "KM[375] read on the Fox scale as 3.75 stones (Chinese komi in 子) "
            "= 7.5 points");
}

}  // namespace
}  // namespace gorank::rules::go
