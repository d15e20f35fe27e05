#include "tests/testing/in_memory_registry_repository.h"

#include <algorithm>

#include "absl/status/status.h"
#include "services/audit/audit_entry.h"

namespace gorank::testing {

namespace {

// SQLite encodes the audit entry last in the transaction; a change it cannot
// encode rolls everything back. The fake checks at the same point.
absl::Status CheckAuditable(const ChangeRecord& change) {
  return audit::AuditEntry::FromChange(change).Encode().status();
}

}  // namespace

using registry::Agency;
using registry::Player;
using registry::PlayerId;
using registry::RankHistoryEntry;

absl::StatusOr<std::vector<Agency>> InMemoryRegistryRepository::ListAgencies() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Agency> out;
  for (const auto& [prefix, agency] : agencies_) out.push_back(agency);
  return out;  // std::map keeps prefix order, as ORDER BY prefix does
}

absl::StatusOr<Agency> InMemoryRegistryRepository::GetAgency(
    const std::string& prefix) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = agencies_.find(prefix);
  if (it == agencies_.end()) {
    return absl::NotFoundError("no agency with prefix " + prefix);
  }
  return it->second;
}

absl::Status InMemoryRegistryRepository::InsertAgency(
    const Agency& agency, const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  if (agency.prefix.size() != 3) {  // the table's CHECK constraint
    return absl::FailedPreconditionError(
        "agency prefix must have 3 characters");
  }
  if (agencies_.count(agency.prefix) != 0) {
    return absl::AlreadyExistsError("prefix " + agency.prefix +
                                    " already belongs to an agency");
  }
  if (absl::Status a = CheckAuditable(change); !a.ok()) return a;
  agencies_[agency.prefix] = agency;
  audit_.push_back(change);
  return absl::OkStatus();
}

absl::Status InMemoryRegistryRepository::SetAgencyStatus(
    const std::string& prefix, registry::AgencyStatus status,
    const std::string& reason, const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = agencies_.find(prefix);
  if (it == agencies_.end()) {
    return absl::NotFoundError("no agency with prefix " + prefix);
  }
  if (absl::Status a = CheckAuditable(change); !a.ok()) return a;
  it->second.status = status;
  it->second.status_reason = reason;
  audit_.push_back(change);
  return absl::OkStatus();
}

bool InMemoryRegistryRepository::ResidentIdTaken(const std::string& resident_id,
                                                 int64_t except_id) const {
  if (resident_id.empty()) return false;  // stored as NULL: never a duplicate
  for (const auto& [id, p] : players_) {
    if (id != except_id && p.resident_id == resident_id) return true;
  }
  return false;
}

absl::StatusOr<PlayerId> InMemoryRegistryRepository::InsertPlayer(
    const Player& player, const std::optional<RankHistoryEntry>& initial,
    const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  if (agencies_.count(player.agency_prefix) == 0) {
    return absl::NotFoundError("agency " + player.agency_prefix +
                               " does not exist");
  }
  if (ResidentIdTaken(player.resident_id, 0)) {
    return absl::AlreadyExistsError(
        "a player with this resident ID is already registered");
  }
  if (initial && initial->from_rank.has_value()) {
    // A new player holds no rank, so the first entry must start from none.
    return absl::AbortedError("the player's rank changed meanwhile; retry");
  }
  if (absl::Status a = CheckAuditable(change); !a.ok()) return a;
  Player stored = player;
  stored.id = PlayerId{next_player_id_};
  // The ranks are set by history entries, never alone.
  stored.rank.reset();
  stored.gomoku_rank.reset();
  players_[stored.id.value] = stored;
  if (initial) {
    RankHistoryEntry e = *initial;
    e.player_id = stored.id;
    ApplyRankChangeLocked(e).IgnoreError();  // cannot fail: checked above
  }
  ++next_player_id_;
  ChangeRecord audited = change;
  audited.subject = "player:" + std::to_string(stored.id.value);
  audit_.push_back(audited);
  return stored.id;
}

absl::StatusOr<Player> InMemoryRegistryRepository::GetPlayer(PlayerId id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = players_.find(id.value);
  if (it == players_.end()) {
    return absl::NotFoundError("no player with id " + std::to_string(id.value));
  }
  return it->second;
}

