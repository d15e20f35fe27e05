#include "services/auth/access_policy.h"

#include <algorithm>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace gorank::auth {
namespace {

using absl::StatusCode;

const Role kAllRoles[] = {Role::kPublic, Role::kNationalAdmin,
                          Role::kAgencyOperator, Role::kAuditor};

TEST(AccessPolicyTest, TableIsWellFormed) {
  std::set<std::string> methods;
  for (const MethodPolicy& p : AccessTable()) {
    EXPECT_TRUE(methods.insert(p.method).second)
        << "duplicate row " << p.method;
    EXPECT_EQ(p.method.rfind("/gorank.v1.", 0), 0u) << p.method;
    EXPECT_EQ(std::count(p.method.begin(), p.method.end(), '/'), 2) << p.method;
    EXPECT_FALSE(p.roles.empty()) << p.method;
  }
}

TEST(AccessPolicyTest, CheckAccessFollowsTheTableForEveryRole) {
  for (const MethodPolicy& p : AccessTable()) {
    for (Role role : kAllRoles) {
      Caller c;
      c.role = role;
      if (role == Role::kAgencyOperator) c.agency_prefix = "110";
      if (role != Role::kPublic) c.token_id = 7;
      const bool allowed =
          std::find(p.roles.begin(), p.roles.end(), role) != p.roles.end();
      const absl::Status s = CheckAccess(c, p.method);
      const StatusCode want = allowed ? StatusCode::kOk
                              : role == Role::kPublic
                                  ? StatusCode::kUnauthenticated
                                  : StatusCode::kPermissionDenied;
      EXPECT_EQ(s.code(), want)
          << p.method << " as " << RoleName(role) << ": " << s;
    }
  }
}

TEST(AccessPolicyTest, UnknownMethodIsAnInvariantViolation) {
  EXPECT_EQ(CheckAccess(Caller::Public(), "/gorank.v1.Nope/Nope").code(),
            StatusCode::kInternal);
}

TEST(AccessPolicyTest, WritesNeedAToken) {
  // A few rows that must never open to the public or the auditor.
  for (const char* m : {"/gorank.v1.PlayerRegistry/RegisterPlayer",
                        "/gorank.v1.PlayerRegistry/ChangeRank",
                        "/gorank.v1.AgencyService/SuspendAgency",
                        "/gorank.v1.TokenService/CreateToken",
                        "/gorank.v1.TokenService/RevokeToken"}) {
    EXPECT_EQ(CheckAccess(Caller::Public(), m).code(),
              StatusCode::kUnauthenticated)
        << m;
    EXPECT_EQ(CheckAccess(Caller{Role::kAuditor, "", 3}, m).code(),
              StatusCode::kPermissionDenied)
        << m;
  }
}

TEST(CallerTest, DescribesAndScopes) {
  EXPECT_EQ(Caller::Public().Describe(), "public");
  EXPECT_EQ((Caller{Role::kNationalAdmin, "", 1}).Describe(),
            "national/token:1");
  EXPECT_EQ((Caller{Role::kAgencyOperator, "110", 7}).Describe(),
            "agency:110/token:7");
  EXPECT_EQ((Caller{Role::kAuditor, "", 3}).Describe(), "auditor/token:3");
  EXPECT_TRUE((Caller{Role::kNationalAdmin, "", 1}).ActsFor("440"));
  EXPECT_TRUE((Caller{Role::kAgencyOperator, "110", 7}).ActsFor("110"));
  EXPECT_FALSE((Caller{Role::kAgencyOperator, "110", 7}).ActsFor("120"));
  EXPECT_FALSE((Caller{Role::kAuditor, "", 3}).ActsFor("110"));
  EXPECT_FALSE(Caller::Public().ActsFor(""));
  EXPECT_STREQ(RoleName(Role::kAgencyOperator), "agency_operator");
}

}  // namespace
}  // namespace gorank::auth
