// How a gRPC answer's status becomes an HTTP answer on the public web page:
// the status code, and the Retry-After seconds of a rate-limited request.
// Pure; thread-safe.
#ifndef GORANK_SERVICES_WEB_HTTP_STATUS_H_
#define GORANK_SERVICES_WEB_HTTP_STATUS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace gorank::web {

// OK 200, INVALID_ARGUMENT and OUT_OF_RANGE 400, UNAUTHENTICATED 401,
// PERMISSION_DENIED 403, NOT_FOUND 404, ALREADY_EXISTS and ABORTED and
// FAILED_PRECONDITION 409, RESOURCE_EXHAUSTED 429, CANCELLED 499,
// UNIMPLEMENTED 501, UNAVAILABLE 503, DEADLINE_EXCEEDED 504, anything else
// (INTERNAL, UNKNOWN, DATA_LOSS) 500.
int HttpStatusFor(absl::StatusCode code);

// The Retry-After value for a wait of `wait_ms` milliseconds: whole seconds,
// rounded up, at least 1.
int64_t RetryAfterSeconds(int64_t wait_ms);

// The status code's name as gRPC spells it ("INVALID_ARGUMENT").
std::string CodeName(absl::StatusCode code);

}  // namespace gorank::web

#endif  // GORANK_SERVICES_WEB_HTTP_STATUS_H_
