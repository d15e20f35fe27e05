#include "services/common/date.h"

#include <cstdio>

#include "absl/status/status.h"

namespace gorank {
namespace {

constexpr int64_t kShanghaiOffsetSeconds = 8 * 3600;

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

bool Date::IsValid() const {
  return year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 &&
         day <= DaysInMonth(year, month);
}

// Howard Hinnant's days_from_civil algorithm.
int64_t Date::ToDays() const {
  const int64_t y = month <= 2 ? year - 1 : year;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t mp = (month + 9) % 12;
  const int64_t doy = (153 * mp + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Date Date::FromDays(int64_t z) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int y = static_cast<int>(yoe + era * 400 + (m <= 2));
  return Date{y, m, d};
}

std::string Date::ToString() const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  return buf;
}

absl::StatusOr<Date> Date::Parse(const std::string& text) {
  Date d;
  char tail = 0;
  bool parsed = false;
  if (text.size() == 10) {
    parsed = std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &d.year, &d.month,
                         &d.day, &tail) == 3 &&
             text[4] == '-' && text[7] == '-';
  } else if (text.size() == 8) {
    parsed = std::sscanf(text.c_str(), "%4d%2d%2d%c", &d.year, &d.month, &d.day,
                         &tail) == 3;
  }
  for (char c : text) {
    if (!(c == '-' || (c >= '0' && c <= '9'))) parsed = false;
  }
  if (!parsed || !d.IsValid()) {
    return absl::InvalidArgumentError("'" + text +
                                      "' is not a date; expected YYYY-MM-DD");
  }
  return d;
}

int AgeOn(const Date& birth, const Date& on) {
  int age = on.year - birth.year;
  if (on.month < birth.month ||
      (on.month == birth.month && on.day < birth.day)) {
    --age;
  }
  return age;
}

Date ShanghaiDate(int64_t unix_seconds) {
  return Date::FromDays(FloorDiv(unix_seconds + kShanghaiOffsetSeconds, 86400));
}

int64_t ShanghaiMidnight(const Date& d) {
  return d.ToDays() * 86400 - kShanghaiOffsetSeconds;
}

}  // namespace gorank