absl::Status InMemoryRegistryRepository::UpdatePlayer(
    const Player& player, const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = players_.find(player.id.value);
  if (it == players_.end()) {
    return absl::NotFoundError("no player with id " +
                               std::to_string(player.id.value));
  }
  if (agencies_.count(player.agency_prefix) == 0) {
    return absl::NotFoundError("agency " + player.agency_prefix +
                               " does not exist");
  }
  if (ResidentIdTaken(player.resident_id, player.id.value)) {
    return absl::AlreadyExistsError(
        "a player with this resident ID is already registered");
  }
  if (absl::Status a = CheckAuditable(change); !a.ok()) return a;
  Player& p = it->second;
  p.name = player.name;
  p.latin_name = player.latin_name;
  p.gender = player.gender;
  p.birth_date = player.birth_date;
  p.agency_prefix = player.agency_prefix;
  p.resident_id = player.resident_id;
  p.updated_unix = player.updated_unix;
  audit_.push_back(change);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Player>> InMemoryRegistryRepository::SearchPlayers(
    const registry::PlayerQuery& q) {
  std::lock_guard<std::mutex> lock(mu_);
  auto starts_with = [&q](const std::string& s, const std::string& prefix) {
    if (q.exact_name) return s == prefix;
    return s.compare(0, prefix.size(), prefix) == 0;
  };
  std::vector<Player> out;
  for (auto it = players_.upper_bound(q.after_id); it != players_.end(); ++it) {
    if (q.limit >= 0 && static_cast<int>(out.size()) >= q.limit) break;
    const Player& p = it->second;
    if (q.exact_name && !q.latin_key.empty()) {
      if (p.name != q.name_prefix &&
          registry::LatinNameKey(p.latin_name) != q.latin_key)
        continue;
    } else if (!q.name_prefix.empty() && !starts_with(p.name, q.name_prefix) &&
               !starts_with(p.latin_name, q.name_prefix)) {
      continue;
    }
    if (!q.agency_prefix.empty() && p.agency_prefix != q.agency_prefix)
      continue;
    // Like SQL, a bound compared with an unranked player (NULL) is false.
    if (q.min_ordinal && (!p.rank || p.rank->Ordinal() < *q.min_ordinal))
      continue;
    if (q.max_ordinal && (!p.rank || p.rank->Ordinal() > *q.max_ordinal))
      continue;
    out.push_back(p);
  }
  return out;
}

absl::StatusOr<RankHistoryEntry>
InMemoryRegistryRepository::ApplyRankChangeLocked(
    const RankHistoryEntry& entry) {
  auto it = players_.find(entry.player_id.value);
  if (it == players_.end()) {
    return absl::NotFoundError("no player with id " +
                               std::to_string(entry.player_id.value));
  }
  if (it->second.RankIn(entry.discipline) != entry.from_rank) {
    return absl::AbortedError("the player's rank changed meanwhile; retry");
  }
  it->second.RankIn(entry.discipline) = entry.to_rank;
  it->second.updated_unix = entry.recorded_unix;
  RankHistoryEntry stored = entry;
  stored.id = static_cast<int64_t>(history_.size()) + 1;
  history_.push_back(stored);
  return stored;
}

absl::StatusOr<RankHistoryEntry> InMemoryRegistryRepository::ApplyRankChange(
    const RankHistoryEntry& entry, const ChangeRecord& change) {
  std::lock_guard<std::mutex> lock(mu_);
  // Validate first (ApplyRankChangeLocked mutates), in SQLite's order:
  // unknown player, stale rank, then the audit entry.
  auto it = players_.find(entry.player_id.value);
  if (it != players_.end() &&
      it->second.RankIn(entry.discipline) == entry.from_rank) {
    if (absl::Status a = CheckAuditable(change); !a.ok()) return a;
  }
  absl::StatusOr<RankHistoryEntry> stored = ApplyRankChangeLocked(entry);
  if (stored.ok()) audit_.push_back(change);
  return stored;
}

absl::StatusOr<std::vector<RankHistoryEntry>>
InMemoryRegistryRepository::ListRankHistory(PlayerId id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (players_.count(id.value) == 0) {
    return absl::NotFoundError("no player with id " + std::to_string(id.value));
  }
  std::vector<RankHistoryEntry> out;
  for (const RankHistoryEntry& e : history_) {
    if (e.player_id == id) out.push_back(e);
  }
  return out;
}

absl::StatusOr<std::vector<RankHistoryEntry>>
InMemoryRegistryRepository::ListRankChanges(
    const registry::RankChangeQuery& q) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RankHistoryEntry> out;
  for (const RankHistoryEntry& e : history_) {
    if (e.reason != q.reason || e.effective_date < q.from ||
        q.to < e.effective_date)
      continue;
    auto p = players_.find(e.player_id.value);
    if (!q.agency_prefix.empty() &&
        (p == players_.end() || p->second.agency_prefix != q.agency_prefix)) {
      continue;
    }
    out.push_back(e);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RankHistoryEntry& a, const RankHistoryEntry& b) {
                     return a.effective_date < b.effective_date;
                   });
  return out;
}

std::vector<ChangeRecord> InMemoryRegistryRepository::AuditLog() const {
  std::lock_guard<std::mutex> lock(mu_);
  return audit_;
}

bool InMemoryRegistryRepository::HasAgency(const std::string& prefix) const {
  std::lock_guard<std::mutex> lock(mu_);
  return agencies_.count(prefix) != 0;
}

}  // namespace gorank::testing
