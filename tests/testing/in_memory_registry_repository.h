// InMemoryRegistryRepository: a fake of registry::RegistryRepository for
// domain tests, with the same observable semantics as the SQLite repository
// (the storage contract suite runs against both): ids allocated in order,
// ALREADY_EXISTS for a duplicate agency prefix or resident ID, NOT_FOUND for
// an unknown player or agency (also as a foreign key), ABORTED for a stale
// from_rank, the rank stored only through history entries, and exactly one
// audit record per successful mutation (none for a failed one).
#ifndef GORANK_TESTS_TESTING_IN_MEMORY_REGISTRY_REPOSITORY_H_
#define GORANK_TESTS_TESTING_IN_MEMORY_REGISTRY_REPOSITORY_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "services/registry/registry_repository.h"

namespace gorank::testing {

// Thread-safe; every call is atomic.
class InMemoryRegistryRepository : public registry::RegistryRepository {
 public:
  InMemoryRegistryRepository() = default;

  absl::StatusOr<std::vector<registry::Agency>> ListAgencies() override;
  absl::StatusOr<registry::Agency> GetAgency(
      const std::string& prefix) override;
  absl::Status InsertAgency(const registry::Agency& agency,
                            const ChangeRecord& change) override;
  absl::Status SetAgencyStatus(const std::string& prefix,
                               registry::AgencyStatus status,
                               const std::string& reason,
                               const ChangeRecord& change) override;
  absl::StatusOr<registry::PlayerId> InsertPlayer(
      const registry::Player& player,
      const std::optional<registry::RankHistoryEntry>& initial,
      const ChangeRecord& change) override;
  absl::StatusOr<registry::Player> GetPlayer(registry::PlayerId id) override;
  absl::Status UpdatePlayer(const registry::Player& player,
                            const ChangeRecord& change) override;
  absl::StatusOr<std::vector<registry::Player>> SearchPlayers(
      const registry::PlayerQuery& query) override;
  absl::StatusOr<registry::RankHistoryEntry> ApplyRankChange(
      const registry::RankHistoryEntry& entry,
      const ChangeRecord& change) override;
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankHistory(
      registry::PlayerId id) override;
  absl::StatusOr<std::vector<registry::RankHistoryEntry>> ListRankChanges(
      const registry::RankChangeQuery& query) override;

  // The audit records appended so far, oldest first (subjects completed the
  // way SQLite completes them, e.g. "player:<new id>").
  std::vector<ChangeRecord> AuditLog() const;
  // True when an agency with `prefix` exists (for the token fake's foreign
  // key check).
  bool HasAgency(const std::string& prefix) const;

 private:
  // REQUIRES: mu_ held.
  bool ResidentIdTaken(const std::string& resident_id, int64_t except_id) const;
  absl::StatusOr<registry::RankHistoryEntry> ApplyRankChangeLocked(
      const registry::RankHistoryEntry& entry);

  mutable std::mutex mu_;
  std::map<std::string, registry::Agency> agencies_;
  std::map<int64_t, registry::Player> players_;
  std::vector<registry::RankHistoryEntry> history_;
  std::vector<ChangeRecord> audit_;
  int64_t next_player_id_ = 1;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_IN_MEMORY_REGISTRY_REPOSITORY_H_
