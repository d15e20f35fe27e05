// rankd's own check of the audit log it stores: every entry's bytes against
// the leaf hash stored beside them, every entry's keyed link to the entry
// before it (keyed_digest.h), and the first N stored leaves against the root
// of the newest checkpoint rankd signed (N = its tree size). rankd runs it at
// start and keeps it running over new entries before each signature; while
// it fails rankd refuses writes, signs nothing and reports NOT_SERVING.
// Entries are not decoded (only their link is read, so a start reads a big
// log quickly); whether each decodes is the auditor's verifier's check.
//
// What it can name. An entry whose bytes no longer hash to their stored leaf
// hash, or whose successor's keyed link no longer
// matches its leaf hash (it was altered and its leaf hash recomputed) is
// named exactly. A log shorter than the checkpoint names its first missing
// entry. A root mismatch with no such defect blames the entries no link
// vouches for: the last one the checkpoint covers (when no later entry
// links to it) and entries logged before links existed (older rankd); when
// that is one entry it is named exactly, otherwise the lowest is named and
// the reason gives the range.
#ifndef GORANK_SERVICES_AUDIT_LOG_CHECK_H_
#define GORANK_SERVICES_AUDIT_LOG_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "services/audit/checkpoint.h"
#include "services/audit/compact_range.h"
#include "services/audit/signing_key.h"

namespace gorank::audit {

// Value type.
struct LogCheck {
  bool ok = true;
  int64_t first_bad_index = -1;  // -1 when ok (or no entry is to blame)
  std::string reason;            // never empty when !ok
  int64_t checkpoint_size = 0;   // the checkpoint checked against (0: none)
  int64_t entries = 0;           // entries read
};

// One line for logs and error messages: "entry 7: ..." (or the reason).
std::string DescribeLogCheck(const LogCheck& check);

// Fed the stored entries in index order. Thread-compatible.
class StoredLogChecker {
 public:
  // `link_key`: the row-digest key ("" checks no links). `checkpoint`: the
  // newest checkpoint rankd stored, read BEFORE the log size (entries are
  // only appended, so the log then covers it), or nullopt when none.
  StoredLogChecker(std::string link_key, std::optional<Checkpoint> checkpoint);

  // The entry at index entries() with the leaf hash stored for it.
  void Add(const std::string& bytes, const std::string& stored_leaf_hash);
  // The stored log has no entries from `index` on that the reader could
  // read (`why`): a defect at `index`.
  void AddUnreadable(int64_t index, const std::string& why);

  int64_t entries() const { return range_.size(); }
  // Every stored leaf hash added so far, as a Merkle range.
  const CompactRange& range() const { return range_; }

  // The verdict; `key` must have signed the checkpoint (a checkpoint of
  // another key fails: the links were keyed with that key's secret).
  LogCheck Finish(const VerifyingKey& key) const;

 private:
  struct Defect {
    int64_t index = -1;
    std::string reason;
  };
  void Record(int64_t index, std::string reason);

  std::string key_;
  std::optional<Checkpoint> checkpoint_;
  CompactRange range_;
  std::string previous_leaf_;
  std::optional<std::string> prefix_root_;  // root at checkpoint_->tree_size
  std::vector<bool> vouched_;  // entry i's leaf is vouched for by entry i + 1
  std::optional<Defect> first_defect_;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_LOG_CHECK_H_
