// Who is calling: the role a bearer token is bound to (or the public, for
// calls without a token) and, for agency operators, the agency they act for.
// Plain value types shared by every domain that makes access decisions.
#ifndef GORANK_SERVICES_AUTH_CALLER_H_
#define GORANK_SERVICES_AUTH_CALLER_H_

#include <cstdint>
#include <string>

namespace gorank::auth {

enum class Role {
  kPublic = 1,
  kNationalAdmin = 2,
  kAgencyOperator = 3,
  kAuditor = 4
};

// "public", "national_admin", "agency_operator", "auditor".
const char* RoleName(Role role);

struct Caller {
  Role role = Role::kPublic;
  std::string agency_prefix;  // set only for kAgencyOperator
  int64_t token_id = 0;       // 0 for the public

  static Caller Public() { return Caller{}; }
  bool IsNational() const { return role == Role::kNationalAdmin; }
  bool IsAuditor() const { return role == Role::kAuditor; }
  // True for the national admin, and for an operator of `prefix`.
  bool ActsFor(const std::string& prefix) const {
    return IsNational() ||
           (role == Role::kAgencyOperator && agency_prefix == prefix);
  }
  // For logs and the audit trail: "public", "national/token:1",
  // "agency:110/token:7", "auditor/token:3".
  std::string Describe() const;
};

}  // namespace gorank::auth

#endif  // GORANK_SERVICES_AUTH_CALLER_H_
