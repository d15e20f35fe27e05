#include "services/auth/token_manager.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/in_memory_registry_repository.h"
#include "tests/testing/in_memory_token_repository.h"

namespace gorank::auth {
namespace {

using absl::StatusCode;

class TokenManagerTest : public ::testing::Test {
 protected:
  TokenManagerTest()
      : tokens_repo_(&agencies_),
        clock_(1717214400),
        manager_(&tokens_repo_, &clock_) {
    agencies_
        .InsertAgency({"110", "Beijing", "", registry::AgencyLevel::kFirstLevel,
                       registry::AgencyStatus::kActive, ""},
                      ChangeRecord{0, "system", "seed", "", "", ""})
        .IgnoreError();
  }
  testing::InMemoryRegistryRepository agencies_;
  testing::InMemoryTokenRepository tokens_repo_;
  FakeClock clock_;
  TokenManager manager_;
  const Caller admin_{Role::kNationalAdmin, "", 1000};  // no stored token
};

TEST(TokenSecretTest, SecretsAreFreshAndWellFormed) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string s = NewTokenSecret();
    ASSERT_EQ(s.size(), 4u + 64u) << s;
    EXPECT_EQ(s.substr(0, 4), "rkd_");
    EXPECT_EQ(s.find_first_not_of("0123456789abcdef", 4), std::string::npos)
        << s;
    EXPECT_TRUE(seen.insert(s).second) << "repeated secret";
  }
}

TEST(TokenSecretTest, HashIsSha256Hex) {
  // Known SHA-256 values.
  EXPECT_EQ(HashTokenSecret(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(HashTokenSecret("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(TokenManagerTest, BootstrapsOnceThenAuthenticates) {
  auto first = manager_.BootstrapIfEmpty();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->has_value());
  auto second = manager_.BootstrapIfEmpty();
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->has_value()) << "a second bootstrap token was created";

  auto caller = manager_.Authenticate(**first);
  ASSERT_TRUE(caller.ok()) << caller.status();
  EXPECT_EQ(caller->role, Role::kNationalAdmin);
  EXPECT_EQ(caller->token_id, 1);
  // Only the hash is stored.
  auto stored = *tokens_repo_.ListTokens();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].hash, HashTokenSecret(**first));
  EXPECT_NE(stored[0].hash, **first);
  EXPECT_EQ(stored[0].label, "bootstrap national admin");
}

TEST_F(TokenManagerTest, NoTokenIsThePublic) {
  auto c = manager_.Authenticate(std::nullopt);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->role, Role::kPublic);
  EXPECT_EQ(c->token_id, 0);
}

TEST_F(TokenManagerTest, CreatesEveryRole) {
  struct Case {
    Role role;
    std::string prefix;
  };
  for (const Case& c :
       {Case{Role::kNationalAdmin, ""}, Case{Role::kAgencyOperator, "110"},
        Case{Role::kAuditor, ""}}) {
    auto t = manager_.Create(admin_, c.role, c.prefix, "label");
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_GT(t->record.id, 0);
    EXPECT_EQ(t->record.created_unix, 1717214400);
    auto caller = manager_.Authenticate(t->secret);
    ASSERT_TRUE(caller.ok()) << caller.status();
    EXPECT_EQ(caller->role, c.role);
    EXPECT_EQ(caller->agency_prefix, c.prefix);
    EXPECT_EQ(caller->token_id, t->record.id);
  }
  auto audit = tokens_repo_.AuditLog();
  ASSERT_EQ(audit.size(), 3u);
  EXPECT_EQ(audit[1].action, "token.create");
  EXPECT_EQ(audit[1].subject, "token:2");
  EXPECT_EQ(audit[1].actor, "national/token:1000");
}

