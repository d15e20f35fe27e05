#include "services/auth/caller.h"

namespace gorank::auth {

const char* RoleName(Role role) {
  switch (role) {
    case Role::kPublic:
      return "public";
    case Role::kNationalAdmin:
      return "national_admin";
    case Role::kAgencyOperator:
      return "agency_operator";
    case Role::kAuditor:
      return "auditor";
  }
  return "unknown";
}

std::string Caller::Describe() const {
  const std::string token = "/token:" + std::to_string(token_id);
  switch (role) {
    case Role::kPublic:
      return "public";
    case Role::kNationalAdmin:
      return "national" + token;
    case Role::kAgencyOperator:
      return "agency:" + agency_prefix + token;
    case Role::kAuditor:
      return "auditor" + token;
  }
  return "unknown";
}

}  // namespace gorank::auth
