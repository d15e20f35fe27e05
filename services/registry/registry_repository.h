// Storage interface of the registry (agencies, players, rank history), owned
// by the domain and implemented by storage/ (SQLite) and by the in-memory
// fake in tests/testing/. Every mutating call takes the ChangeRecord that
// storage appends to the audit log in the same transaction as the change.
#ifndef GORANK_SERVICES_REGISTRY_REGISTRY_REPOSITORY_H_
#define GORANK_SERVICES_REGISTRY_REGISTRY_REPOSITORY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/change.h"
#include "services/registry/player.h"

namespace gorank::registry {

// The form in which a Latin name is looked up: ASCII letters lower-cased,
// spaces and hyphens dropped ("Ke-Jie", "KE JIE" and "ke jie" give "kejie").
// "" for a name with any byte outside ASCII (a Chinese name is looked up
// as written) or nothing left.
inline std::string LatinNameKey(const std::string& name) {
  std::string key;
  for (char c : name) {
    if (static_cast<unsigned char>(c) >= 0x80) return "";
    if (c == ' ' || c == '-') continue;
    key += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

struct PlayerQuery {
  std::string name_prefix;         // matches name or latin_name; "" = any
  std::string agency_prefix;       // "" = any
  std::optional<int> min_ordinal;  // Rank::Ordinal() bounds, inclusive;
  std::optional<int> max_ordinal;  // a bound excludes unranked players
  // name_prefix is a whole name: name or latin_name equal to it.
  bool exact_name = false;
  // With exact_name: when not "", a player also matches whose latin_name
  // has this LatinNameKey (the name_prefix's key), instead of a latin_name
  // equal to name_prefix.
  std::string latin_key;
  int64_t after_id = 0;  // pagination: ids strictly greater
  int limit = 50;
};

// Rank changes of one reason whose effective date is in [from, to], of the
// players that belong to `agency_prefix` now ("" = any).
struct RankChangeQuery {
  RankChangeReason reason = RankChangeReason::kTournamentAward;
  std::string agency_prefix;
  Date from;
  Date to;
};

// What a player import asks about one row: who in the registry has its
// resident ID, its external id (within the agency), or, for a row without a
// resident ID, its name and birth date while having no resident ID either.
struct ImportKey {
  std::string resident_id;  // "" = not asked
  std::string agency_prefix;
  std::string external_id;  // "" = not asked
  std::string name;         // asked when birth_date is set
  std::optional<Date> birth_date;
};
struct ImportMatch {
  std::optional<Player> by_resident_id;
  std::optional<Player> by_external_id;
  PlayerId same_name_and_birth;  // 0 = none
};

// One player an import adds: `player` (id ignored; rank set) and its first
// rank-history entry when it has a rank (player_id ignored).
struct ImportedPlayer {
  Player player;
  std::optional<RankHistoryEntry> entry;
};
// An external id recorded for a player already in the registry (the import
// found it by resident ID and it had none); in the player's agency.
struct ExternalIdLink {
  PlayerId player_id;
  std::string agency_prefix;
  std::string external_id;
};
// The audit record of added[begin, end), given the ids they were stored
// under (ids[i] is added[begin + i]).
using ImportAuditFn = std::function<ChangeRecord(
    size_t begin, size_t end, const std::vector<PlayerId>& ids)>;

// Implementations are thread-safe; each call is atomic.
class RegistryRepository {
 public:
  virtual ~RegistryRepository() = default;

  virtual absl::StatusOr<std::vector<Agency>> ListAgencies() = 0;
  // NOT_FOUND for an unknown prefix.
  virtual absl::StatusOr<Agency> GetAgency(const std::string& prefix) = 0;
  // ALREADY_EXISTS when the prefix is taken.
  virtual absl::Status InsertAgency(const Agency& agency,
                                    const ChangeRecord& change) = 0;
  // NOT_FOUND for an unknown prefix.
  virtual absl::Status SetAgencyStatus(const std::string& prefix,
                                       AgencyStatus status,
                                       const std::string& reason,
                                       const ChangeRecord& change) = 0;

  // Stores `player` (id ignored; its rank must equal initial->to_rank) and,
  // when given, its first rank-history entry; returns the new id.
  // ALREADY_EXISTS when the resident ID is already registered; NOT_FOUND
  // when the agency does not exist.
  virtual absl::StatusOr<PlayerId> InsertPlayer(
      const Player& player, const std::optional<RankHistoryEntry>& initial,
      const ChangeRecord& change) = 0;
  // NOT_FOUND for an unknown id.
  virtual absl::StatusOr<Player> GetPlayer(PlayerId id) = 0;
  // Replaces the stored fields (not the rank). NOT_FOUND, ALREADY_EXISTS
  // (resident ID of another player).
  virtual absl::Status UpdatePlayer(const Player& player,
                                    const ChangeRecord& change) = 0;
  // Players matching `query` in id order, at most query.limit.
  virtual absl::StatusOr<std::vector<Player>> SearchPlayers(
      const PlayerQuery& query) = 0;

  // Sets the player's rank to entry.to_rank and appends `entry` (its id is
  // ignored) in one transaction, provided the stored rank still equals
  // entry.from_rank; ABORTED when it does not (a concurrent change), NOT_FOUND
  // for an unknown player. Returns the stored entry with its id.
  virtual absl::StatusOr<RankHistoryEntry> ApplyRankChange(
      const RankHistoryEntry& entry, const ChangeRecord& change) = 0;
  // Oldest first. NOT_FOUND for an unknown player.
  virtual absl::StatusOr<std::vector<RankHistoryEntry>> ListRankHistory(
      PlayerId id) = 0;
  // Entries matching `query`, by effective date then id.
  virtual absl::StatusOr<std::vector<RankHistoryEntry>> ListRankChanges(
      const RankChangeQuery& query) = 0;

  // Player imports. The defaults answer UNIMPLEMENTED (repositories that
  // wrap another one, and fakes that do not import).
  //
  // One answer per key, in order, from one consistent snapshot.
  virtual absl::StatusOr<std::vector<ImportMatch>> FindImportMatches(
      const std::vector<ImportKey>& keys) {
    (void)keys;
    return absl::UnimplementedError("this registry cannot import players");
  }
  // Stores `added` (in order, with their external ids and history entries)
  // and `links` in ONE transaction, appending audit(begin, end, ids) for
  // every `audit_chunk` added players, and `link_change` when there are
  // links; returns the new ids in order. ABORTED when a resident ID
  // or external id was taken meanwhile (nothing stored); NOT_FOUND for an
  // unknown agency.
  virtual absl::StatusOr<std::vector<PlayerId>> StoreImport(
      const std::vector<ImportedPlayer>& added,
      const std::vector<ExternalIdLink>& links, size_t audit_chunk,
      const ImportAuditFn& audit, const ChangeRecord& link_change) {
    (void)added, (void)links, (void)audit_chunk, (void)audit, (void)link_change;
    return absl::UnimplementedError("this registry cannot import players");
  }
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_REGISTRY_REPOSITORY_H_
