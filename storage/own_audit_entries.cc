#include "storage/own_audit_entries.h"

namespace gorank::storage {

void OwnAuditEntries::Add(
    const std::vector<std::pair<int64_t, std::string>>& entries) {
  if (entries.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  // A later entry at a position replaces an earlier note (one rolled back
  // to its savepoint, its position then taken by the next).
  for (const auto& [seq, hash] : entries) entries_[seq] = hash;
  while (entries_.size() > kMaxKept) entries_.erase(entries_.begin());
}

bool OwnAuditEntries::Take(int64_t seq, const std::string& leaf_hash_hex) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.erase(entries_.begin(), entries_.lower_bound(seq));
  auto it = entries_.find(seq);
  if (it == entries_.end()) return false;
  const bool own = it->second == leaf_hash_hex;
  entries_.erase(it);
  return own;
}

void OwnAuditEntries::SetWriterPid(int pid) {
  std::lock_guard<std::mutex> lock(mu_);
  writer_pid_ = pid;
}

bool OwnAuditEntries::IsWriterPid(int pid) const {
  std::lock_guard<std::mutex> lock(mu_);
  return pid != 0 && pid == writer_pid_;
}

size_t OwnAuditEntries::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace gorank::storage
