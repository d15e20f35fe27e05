// Request limits: the one table of what any request may carry, checked by the
// call gate before a handler's domain call runs. It walks the request by
// protobuf reflection (descriptors only, no generated headers), so a field
// added to a proto later is bounded from the first build: every string and
// bytes field has a maximum length (strings must also be valid UTF-8), every
// repeated field a maximum number of items, every integer a range, every enum
// a declared value, every floating-point number a finite value.
//
// Which limit applies to a field: an entry for its full name
// ("gorank.v1.LodgeObjectionRequest.text"), else an entry for its short name
// ("reason": every field called so), else the default of its type. The table
// is in request_limits.cc; README "Request limits" lists it.
#ifndef GORANK_SERVICES_COMMON_REQUEST_LIMITS_H_
#define GORANK_SERVICES_COMMON_REQUEST_LIMITS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace gorank {

inline constexpr int64_t kDefaultMaxStringBytes = 256;
inline constexpr int64_t kDefaultMaxItems = 1000;
inline constexpr int64_t kDefaultInt32Bound = 1000000;             // +-1e6
inline constexpr int64_t kDefaultInt64Bound = (int64_t{1} << 53);  // +-2^53

// The limit of one field. Only the members that fit the field's type matter:
// max_bytes for strings and bytes, max_items for repeated fields, [min, max]
// for integers (every element of a repeated integer field).
struct FieldLimit {
  int64_t max_bytes = kDefaultMaxStringBytes;
  int64_t max_items = kDefaultMaxItems;
  int64_t min = -kDefaultInt32Bound;
  int64_t max = kDefaultInt32Bound;
};

// The limit that applies to `field` (see the file comment). Thread-safe.
FieldLimit LimitOf(const google::protobuf::FieldDescriptor& field);

// OK when every set field of `request`, recursively, is within its limit.
// Otherwise INVALID_ARGUMENT naming the first field outside, by its path
// from the request (e.g. "results.games[3].round"), and the limit:
//   "<path> is N bytes; the limit is M bytes"
//   "<path> has N items; the limit is M"
//   "<path> is N; the allowed range is A..B"
//   "<path> is not valid UTF-8 text"
//   "<path> is N, not a value of gorank.v1.E"
//   "<path> is not a finite number"
// The message never quotes the field's content. Thread-safe.
absl::Status CheckRequestLimits(const google::protobuf::Message& request);

// One line describing `field`'s limit for people, e.g. "at most 4000 bytes",
// "at most 1000 items, each 0..10000", "0..9999" (README, tests).
std::string DescribeLimit(const google::protobuf::FieldDescriptor& field);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_REQUEST_LIMITS_H_
