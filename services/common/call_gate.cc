#include "services/common/call_gate.h"

#include <chrono>

#include "services/auth/access_policy.h"
#include "services/common/grpc_status.h"
#include "spdlog/spdlog.h"

namespace gorank {

absl::StatusOr<auth::Caller> CallGate::Authenticate(grpc::ServerContext* ctx) {
  const auto& md = ctx->client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) return tokens_->Authenticate(std::nullopt);
  const std::string value(it->second.data(), it->second.size());
  constexpr char kBearer[] = "Bearer ";
  if (value.size() <= sizeof kBearer - 1 ||
      strncasecmp(value.c_str(), kBearer, sizeof kBearer - 1) != 0) {
    return absl::UnauthenticatedError(
        "the authorization header must read 'Bearer <token>'");
  }
  return tokens_->Authenticate(value.substr(sizeof kBearer - 1));
}

grpc::Status CallGate::Run(
    grpc::ServerContext* ctx, const std::string& method,
    const std::function<absl::Status(const auth::Caller&)>& fn) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<auth::Caller> caller = Authenticate(ctx);
  absl::Status status = caller.status();
  if (status.ok()) status = auth::CheckAccess(*caller, method);
  if (status.ok()) status = fn(*caller);
  const double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  spdlog::info("call method={} caller={} peer={} status={} duration_ms={:.3f}",
               method, caller.ok() ? caller->Describe() : "unauthenticated",
               ctx->peer(), absl::StatusCodeToString(status.code()), ms);
  return ToGrpcStatus(status);
}

}  // namespace gorank
