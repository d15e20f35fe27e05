#include "services/tournaments/rational.h"

#include "gtest/gtest.h"

namespace gorank::tournaments {
namespace {

struct Case {
  Rational value;
  const char* text;
};

class RationalToString : public ::testing::TestWithParam<Case> {};

TEST_P(RationalToString, ExactDecimalOrFraction) {
  EXPECT_EQ(GetParam().value.ToString(), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(All, RationalToString,
                         ::testing::Values(Case{Rational(7), "7"},
                                           Case{Rational(29, 2), "14.5"},
                                           Case{Rational(-5, 2), "-2.5"},
                                           Case{Rational(3, 4), "0.75"},
                                           Case{Rational(1, 20), "0.05"},
                                           Case{Rational(0), "0"},
                                           Case{Rational(23, 15), "1 8/15"},
                                           Case{Rational(19, 3), "6 1/3"},
                                           Case{Rational(-5, 3), "-1 2/3"},
                                           Case{Rational(-13, 15), "-13/15"},
                                           Case{Rational(10, 4), "2.5"}));

TEST(Rational, ToDecimalRoundsForFiles) {
  EXPECT_EQ(Rational(19, 3).ToDecimal(2), "6.33");
  EXPECT_EQ(Rational(20, 3).ToDecimal(2), "6.67");
  EXPECT_EQ(Rational(-20, 3).ToDecimal(2), "-6.67");
  EXPECT_EQ(Rational(29, 2).ToDecimal(2), "14.5");
  EXPECT_EQ(Rational(7).ToDecimal(2), "7");
}

TEST(Rational, ArithmeticIsExact) {
  const Rational third(1, 3);
  EXPECT_EQ(third + third + third, Rational(1));
  EXPECT_EQ(Rational(5) * Rational(3) + Rational(23, 3) - Rational(25),
            Rational(-7, 3));
  EXPECT_EQ(Rational(23, 3) / Rational(5), Rational(23, 15));
  EXPECT_LT(Rational(2, 3), Rational(667, 1000));
  EXPECT_GT(Rational(-1, 3), Rational(-1, 2));
  EXPECT_EQ(Rational(4, -6), Rational(-2, 3));
}

}  // namespace
}  // namespace gorank::tournaments
