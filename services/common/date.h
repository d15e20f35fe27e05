// Civil dates and the wall clock of the federation (Asia/Shanghai, UTC+8 all
// year since 1991). Dates travel as `Date` values; times as Unix seconds.
#ifndef GORANK_SERVICES_COMMON_DATE_H_
#define GORANK_SERVICES_COMMON_DATE_H_

#include <compare>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gorank {

// A proleptic Gregorian calendar date. Value type; thread-compatible.
struct Date {
  int year = 0;
  int month = 0;  // 1..12
  int day = 0;    // 1..31

  auto operator<=>(const Date&) const = default;

  // True when year is 1..9999 and month/day name a real calendar day.
  bool IsValid() const;
  // Days since 1970-01-01 (negative before). REQUIRES: IsValid().
  int64_t ToDays() const;
  static Date FromDays(int64_t days);
  // "YYYY-MM-DD".
  std::string ToString() const;
  // Parses "YYYY-MM-DD" (also "YYYYMMDD"); INVALID_ARGUMENT otherwise.
  static absl::StatusOr<Date> Parse(const std::string& text);
  Date AddDays(int64_t n) const { return FromDays(ToDays() + n); }
};

// Whole years of age on `on` for someone born on `birth` (the birthday
// itself counts: 18 on the 18th birthday). 29 Feb birthdays turn on 1 Mar in
// common years.
int AgeOn(const Date& birth, const Date& on);

// The Asia/Shanghai calendar date of a Unix time.
Date ShanghaiDate(int64_t unix_seconds);
// Unix time of 00:00 Asia/Shanghai on `d`.
int64_t ShanghaiMidnight(const Date& d);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_DATE_H_
