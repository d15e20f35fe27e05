// Two macros for propagating absl::Status, since Debian's Abseil (20220623)
// ships neither ABSL_RETURN_IF_ERROR nor ABSL_ASSIGN_OR_RETURN. Standard C++
// only (no statement expressions).
#ifndef GORANK_SERVICES_COMMON_STATUS_MACROS_H_
#define GORANK_SERVICES_COMMON_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status); returns it from the enclosing function
// when it is not OK.
#define GORANK_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::absl::Status gorank_status_ = (expr);          \
    if (!gorank_status_.ok()) return gorank_status_; \
  } while (false)

#define GORANK_STATUS_CONCAT_INNER_(a, b) a##b
#define GORANK_STATUS_CONCAT_(a, b) GORANK_STATUS_CONCAT_INNER_(a, b)

// `lhs` is declared or assigned from `rexpr` (an absl::StatusOr<T>); returns
// the status from the enclosing function when it is not OK.
#define GORANK_ASSIGN_OR_RETURN(lhs, rexpr) \
  GORANK_ASSIGN_OR_RETURN_IMPL_(            \
      GORANK_STATUS_CONCAT_(gorank_statusor_, __LINE__), lhs, rexpr)

#define GORANK_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                  \
  if (!statusor.ok()) return std::move(statusor).status();  \
  lhs = std::move(statusor).value()

#endif  // GORANK_SERVICES_COMMON_STATUS_MACROS_H_