TEST_F(TokenManagerTest, RefusesBadCreations) {
  struct Case {
    const char* label;
    Role role;
    std::string prefix;
    std::string label_text;
    StatusCode code;
  };
  for (const Case& c : std::vector<Case>{
           {"public role", Role::kPublic, "", "", StatusCode::kInvalidArgument},
           {"unknown role", static_cast<Role>(0), "", "",
            StatusCode::kInvalidArgument},
           {"operator without prefix", Role::kAgencyOperator, "", "",
            StatusCode::kInvalidArgument},
           {"admin with prefix", Role::kNationalAdmin, "110", "",
            StatusCode::kInvalidArgument},
           {"auditor with prefix", Role::kAuditor, "110", "",
            StatusCode::kInvalidArgument},
           {"unknown agency", Role::kAgencyOperator, "999", "",
            StatusCode::kNotFound},
           {"long label", Role::kAuditor, "", std::string(201, 'l'),
            StatusCode::kInvalidArgument}}) {
    EXPECT_EQ(
        manager_.Create(admin_, c.role, c.prefix, c.label_text).status().code(),
        c.code)
        << c.label;
  }
  EXPECT_TRUE(tokens_repo_.ListTokens()->empty());
  EXPECT_TRUE(tokens_repo_.AuditLog().empty());
}

TEST_F(TokenManagerTest, UnknownAndRevokedTokensAreUnauthenticated) {
  EXPECT_EQ(manager_.Authenticate(std::string("rkd_nonsense")).status().code(),
            StatusCode::kUnauthenticated);
  EXPECT_EQ(manager_.Authenticate(std::string("")).status().code(),
            StatusCode::kUnauthenticated);
  auto t = manager_.Create(admin_, Role::kAuditor, "", "to revoke");
  ASSERT_TRUE(t.ok());
  clock_.Advance(60);
  auto revoked = manager_.Revoke(admin_, t->record.id);
  ASSERT_TRUE(revoked.ok()) << revoked.status();
  EXPECT_EQ(revoked->revoked_unix, 1717214460);
  EXPECT_EQ(tokens_repo_.GetToken(t->record.id)->revoked_unix, 1717214460);
  EXPECT_EQ(tokens_repo_.AuditLog().back().action, "token.revoke");
  absl::Status s = manager_.Authenticate(t->secret).status();
  EXPECT_EQ(s.code(), StatusCode::kUnauthenticated);
  EXPECT_NE(s.message().find("revoked"), absl::string_view::npos) << s;
}

TEST_F(TokenManagerTest, RefusesBadRevocations) {
  auto a = manager_.Create(admin_, Role::kNationalAdmin, "", "a");
  ASSERT_TRUE(a.ok());
  const Caller self{Role::kNationalAdmin, "", a->record.id};
  const size_t audit = tokens_repo_.AuditLog().size();
  EXPECT_EQ(manager_.Revoke(self, a->record.id).status().code(),
            StatusCode::kFailedPrecondition);  // itself
  EXPECT_EQ(manager_.Revoke(admin_, 99).status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(manager_.Revoke(admin_, a->record.id).ok());
  EXPECT_EQ(manager_.Revoke(admin_, a->record.id).status().code(),
            StatusCode::kFailedPrecondition);  // already revoked
  EXPECT_EQ(tokens_repo_.AuditLog().size(), audit + 1);
}

// The repository behind a second instance, or counting reads: the fake,
// with the number of FindTokenByHash calls and a hook run inside the next.
class CountingTokenRepository : public testing::InMemoryTokenRepository {
 public:
  using InMemoryTokenRepository::InMemoryTokenRepository;
  absl::StatusOr<std::optional<TokenRecord>> FindTokenByHash(
      const std::string& hash) override {
    ++reads;
    auto found = InMemoryTokenRepository::FindTokenByHash(hash);
    if (std::function<void()> hook = std::exchange(during_read, nullptr)) {
      hook();
    }
    return found;
  }
  int reads = 0;
  std::function<void()> during_read;
};

class TokenCacheTest : public ::testing::Test {
 protected:
  TokenCacheTest() : repo_(nullptr), clock_(1717214400) {}
  // A national-admin token made through `m`.
  NewToken Make(TokenManager& m, const std::string& label) {
    auto t = m.Create(admin_, Role::kNationalAdmin, "", label);
    EXPECT_TRUE(t.ok()) << t.status();
    return *t;
  }
  CountingTokenRepository repo_;
  FakeClock clock_;
  const Caller admin_{Role::kNationalAdmin, "", 1000};
};

TEST_F(TokenCacheTest, ALiveTokenIsReadOnceAWhile) {
  TokenManager m(&repo_, &clock_);
  const NewToken t = Make(m, "busy");
  for (int i = 0; i < 50; ++i) {
    auto c = m.Authenticate(t.secret);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->token_id, t.record.id);
    EXPECT_EQ(c->role, Role::kNationalAdmin);
  }
  EXPECT_EQ(repo_.reads, 1);
  // Unknown tokens are not kept: every try reads.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m.Authenticate(std::string("rkd_unknown")).status().code(),
              StatusCode::kUnauthenticated);
  }
  EXPECT_EQ(repo_.reads, 4);
}

