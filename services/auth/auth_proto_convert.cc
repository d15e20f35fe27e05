#include "services/auth/auth_proto_convert.h"

namespace gorank::auth {

Role RoleFromProto(v1::Role r) {
  switch (r) {
    case v1::ROLE_NATIONAL_ADMIN:
      return Role::kNationalAdmin;
    case v1::ROLE_AGENCY_OPERATOR:
      return Role::kAgencyOperator;
    case v1::ROLE_AUDITOR:
      return Role::kAuditor;
    default:
      return Role::kPublic;
  }
}

v1::Role RoleToProto(Role r) {
  return static_cast<v1::Role>(static_cast<int>(r));
}

void TokenToProto(const TokenRecord& t, v1::TokenInfo* out) {
  out->set_id(t.id);
  out->set_role(RoleToProto(t.role));
  out->set_agency_prefix(t.agency_prefix);
  out->set_label(t.label);
  out->set_created_unix(t.created_unix);
  out->set_revoked_unix(t.revoked_unix);
}

}  // namespace gorank::auth
