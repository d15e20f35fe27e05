// The fixture of the Certification tests: the certificate office over the
// real SQLite repositories on a fresh database file in a temp directory
// (there is no in-memory certificate repository: serials, stock counts and
// rank changes live in one SQLite transaction), wired the way rankd wires it
// (registry reads settle due notices first), with a fake clock at
// 2025-06-02 12:00 Asia/Shanghai and one caller of every kind.
#ifndef GORANK_TESTS_CERTIFICATES_CERTIFICATION_FIXTURE_H_
#define GORANK_TESTS_CERTIFICATES_CERTIFICATION_FIXTURE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/auth/caller.h"
#include "services/certificates/certification.h"
#include "services/common/clock.h"
#include "services/registry/player_registry.h"
#include "storage/database.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/temp_dir.h"

namespace gorank::certificates {

inline registry::Rank R(const char* text) {
  return registry::Rank::FromString(text);
}

class CertificationFixture : public ::testing::Test {
 protected:
  CertificationFixture();

  // Registers a player of `agency` as the national admin (fails the test on
  // error). `complete`: with gender and birth date (1990-05-01 unless given).
  registry::Player MustRegister(
      const std::string& name, const std::string& agency,
      std::optional<registry::Rank> rank = std::nullopt, bool complete = true,
      std::optional<Date> birth = std::nullopt);
  // A tournament-based request for `player`.
  static IssueRequest Request(const registry::Player& player, const char* grade,
                              const std::string& prefix = "");
  // Issues `request` as `caller`; fails the test on error.
  Certificate MustIssue(const auth::Caller& caller,
                        const IssueRequest& request);
  // The national admin orders and releases `quantity` certificates of
  // `prefix` for `year`.
  void GiveStock(const std::string& prefix, int year, int quantity);

  // The player's rank as a registry read shows it (due notices settled).
  std::optional<registry::Rank> RankOf(registry::PlayerId id);
  std::vector<registry::RankHistoryEntry> History(registry::PlayerId id);
  // certificate_serials.last_serial (0 without a row).
  int64_t LastSerial(const std::string& prefix, int year);
  // Serials of the certificates rows of `prefix` and `year`, ascending.
  std::vector<int64_t> Serials(const std::string& prefix, int year);
  // Runs one SQL statement in a write transaction; fails the test on error.
  void ExecSql(const std::string& sql);

  testing::TempDir dir_;
  FakeClock clock_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_repo_;
  std::unique_ptr<storage::SqlCertificateRepository> cert_repo_;
  std::unique_ptr<registry::PlayerRegistry> registry_;
  std::unique_ptr<Certification> office_;

  const auth::Caller public_ = auth::Caller::Public();
  const auth::Caller national_{auth::Role::kNationalAdmin, "", 1};
  const auth::Caller op110_{auth::Role::kAgencyOperator, "110", 2};
  const auth::Caller op120_{auth::Role::kAgencyOperator, "120", 3};
  const auth::Caller auditor_{auth::Role::kAuditor, "", 4};
};

}  // namespace gorank::certificates

#endif  // GORANK_TESTS_CERTIFICATES_CERTIFICATION_FIXTURE_H_
