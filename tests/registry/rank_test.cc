#include "services/registry/rank.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::registry {
namespace {

struct ParseCase {
  std::string text;
  Ladder ladder;
  int level;
};

void PrintTo(const ParseCase& c, std::ostream* os) {
  *os << "'" << c.text << "'";
}

class RankParseTest : public ::testing::TestWithParam<ParseCase> {};

TEST_P(RankParseTest, ParsesToLadderAndLevel) {
  const ParseCase& c = GetParam();
  absl::StatusOr<Rank> r = Rank::Parse(c.text);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ladder(), c.ladder);
  EXPECT_EQ(r->level(), c.level);
}

INSTANTIATE_TEST_SUITE_P(
    EveryNotation, RankParseTest,
    ::testing::Values(
        // kyu
        ParseCase{"5k", Ladder::kKyu, 5}, ParseCase{"5K", Ladder::kKyu, 5},
        ParseCase{"5 kyu", Ladder::kKyu, 5}, ParseCase{"5kyu", Ladder::kKyu, 5},
        ParseCase{"5级", Ladder::kKyu, 5}, ParseCase{"五级", Ladder::kKyu, 5},
        ParseCase{"十五级", Ladder::kKyu, 15},
        ParseCase{"二十级", Ladder::kKyu, 20},
        ParseCase{"三十级", Ladder::kKyu, 30},
        ParseCase{"二十五级", Ladder::kKyu, 25},
        ParseCase{"业余5级", Ladder::kKyu, 5},
        ParseCase{"30k", Ladder::kKyu, 30}, ParseCase{"1k", Ladder::kKyu, 1},
        ParseCase{"10k", Ladder::kKyu, 10},
        // amateur dan
        ParseCase{"3d", Ladder::kAmateurDan, 3},
        ParseCase{"3D", Ladder::kAmateurDan, 3},
        ParseCase{"3 dan", Ladder::kAmateurDan, 3},
        ParseCase{"业余3段", Ladder::kAmateurDan, 3},
        ParseCase{"业余三段", Ladder::kAmateurDan, 3},
        ParseCase{"业余初段", Ladder::kAmateurDan, 1},
        ParseCase{"1d", Ladder::kAmateurDan, 1},
        ParseCase{"7d", Ladder::kAmateurDan, 7},
        ParseCase{"8d", Ladder::kAmateurDan, 8},  // honorary
        ParseCase{"业余8段", Ladder::kAmateurDan, 8},
        // professional dan
        ParseCase{"9p", Ladder::kProDan, 9},
        ParseCase{"9P", Ladder::kProDan, 9},
        ParseCase{"1p", Ladder::kProDan, 1},
        ParseCase{"职业九段", Ladder::kProDan, 9},
        ParseCase{"职业9段", Ladder::kProDan, 9},
        ParseCase{"职业初段", Ladder::kProDan, 1},
        ParseCase{"初段", Ladder::kProDan, 1},
        ParseCase{"九段", Ladder::kProDan, 9},
        ParseCase{"五段", Ladder::kProDan, 5},
        // surrounding white space is ignored
        ParseCase{"  3d ", Ladder::kAmateurDan, 3},
        ParseCase{"\t5k\t", Ladder::kKyu, 5},
        ParseCase{" 职业九段 ", Ladder::kProDan, 9}));

class RankRejectTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RankRejectTest, IsInvalidArgumentNamingTheText) {
  const std::string& text = GetParam();
  absl::StatusOr<Rank> r = Rank::Parse(text);
  ASSERT_FALSE(r.ok()) << "'" << text << "' parsed as " << r->ToString();
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  // The message quotes the input and shows the accepted forms.
  EXPECT_NE(r.status().message().find("'" + text + "'"),
            absl::string_view::npos)
      << r.status();
  EXPECT_NE(r.status().message().find("5k"), absl::string_view::npos)
      << r.status();
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, RankRejectTest,
    ::testing::Values("0k", "31k", "9d", "0d", "10p", "0p", "3x", "", "   ",
                      "业余", "职业", "职业5级", "3 d d", "d", "k", "p", "-3k",
                      "3.5k", "100k", "kyu", "三十一级", "零级", "职业十段",
                      "业余九段", "五", "3", "三段级", "k5", "3 d 3",
                      "３d",  // full-width digit
                      "十十级", "三d", "5dan5", "业余3"));

TEST(RankTest, CreateChecksEachLadderRange) {
  struct Case {
    Ladder ladder;
    int level;
    bool ok;
  };
  for (const Case& c : std::vector<Case>{{Ladder::kKyu, 1, true},
                                         {Ladder::kKyu, 30, true},
                                         {Ladder::kKyu, 0, false},
                                         {Ladder::kKyu, 31, false},
                                         {Ladder::kAmateurDan, 1, true},
                                         {Ladder::kAmateurDan, 8, true},
                                         {Ladder::kAmateurDan, 9, false},
                                         {Ladder::kAmateurDan, -1, false},
                                         {Ladder::kProDan, 9, true},
                                         {Ladder::kProDan, 10, false},
                                         {Ladder::kProDan, 0, false}}) {
    absl::StatusOr<Rank> r = Rank::Create(c.ladder, c.level);
    EXPECT_EQ(r.ok(), c.ok) << static_cast<int>(c.ladder) << "/" << c.level;
    if (!c.ok) {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    } else {
      EXPECT_EQ(r->level(), c.level);
      EXPECT_EQ(r->ladder(), c.ladder);
    }
  }
}

