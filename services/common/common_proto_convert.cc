#include "services/common/common_proto_convert.h"

#include <string>

namespace gorank {

absl::StatusOr<std::optional<Date>> DateFromProto(const v1::Date& d,
                                                  const std::string& field) {
  if (d.year() == 0 && d.month() == 0 && d.day() == 0) return std::nullopt;
  Date date{d.year(), d.month(), d.day()};
  if (!date.IsValid()) {
    return absl::InvalidArgumentError(field + ": " + std::to_string(d.year()) +
                                      "-" + std::to_string(d.month()) + "-" +
                                      std::to_string(d.day()) +
                                      " is not a calendar date");
  }
  return std::optional<Date>(date);
}

void DateToProto(const Date& d, v1::Date* out) {
  out->set_year(d.year);
  out->set_month(d.month);
  out->set_day(d.day);
}

}  // namespace gorank
