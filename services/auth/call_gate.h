// CallGate: what every handler does around its one domain call —
// authenticate the bearer token (and, with mutual TLS, bind it to the client
// certificate), throttle, check the request against the limits table
// (request_limits.h), check the access table, run the call, map the status,
// and log one line (method, caller, peer, status, duration).
// Token checks live here, not in an AuthMetadataProcessor, because that
// processor cannot be installed on plaintext ports (it aborts the server).
#ifndef GORANK_SERVICES_AUTH_CALL_GATE_H_
#define GORANK_SERVICES_AUTH_CALL_GATE_H_

#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "grpcpp/server_context.h"
#include "services/auth/caller.h"
#include "services/auth/token_manager.h"
#include "services/common/metrics.h"
#include "services/common/rate_limiter.h"

namespace gorank {

struct CallGateOptions {
  // Calls without a token, per client address; calls whose token is
  // malformed, unknown or revoked count against the same bucket.
  RateLimit public_limit{100, 500};
  // Calls with a token, per token.
  RateLimit token_limit{1000, 5000};
  // Callers with a token must also present a verified client certificate
  // (mutual TLS) whose identity matches the token (see
  // ExpectedCertificateName): set when the server runs TLS with a client CA.
  bool client_cert_required = false;
  // Secret of rankd's own public web page: a public call whose metadata
  // carries it (kRelayKeyMetadata) is limited per the visitor address it names
  // (kRelayedClientMetadata) instead of per peer. Empty: no relaying.
  std::string relay_key;
  // When set, every call is recorded (method, gRPC code, duration). Not
  // owned; must outlive the gate.
  Metrics* metrics = nullptr;
  // Full method names whose calls by the public run inside a
  // ReplicaReadScope (services/common/replica_reads.h): their reads may be
  // served by the read replica. Empty (no replica): none.
  std::vector<std::string> replica_read_methods;
};

// Thread-safe; does not own the token manager.
class CallGate {
 public:
  explicit CallGate(auth::TokenManager* tokens, CallGateOptions options = {})
      : tokens_(tokens),
        options_(options),
        public_limiter_(options.public_limit),
        token_limiter_(options.token_limit),
        replica_read_methods_(options.replica_read_methods.begin(),
                              options.replica_read_methods.end()) {}

  // `method` is the full gRPC name ("/gorank.v1.PlayerRegistry/GetPlayer").
  // `fn` runs only when the caller is authenticated, within its rate limit
  // (else RESOURCE_EXHAUSTED with "retry after N ms", also in the trailing
  // metadata "retry-after-ms"), `request` is within CheckRequestLimits (else
  // its INVALID_ARGUMENT) and the caller is allowed; its status is mapped with
  // ToGrpcStatus. A caller that fails authentication is throttled like the
  // public, per client address. The call is logged, and recorded in the
  // metrics if any.
  grpc::Status Run(grpc::ServerContext* ctx, const std::string& method,
                   const google::protobuf::Message& request,
                   const std::function<absl::Status(const auth::Caller&)>& fn);

  // Run for a handler whose requests arrive on a stream: the same, without a
  // request to check before `fn`; `fn` must pass every message it reads
  // through CheckRequestLimits itself.
  grpc::Status RunStream(
      grpc::ServerContext* ctx, const std::string& method,
      const std::function<absl::Status(const auth::Caller&)>& fn);

  // The caller behind the request's metadata (public without a token);
  // UNAUTHENTICATED for a malformed header or an unknown/revoked token, and
  // for a token without a verified client certificate when one is required;
  // PERMISSION_DENIED when that certificate names another identity than the
  // token's (ExpectedCertificateName).
  absl::StatusOr<auth::Caller> Authenticate(grpc::ServerContext* ctx);

 private:
  // 0 when the caller may proceed, else the milliseconds to wait.
  int64_t Throttle(grpc::ServerContext* ctx, const auth::Caller& caller);
  grpc::Status Gate(grpc::ServerContext* ctx, const std::string& method,
                    const google::protobuf::Message* request,
                    const std::function<absl::Status(const auth::Caller&)>& fn);

  auth::TokenManager* tokens_;
  CallGateOptions options_;
  RateLimiter public_limiter_;
  RateLimiter token_limiter_;
  std::unordered_set<std::string> replica_read_methods_;
};

// Metadata with which rankd's own public web page names the visitor behind
// each of its calls, and the secret that makes the gate believe it (see
// CallGateOptions::relay_key): the public rate limit then applies per visitor
// ("web:<address>"), not to the page as a whole.
inline constexpr char kRelayedClientMetadata[] = "x-gorank-relayed-client";
inline constexpr char kRelayKeyMetadata[] = "x-gorank-relay-key";

// With mutual TLS, the name a token's client certificate must carry (as its
// subject CN or one of its DNS subject alternative names):
//   national admin                 "national-admin"
//   agency operator of agency PPP  "agency-PPP"  (e.g. "agency-110")
//   auditor                        "auditor", or "auditor-<anything>"
// Returns the expected name ("auditor-*" for auditors), empty for the public.
std::string ExpectedCertificateName(const auth::Caller& caller);
// True when `identity` satisfies ExpectedCertificateName(caller).
bool CertificateMatches(const auth::Caller& caller,
                        const std::string& identity);

// "/<service full name>/<method>".
inline std::string MethodName(const char* service_full_name,
                              const char* method) {
  return std::string("/") + service_full_name + "/" + method;
}

}  // namespace gorank

#endif  // GORANK_SERVICES_AUTH_CALL_GATE_H_
