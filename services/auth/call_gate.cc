#include "services/auth/call_gate.h"

#include <chrono>
#include <string_view>
#include <vector>

#include "services/auth/access_policy.h"
#include "services/common/grpc_status.h"
#include "services/common/replica_reads.h"
#include "services/common/request_limits.h"
#include "spdlog/spdlog.h"

namespace gorank {
namespace {

// Compares the relay key in time that does not depend on where the first
// difference is, so a caller cannot learn the key byte by byte.
bool SameKey(std::string_view given, std::string_view key) {
  if (given.size() != key.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    diff |= static_cast<unsigned char>(given[i] ^ key[i]);
  }
  return diff == 0;
}

// The verified client certificate's names: its subject CN and DNS subject
// alternative names.
std::vector<std::string> CertificateIdentities(const grpc::AuthContext& auth) {
  std::vector<std::string> out;
  for (const char* property :
       {"x509_common_name", "x509_subject_alternative_name"}) {
    for (const grpc::string_ref& v : auth.FindPropertyValues(property)) {
      out.emplace_back(v.data(), v.size());
    }
  }
  return out;
}

std::string Quoted(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    if (!out.empty()) out += ", ";
    out += "'" + n.substr(0, 64) + "'";
  }
  return out.empty() ? "no name" : out;
}

}  // namespace

std::string ExpectedCertificateName(const auth::Caller& caller) {
  switch (caller.role) {
    case auth::Role::kNationalAdmin:
      return "national-admin";
    case auth::Role::kAgencyOperator:
      return "agency-" + caller.agency_prefix;
    case auth::Role::kAuditor:
      return "auditor-*";
    case auth::Role::kPublic:
      break;
  }
  return "";
}

bool CertificateMatches(const auth::Caller& caller,
                        const std::string& identity) {
  if (caller.role == auth::Role::kAuditor) {
    return identity == "auditor" || identity.rfind("auditor-", 0) == 0;
  }
  const std::string expected = ExpectedCertificateName(caller);
  return !expected.empty() && identity == expected;
}

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
  absl::StatusOr<auth::Caller> caller =
      tokens_->Authenticate(value.substr(sizeof kBearer - 1));
  if (caller.ok() && options_.client_cert_required) {
    auto auth_context = ctx->auth_context();
    if (!auth_context ||
        auth_context->FindPropertyValues("x509_pem_cert").empty()) {
      return absl::UnauthenticatedError(
          "this server requires a client certificate (mutual TLS) with a "
          "token; "
          "only public calls work without one");
    }
    const std::vector<std::string> names = CertificateIdentities(*auth_context);
    bool bound = false;
    for (const std::string& n : names)
      bound = bound || CertificateMatches(*caller, n);
    if (!bound) {
      return absl::PermissionDeniedError(
          "the client certificate (" + Quoted(names) +
          ") does not belong to this token (" + auth::RoleName(caller->role) +
          (caller->agency_prefix.empty()
               ? ""
               : " of agency " + caller->agency_prefix) +
          "), which needs a certificate named '" +
          ExpectedCertificateName(*caller) + "'");
    }
  }
  return caller;
}

int64_t CallGate::Throttle(grpc::ServerContext* ctx,
                           const auth::Caller& caller) {
  if (caller.role == auth::Role::kPublic) {
    const auto& md = ctx->client_metadata();
    const auto key = md.find(kRelayKeyMetadata);
    const auto visitor = md.find(kRelayedClientMetadata);
    if (!options_.relay_key.empty() && key != md.end() && visitor != md.end() &&
        SameKey(std::string_view(key->second.data(), key->second.size()),
                options_.relay_key)) {
      return public_limiter_.Acquire(
          "web:" + std::string(visitor->second.data(), visitor->second.size()));
    }
    return public_limiter_.Acquire(ClientAddress(ctx->peer()));
  }
  return token_limiter_.Acquire("token:" + std::to_string(caller.token_id));
}

grpc::Status CallGate::Run(
    grpc::ServerContext* ctx, const std::string& method,
    const google::protobuf::Message& request,
    const std::function<absl::Status(const auth::Caller&)>& fn) {
  return Gate(ctx, method, &request, fn);
}

grpc::Status CallGate::RunStream(
    grpc::ServerContext* ctx, const std::string& method,
    const std::function<absl::Status(const auth::Caller&)>& fn) {
  return Gate(ctx, method, nullptr, fn);
}

grpc::Status CallGate::Gate(
    grpc::ServerContext* ctx, const std::string& method,
    const google::protobuf::Message* request,
    const std::function<absl::Status(const auth::Caller&)>& fn) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<auth::Caller> caller = Authenticate(ctx);
  absl::Status status = caller.status();
  // A caller with a bad token is throttled like the public, per address, so
  // guessing tokens is as slow as any public flood.
  const int64_t wait_ms =
      status.ok() ? Throttle(ctx, *caller)
                  : public_limiter_.Acquire(ClientAddress(ctx->peer()));
  if (wait_ms > 0) {
    ctx->AddTrailingMetadata("retry-after-ms", std::to_string(wait_ms));
    status = absl::ResourceExhaustedError(
        "rate limit exceeded for this client; retry after " +
        std::to_string(wait_ms) + " ms");
  }
  if (status.ok() && request != nullptr) status = CheckRequestLimits(*request);
  if (status.ok()) status = auth::CheckAccess(*caller, method);
  if (status.ok()) {
    // The public's read RPCs may read the replica (none without one).
    ReplicaReadScope replica(!replica_read_methods_.empty() &&
                             caller->role == auth::Role::kPublic &&
                             replica_read_methods_.count(method) != 0);
    status = fn(*caller);
  }
  const double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  // The arguments cost string copies: built only when the line is written.
  if (spdlog::should_log(spdlog::level::info)) {
    spdlog::info(
        "call method={} caller={} peer={} status={} duration_ms={:.3f}", method,
        caller.ok() ? caller->Describe() : "unauthenticated", ctx->peer(),
        absl::StatusCodeToString(status.code()), ms);
  }
  grpc::Status out = ToGrpcStatus(status);
  if (options_.metrics != nullptr) {
    // The code the client sees (the gRPC and absl codes share numbers).
    const auto code = static_cast<absl::StatusCode>(out.error_code());
    options_.metrics->RecordCall(method, absl::StatusCodeToString(code),
                                 ms / 1000);
  }
  return out;
}

}  // namespace gorank
