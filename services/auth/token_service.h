// gRPC handler of registry.proto's TokenService: create, revoke and list
// bearer tokens, and WhoAmI. Each RPC converts the request, makes one
// TokenManager call through the CallGate (authentication, access table,
// logging, status mapping) and converts the answer.
#ifndef GORANK_SERVICES_AUTH_TOKEN_SERVICE_H_
#define GORANK_SERVICES_AUTH_TOKEN_SERVICE_H_

#include "gorank/v1/registry.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/auth/token_manager.h"

namespace gorank::auth {

// Does not own its collaborators, which must outlive it.
class TokenServiceImpl final : public v1::TokenService::Service {
 public:
  TokenServiceImpl(CallGate* gate, TokenManager* tokens)
      : gate_(gate), tokens_(tokens) {}

  grpc::Status CreateToken(grpc::ServerContext* ctx,
                           const v1::CreateTokenRequest* req,
                           v1::CreateTokenResponse* resp) override;
  grpc::Status RevokeToken(grpc::ServerContext* ctx,
                           const v1::RevokeTokenRequest* req,
                           v1::RevokeTokenResponse* resp) override;
  grpc::Status ListTokens(grpc::ServerContext* ctx,
                          const v1::ListTokensRequest* req,
                          v1::ListTokensResponse* resp) override;
  grpc::Status WhoAmI(grpc::ServerContext* ctx, const v1::WhoAmIRequest* req,
                      v1::WhoAmIResponse* resp) override;

 private:
  CallGate* gate_;
  TokenManager* tokens_;
};

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_TOKEN_SERVICE_H_
