// OwnAuditEntries: the audit log entries this process committed itself, so
// that its public index follower (PgChangeFeed) need not read back the rows
// they name. The indexed repositories (services/certificates/
// indexed_certificate_repository.h) already refreshed the index after each
// of this process's writes, from the database as committed, exactly as on
// SQLite where no follower runs; the follower's read-backs are for the
// writes of other instances. An entry is noted with its leaf hash once its
// transaction committed, and skipped only when the log holds that very
// entry at that position (an entry rolled back to a savepoint, whose
// position another instance may fill later, never matches). One the
// follower reaches before it is noted is read back as before: never wrong,
// only redundant.
//
// Thread-safe.
#ifndef GORANK_STORAGE_OWN_AUDIT_ENTRIES_H_
#define GORANK_STORAGE_OWN_AUDIT_ENTRIES_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gorank::storage {

class OwnAuditEntries {
 public:
  // At most this many are kept; past it the oldest are forgotten (and read
  // back if the follower ever reaches them).
  static constexpr size_t kMaxKept = 65536;

  // Notes the entries of a committed transaction: (seq, leaf hash as
  // lowercase hex).
  void Add(const std::vector<std::pair<int64_t, std::string>>& entries);
  // True when the entry at `seq` with `leaf_hash_hex` was noted (and
  // forgets it). The follower asks in increasing order: entries below `seq`
  // are forgotten too.
  bool Take(int64_t seq, const std::string& leaf_hash_hex);
  size_t size() const;

  // The server process (backend pid) of the connection this process
  // writes through, noted at each commit: a NOTIFY it sent announces this
  // process's own entries, so it need not wake the follower (pg_change_feed:
  // the follower reads them at its next wake-up or poll, as own entries).
  // 0: none yet.
  void SetWriterPid(int pid);
  bool IsWriterPid(int pid) const;

 private:
  mutable std::mutex mu_;
  std::map<int64_t, std::string> entries_;  // guarded by mu_
  int writer_pid_ = 0;                      // guarded by mu_
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_OWN_AUDIT_ENTRIES_H_
