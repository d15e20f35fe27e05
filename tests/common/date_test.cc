#include "services/common/date.h"

#include "gtest/gtest.h"
#include "services/common/clock.h"

namespace gorank {
namespace {

TEST(DateTest, RoundTripsThroughDays) {
  for (int64_t d = -800000; d < 800000; d += 997) {
    EXPECT_EQ(Date::FromDays(d).ToDays(), d);
  }
  EXPECT_EQ((Date{1970, 1, 1}).ToDays(), 0);
  EXPECT_EQ((Date{2000, 3, 1}).ToDays(), 11017);
}

TEST(DateTest, ParsesAndRejects) {
  EXPECT_EQ(*Date::Parse("2024-02-29"), (Date{2024, 2, 29}));
  EXPECT_EQ(*Date::Parse("20240229"), (Date{2024, 2, 29}));
  for (const char* bad :
       {"2023-02-29", "2024-13-01", "2024-1-01", "", "abcd-ef-gh", "2024-02-30",
        "0000-01-01", "2024/02/01"}) {
    EXPECT_EQ(Date::Parse(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(DateTest, AgeCountsTheBirthday) {
  const Date birth{2006, 5, 20};
  EXPECT_EQ(AgeOn(birth, {2024, 5, 19}), 17);
  EXPECT_EQ(AgeOn(birth, {2024, 5, 20}), 18);
  const Date leap{2004, 2, 29};
  EXPECT_EQ(AgeOn(leap, {2022, 2, 28}), 17);
  EXPECT_EQ(AgeOn(leap, {2022, 3, 1}), 18);
}

TEST(DateTest, ShanghaiIsUtcPlusEight) {
  // 2023-12-31 16:00:00 UTC is 2024-01-01 00:00 in Shanghai.
  EXPECT_EQ(ShanghaiDate(1704038400), (Date{2024, 1, 1}));
  EXPECT_EQ(ShanghaiDate(1704038399), (Date{2023, 12, 31}));
  EXPECT_EQ(ShanghaiMidnight({2024, 1, 1}), 1704038400);
  FakeClock clock;
  clock.SetDate({2025, 12, 31});
  EXPECT_EQ(clock.Today(), (Date{2025, 12, 31}));
}

}  // namespace
}  // namespace gorank
