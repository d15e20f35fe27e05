// CallGate: what every unary handler does around its one domain call —
// authenticate the bearer token, check the access table, run the call, map
// the status, and log one line (method, caller, peer, status, duration).
// Token checks live here, not in an AuthMetadataProcessor, because that
// processor cannot be installed on plaintext ports (it aborts the server).
#ifndef GORANK_SERVICES_COMMON_CALL_GATE_H_
#define GORANK_SERVICES_COMMON_CALL_GATE_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/server_context.h"
#include "services/auth/caller.h"
#include "services/auth/token_manager.h"

namespace gorank {

// Thread-safe; does not own the token manager.
class CallGate {
 public:
  explicit CallGate(auth::TokenManager* tokens) : tokens_(tokens) {}

  // `method` is the full gRPC name ("/gorank.v1.PlayerRegistry/GetPlayer").
  // `fn` runs only when the caller is authenticated and allowed; its status
  // is mapped with ToGrpcStatus.
  grpc::Status Run(grpc::ServerContext* ctx, const std::string& method,
                   const std::function<absl::Status(const auth::Caller&)>& fn);

  // The caller behind the request's metadata (public without a token);
  // UNAUTHENTICATED for a malformed header or an unknown/revoked token.
  absl::StatusOr<auth::Caller> Authenticate(grpc::ServerContext* ctx);

 private:
  auth::TokenManager* tokens_;
};

// "/<service full name>/<method>".
inline std::string MethodName(const char* service_full_name, const char* method) {
  return std::string("/") + service_full_name + "/" + method;
}

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_CALL_GATE_H_
