// The fixture of the PlayerRegistry tests: the domain over the in-memory
// fakes, a fake clock at 2024-06-01 12:00 Asia/Shanghai, agencies 000
// (national), 110, 120 and 130, one caller of every kind, and a fingerprint
// of the whole repository state to prove that refused calls change nothing.
#ifndef GORANK_TESTS_REGISTRY_REGISTRY_FIXTURE_H_
#define GORANK_TESTS_REGISTRY_REGISTRY_FIXTURE_H_

#include <string>

#include "gtest/gtest.h"
#include "services/auth/caller.h"
#include "services/common/clock.h"
#include "services/registry/player_registry.h"
#include "tests/testing/in_memory_registry_repository.h"

namespace gorank::registry {

// Valid resident IDs (check characters computed independently).
inline constexpr char kId2008[] = "44030520080110005X";   // born 2008-01-10
inline constexpr char kId2008b[] = "440305200801100180";  // born 2008-01-10
inline constexpr char kId1949[] = "11010519491231002X";   // born 1949-12-31
inline constexpr char kId2000[] = "110101200002290018";   // born 2000-02-29

class RegistryFixture : public ::testing::Test {
 protected:
  RegistryFixture();

  // A draft for `agency` with a name and nothing else.
  static PlayerDraft Draft(const std::string& name, const std::string& agency);
  // Registers as the national admin; fails the test on error.
  Player MustRegister(PlayerDraft draft);
  // Everything the repository holds (agencies, players with every field,
  // history, audit log) as text.
  std::string State();
  size_t AuditSize() { return repo_.AuditLog().size(); }
  ChangeRecord LastAudit() { return repo_.AuditLog().back(); }

  // An award basis the fixture's check accepts (see the constructor).
  static AwardBasis Event(int64_t id = 1) { return AwardBasis{id, ""}; }

  testing::InMemoryRegistryRepository repo_;
  FakeClock clock_;
  PlayerRegistry registry_;

  const auth::Caller public_ = auth::Caller::Public();
  const auth::Caller national_{auth::Role::kNationalAdmin, "", 1};
  const auth::Caller op110_{auth::Role::kAgencyOperator, "110", 2};
  const auth::Caller op120_{auth::Role::kAgencyOperator, "120", 3};
  const auth::Caller op130_{auth::Role::kAgencyOperator, "130", 4};
  const auth::Caller auditor_{auth::Role::kAuditor, "", 5};
};

// Asserts that `expr` (an absl::Status or StatusOr) fails with `code` and
// leaves the repository state as it was.
#define EXPECT_REFUSED_UNCHANGED(expr, expected_code)                    \
  do {                                                                   \
    const std::string before_state_ = State();                           \
    const absl::Status status_ = ::gorank::registry::StatusOf(expr);     \
    EXPECT_EQ(status_.code(), (expected_code)) << status_;               \
    EXPECT_EQ(State(), before_state_) << "a refused call changed state"; \
  } while (false)

inline absl::Status StatusOf(const absl::Status& s) { return s; }
template <typename T>
absl::Status StatusOf(const absl::StatusOr<T>& s) {
  return s.status();
}

}  // namespace gorank::registry

#endif  // GORANK_TESTS_REGISTRY_REGISTRY_FIXTURE_H_
