// Conversions between gorank::Date and gorank.v1.Date (common.proto), for
// every module's handlers (target common_proto_convert).
#ifndef GORANK_SERVICES_COMMON_COMMON_PROTO_CONVERT_H_
#define GORANK_SERVICES_COMMON_COMMON_PROTO_CONVERT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gorank/v1/common.pb.h"
#include "services/common/date.h"

namespace gorank {

// nullopt for an all-zero date.
absl::StatusOr<std::optional<Date>> DateFromProto(const v1::Date& d,
                                                  const std::string& field);
void DateToProto(const Date& d, v1::Date* out);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_COMMON_PROTO_CONVERT_H_