TEST(RankTest, FormatsCanonicallyAndInChinese) {
  struct Case {
    const char* in;
    const char* text;
    const char* chinese;
  };
  for (const Case& c : std::vector<Case>{{"5级", "5k", "5级"},
                                         {"30k", "30k", "30级"},
                                         {"业余三段", "3d", "业余3段"},
                                         {"8d", "8d", "业余8段"},
                                         {"初段", "1p", "职业初段"},
                                         {"9P", "9p", "职业九段"},
                                         {"职业5段", "5p", "职业五段"}}) {
    const Rank r = Rank::FromString(c.in);
    EXPECT_EQ(r.ToString(), c.text) << c.in;
    EXPECT_EQ(r.ToChinese(), c.chinese) << c.in;
  }
}

// Every rank of every ladder.
std::vector<Rank> AllRanks() {
  std::vector<Rank> out;
  for (int k = 30; k >= 1; --k) out.push_back(*Rank::Create(Ladder::kKyu, k));
  for (int d = 1; d <= 8; ++d)
    out.push_back(*Rank::Create(Ladder::kAmateurDan, d));
  for (int p = 1; p <= 9; ++p) out.push_back(*Rank::Create(Ladder::kProDan, p));
  return out;
}

TEST(RankTest, EveryRankRoundTripsThroughBothNotations) {
  const std::vector<Rank> all = AllRanks();
  ASSERT_EQ(all.size(), 47u);
  for (const Rank& r : all) {
    absl::StatusOr<Rank> latin = Rank::Parse(r.ToString());
    ASSERT_TRUE(latin.ok()) << r.ToString() << ": " << latin.status();
    EXPECT_EQ(*latin, r);
    absl::StatusOr<Rank> chinese = Rank::Parse(r.ToChinese());
    ASSERT_TRUE(chinese.ok()) << r.ToChinese() << ": " << chinese.status();
    EXPECT_EQ(*chinese, r) << r.ToChinese();
  }
}

TEST(RankTest, TotalOrderAcrossLadders) {
  const std::vector<std::string> ascending = {"30k", "15k", "1k", "1d", "7d",
                                              "8d",  "1p",  "5p", "9p"};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      const Rank a = Rank::FromString(ascending[i]);
      const Rank b = Rank::FromString(ascending[j]);
      EXPECT_EQ(a < b, i < j) << ascending[i] << " vs " << ascending[j];
      EXPECT_EQ(a == b, i == j) << ascending[i] << " vs " << ascending[j];
    }
  }
  // AllRanks() lists them weakest first: the order is strict and total.
  const std::vector<Rank> all = AllRanks();
  for (size_t i = 1; i < all.size(); ++i) {
    EXPECT_LT(all[i - 1], all[i])
        << all[i - 1].ToString() << " " << all[i].ToString();
  }
}

TEST(RankTest, OrdinalsAreTheDocumentedIntegers) {
  struct Case {
    const char* rank;
    int ordinal;
  };
  for (const Case& c : std::vector<Case>{{"30k", -29},
                                         {"2k", -1},
                                         {"1k", 0},
                                         {"1d", 1},
                                         {"8d", 8},
                                         {"1p", 101},
                                         {"9p", 109}}) {
    EXPECT_EQ(Rank::FromString(c.rank).Ordinal(), c.ordinal) << c.rank;
  }
  for (const Rank& r : AllRanks()) {
    absl::StatusOr<Rank> back = Rank::FromOrdinal(r.Ordinal());
    ASSERT_TRUE(back.ok()) << r.ToString();
    EXPECT_EQ(*back, r);
  }
}

TEST(RankTest, FromOrdinalRejectsTheGaps) {
  for (int bad : {-30, -1000, 9, 50, 100, 110, 1000}) {
    EXPECT_EQ(Rank::FromOrdinal(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(RankTest, LadderPredicates) {
  EXPECT_TRUE(Rank::FromString("5k").IsKyu());
  EXPECT_TRUE(Rank::FromString("5k").IsAmateur());
  EXPECT_TRUE(Rank::FromString("3d").IsAmateurDan());
  EXPECT_TRUE(Rank::FromString("8d").IsAmateur());
  EXPECT_TRUE(Rank::FromString("1p").IsPro());
  EXPECT_FALSE(Rank::FromString("1p").IsAmateur());
}

TEST(RankDeathTest, FromStringAbortsOnBadText) {
  EXPECT_DEATH(Rank::FromString("3x"), "");
}

}  // namespace
}  // namespace gorank::registry