TEST_F(TokenCacheTest, WithoutACacheEveryCallReads) {
  TokenManager m(&repo_, &clock_, std::chrono::milliseconds(0));
  const NewToken t = Make(m, "uncached");
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(m.Authenticate(t.secret).ok());
  EXPECT_EQ(repo_.reads, 5);
}

TEST_F(TokenCacheTest, ARevokedTokenIsRefusedAtOnceByItsInstance) {
  TokenManager m(&repo_, &clock_, std::chrono::hours(1));
  const NewToken t = Make(m, "to revoke");
  ASSERT_TRUE(m.Authenticate(t.secret).ok());
  ASSERT_TRUE(m.Authenticate(t.secret).ok());
  ASSERT_TRUE(m.Revoke(admin_, t.record.id).ok());
  absl::Status s = m.Authenticate(t.secret).status();
  EXPECT_EQ(s.code(), StatusCode::kUnauthenticated) << s;
  EXPECT_NE(s.message().find("revoked"), absl::string_view::npos) << s;
  // And stays refused: revoked tokens are not kept either.
  EXPECT_EQ(m.Authenticate(t.secret).status().code(),
            StatusCode::kUnauthenticated);
}

TEST_F(TokenCacheTest, AReadThatRacesARevocationKeepsNothing) {
  TokenManager m(&repo_, &clock_, std::chrono::hours(1));
  const NewToken t = Make(m, "raced");
  const NewToken other = Make(m, "revoker");
  // The token is read live, then revoked before the read's answer is kept
  // (a revocation committing while an authentication was under way).
  repo_.during_read = [&] {
    ASSERT_TRUE(
        m.Revoke(Caller{Role::kNationalAdmin, "", other.record.id}, t.record.id)
            .ok());
  };
  ASSERT_TRUE(m.Authenticate(t.secret).ok());  // read before the revocation
  EXPECT_EQ(m.Authenticate(t.secret).status().code(),
            StatusCode::kUnauthenticated);
}

TEST_F(TokenCacheTest, AnotherInstancesRevocationHoldsWithinTheTtl) {
  // Two instances on one database: B revokes, A had the token cached.
  TokenManager a(&repo_, &clock_, std::chrono::milliseconds(30));
  TokenManager b(&repo_, &clock_, std::chrono::milliseconds(30));
  const NewToken t = Make(a, "shared");
  ASSERT_TRUE(a.Authenticate(t.secret).ok());
  ASSERT_TRUE(b.Revoke(admin_, t.record.id).ok());
  EXPECT_EQ(b.Authenticate(t.secret).status().code(),
            StatusCode::kUnauthenticated);
  // A reads the token again once its entry is older than the TTL.
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  EXPECT_EQ(a.Authenticate(t.secret).status().code(),
            StatusCode::kUnauthenticated);
}

}  // namespace
}  // namespace gorank::auth
