// Conversions between auth's domain types (roles, token records) and
// gorank.v1 messages. They cannot fail: an unknown role reads as the public.
#ifndef GORANK_SERVICES_AUTH_AUTH_PROTO_CONVERT_H_
#define GORANK_SERVICES_AUTH_AUTH_PROTO_CONVERT_H_

#include "gorank/v1/common.pb.h"
#include "gorank/v1/registry.pb.h"
#include "services/auth/caller.h"
#include "services/auth/token_repository.h"

namespace gorank::auth {

Role RoleFromProto(v1::Role r);  // kPublic for unknown values
v1::Role RoleToProto(Role r);
void TokenToProto(const TokenRecord& t, v1::TokenInfo* out);

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_AUTH_PROTO_CONVERT_H_
