// The access table: for every RPC (by its full gRPC method name, e.g.
// "/gorank.v1.PlayerRegistry/RegisterPlayer") the roles that may call it.
// Scope rules (an agency operator only touches its own agency's data) are
// enforced by the domain, which knows whose data a call touches.
#ifndef GORANK_SERVICES_AUTH_ACCESS_POLICY_H_
#define GORANK_SERVICES_AUTH_ACCESS_POLICY_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/auth/caller.h"

namespace gorank::auth {

struct MethodPolicy {
  std::string method;
  std::vector<Role> roles;
};

// Every RPC the server serves, with its roles. Thread-safe (immutable).
const std::vector<MethodPolicy>& AccessTable();

// OK when `caller` may call `method`. UNAUTHENTICATED when the caller is the
// public and the method needs a token; PERMISSION_DENIED when the caller's
// role is not allowed; INTERNAL (an invariant: every served method must be in
// the table) for an unknown method.
absl::Status CheckAccess(const Caller& caller, const std::string& method);

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_ACCESS_POLICY_H_
