// The one place where absl::Status becomes grpc::Status, and where it is
// decided what a client may see: INTERNAL, UNKNOWN and DATA_LOSS details go to
// the log, the wire gets a generic message with an incident id.
#ifndef GORANK_SERVICES_COMMON_GRPC_STATUS_H_
#define GORANK_SERVICES_COMMON_GRPC_STATUS_H_

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace gorank {

// Thread-safe.
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_GRPC_STATUS_H_
