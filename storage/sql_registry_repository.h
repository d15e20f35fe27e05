// RegistryRepository over the Database wrapper (SQLite or PostgreSQL):
// agencies, players and rank history, each write in one transaction with its
// audit-log entry.
#ifndef GORANK_STORAGE_SQL_REGISTRY_REPOSITORY_H_
#define GORANK_STORAGE_SQL_REGISTRY_REPOSITORY_H_

#include <memory>

#include "services/registry/registry_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database.
class SqlRegistryRepository : public registry::RegistryRepository {
 public:
  explicit SqlRegistryRepository(Database* db) : db_(db) {}

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
  // Per-key indexed reads in one snapshot (none when the registry is empty).
  absl::StatusOr<std::vector<registry::ImportMatch>> FindImportMatches(
      const std::vector<registry::ImportKey>& keys) override;
  // Prepared statements reused row after row, one audit entry per chunk.
  absl::StatusOr<std::vector<registry::PlayerId>> StoreImport(
      const std::vector<registry::ImportedPlayer>& added,
      const std::vector<registry::ExternalIdLink>& links, size_t audit_chunk,
      const registry::ImportAuditFn& audit,
      const ChangeRecord& link_change) override;

 private:
  Database* db_;
};

// Shared with the other SQL repositories that change ranks inside their
// own transactions (certificates, promotions).
namespace registry_sql {
// Reads a player inside an open transaction; NOT_FOUND when absent.
absl::StatusOr<registry::Player> LoadPlayer(Connection& c,
                                            registry::PlayerId id);
// The player `id` and the status of agency `prefix` in one statement (one
// round trip), inside an open transaction; each empty when absent. The
// agency carries only prefix, status and status_reason. Read in two steps:
// the statement sent (Statement::Send), and its answer.
struct PlayerAndAgency {
  std::optional<registry::Player> player;
  std::optional<registry::Agency> agency;
};
absl::StatusOr<std::unique_ptr<Statement>> SendPlayerAndAgency(
    Connection& c, registry::PlayerId id, const std::string& prefix);
absl::StatusOr<PlayerAndAgency> ReadPlayerAndAgency(Statement& sent,
                                                    const std::string& prefix);
// Checks the stored rank equals entry.from_rank (ABORTED otherwise), sets it
// to entry.to_rank and appends the history row; returns the row id.
absl::StatusOr<int64_t> WriteRankChange(
    Connection& c, const registry::RankHistoryEntry& entry);
// The same without the check, sent (Statement::Send), the history row
// numbered `history_id` (the number the table gives it: one above its
// highest); for a caller that read the rank in this write transaction.
absl::Status SendRankChange(Connection& c,
                            const registry::RankHistoryEntry& entry,
                            int64_t history_id);
// The highest history row number (0 for none), for SendRankChange.
constexpr char kLastHistoryId[] =
    "SELECT coalesce(max(id), 0) FROM rank_history";
std::optional<int64_t> OrdinalOf(const std::optional<registry::Rank>& r);
std::optional<registry::Rank> RankOf(const std::optional<int64_t>& ordinal);
}  // namespace registry_sql

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_REGISTRY_REPOSITORY_H_
