#include "services/auth/token_service.h"

#include "services/auth/auth_proto_convert.h"
#include "services/common/status_macros.h"

namespace gorank::auth {
namespace {

std::string Tok(const char* m) {
  return MethodName(v1::TokenService::service_full_name(), m);
}

}  // namespace

grpc::Status TokenServiceImpl::CreateToken(grpc::ServerContext* ctx,
                                           const v1::CreateTokenRequest* req,
                                           v1::CreateTokenResponse* resp) {
  return gate_->Run(
      ctx, Tok("CreateToken"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(
            NewToken t, tokens_->Create(caller, RoleFromProto(req->role()),
                                        req->agency_prefix(), req->label()));
        TokenToProto(t.record, resp->mutable_token());
        resp->set_secret(t.secret);
        return absl::OkStatus();
      });
}

grpc::Status TokenServiceImpl::RevokeToken(grpc::ServerContext* ctx,
                                           const v1::RevokeTokenRequest* req,
                                           v1::RevokeTokenResponse* resp) {
  return gate_->Run(
      ctx, Tok("RevokeToken"), *req, [&](const Caller& caller) -> absl::Status {
        GORANK_ASSIGN_OR_RETURN(TokenRecord t,
                                tokens_->Revoke(caller, req->token_id()));
        TokenToProto(t, resp->mutable_token());
        return absl::OkStatus();
      });
}

grpc::Status TokenServiceImpl::ListTokens(grpc::ServerContext* ctx,
                                          const v1::ListTokensRequest* req,
                                          v1::ListTokensResponse* resp) {
  return gate_->Run(ctx, Tok("ListTokens"), *req,
                    [&](const Caller&) -> absl::Status {
                      GORANK_ASSIGN_OR_RETURN(auto tokens, tokens_->List());
                      for (const auto& t : tokens)
                        TokenToProto(t, resp->add_tokens());
                      return absl::OkStatus();
                    });
}

grpc::Status TokenServiceImpl::WhoAmI(grpc::ServerContext* ctx,
                                      const v1::WhoAmIRequest* req,
                                      v1::WhoAmIResponse* resp) {
  return gate_->Run(ctx, Tok("WhoAmI"), *req,
                    [&](const Caller& caller) -> absl::Status {
                      resp->set_role(RoleToProto(caller.role));
                      resp->set_agency_prefix(caller.agency_prefix);
                      resp->set_token_id(caller.token_id);
                      return absl::OkStatus();
                    });
}

}  // namespace gorank::auth
