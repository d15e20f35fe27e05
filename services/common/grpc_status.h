// The one place where absl::Status becomes grpc::Status, and where it is
// decided what a client may see: INTERNAL, UNKNOWN and DATA_LOSS details go to
// the log, the wire gets a generic message with an incident id.
#ifndef GORANK_SERVICES_COMMON_GRPC_STATUS_H_
#define GORANK_SERVICES_COMMON_GRPC_STATUS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace gorank {

// The most bytes of an error message a client receives; longer ones are cut
// at a UTF-8 character boundary and end in "...". (A message travels in the
// grpc-message trailer: one of 100 KB or more exceeded the client's metadata
// limit and the call never completed.)
inline constexpr size_t kMaxErrorMessageBytes = 512;

// Thread-safe.
grpc::Status ToGrpcStatus(const absl::Status& status);

// `message` cut to at most `max_bytes` bytes (the "..." included) at a UTF-8
// character boundary; unchanged when it fits.
std::string ShortenMessage(std::string_view message,
                           size_t max_bytes = kMaxErrorMessageBytes);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_GRPC_STATUS_H_
