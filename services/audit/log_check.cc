#include "services/audit/log_check.h"

#include <cstdlib>
#include <utility>

#include "services/audit/keyed_digest.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

std::string Name(int64_t index) { return "entry " + std::to_string(index); }

struct Link {
  int64_t seq = 0;
  std::string digest;
};

// The keyed link in an entry's "rows", found without decoding the whole
// entry (rankd reads every entry at start). Entries are canonical JSON
// (AuditEntry::Encode): a rows key stands after '{' or ',' and before
// "\":\""; the same text inside before/after is escaped (\"), and a
// subject stands after ':'.
std::optional<Link> FindLink(const std::string& bytes) {
  static const std::string kKey = "\"audit_log:";
  for (size_t at = bytes.find(kKey); at != std::string::npos;
       at = bytes.find(kKey, at + 1)) {
    if (at == 0 || (bytes[at - 1] != '{' && bytes[at - 1] != ',')) continue;
    size_t p = at + kKey.size();
    const size_t digits = p;
    while (p < bytes.size() && bytes[p] >= '0' && bytes[p] <= '9') ++p;
    if (p == digits || bytes.compare(p, 3, "\":\"") != 0) continue;
    const size_t value = p + 3;
    const size_t end = bytes.find('"', value);
    if (end == std::string::npos) return std::nullopt;
    return Link{std::strtoll(bytes.c_str() + digits, nullptr, 10),
                bytes.substr(value, end - value)};
  }
  return std::nullopt;
}

std::string DescribeCheckpoint(const Checkpoint& cp) {
  return "rankd's newest checkpoint (size " + std::to_string(cp.tree_size) +
         ", time " + std::to_string(cp.time_unix) + ")";
}

}  // namespace

std::string DescribeLogCheck(const LogCheck& check) {
  if (check.ok) return "ok";
  return check.reason;
}

StoredLogChecker::StoredLogChecker(std::string link_key,
                                   std::optional<Checkpoint> checkpoint)
    : key_(std::move(link_key)), checkpoint_(std::move(checkpoint)) {
  if (checkpoint_ && checkpoint_->tree_size == 0) {
    prefix_root_ = range_.RootHash();
  }
}

void StoredLogChecker::Record(int64_t index, std::string reason) {
  if (!first_defect_ || index < first_defect_->index) {
    first_defect_ = Defect{index, std::move(reason)};
  }
}

void StoredLogChecker::Add(const std::string& bytes,
                           const std::string& stored_leaf_hash) {
  const int64_t index = range_.size();
  vouched_.push_back(false);
  if (LeafHash(bytes) != stored_leaf_hash) {
    Record(index, Name(index) +
                      ": its bytes do not hash to the leaf hash stored for it "
                      "(the entry or its leaf hash was altered after logging)");
  }
  // (Whether each entry decodes is the auditor's verifier's check, which
  // reads every entry anyway; here only the link is read.)
  const std::optional<Link> link =
      key_.empty() ? std::nullopt : FindLink(bytes);
  if (link && link->seq != index) {
    Record(index, Name(index) + ": its keyed link names entry " +
                      std::to_string(link->seq - 1) + ", not entry " +
                      std::to_string(index - 1) +
                      " (entries were removed, inserted or reordered)");
  } else if (link && index > 0 &&
             link->digest != ChainLink(key_, link->seq, previous_leaf_)) {
    Record(index - 1,
           Name(index - 1) +
               ": altered after it was logged: the keyed link to it in entry " +
               std::to_string(index) +
               " no longer matches (its leaf hash was recomputed)");
  } else if (link && index > 0) {
    vouched_[static_cast<size_t>(index - 1)] = true;
  }
  if (stored_leaf_hash.size() == kHashSize) {
    range_.Append(stored_leaf_hash);
  } else {
    Record(index, Name(index) + ": its stored leaf hash is not " +
                      std::to_string(kHashSize) + " bytes");
    range_.Append(LeafHash(bytes));
  }
  previous_leaf_ = stored_leaf_hash;
  if (checkpoint_ && range_.size() == checkpoint_->tree_size) {
    prefix_root_ = range_.RootHash();
  }
}

void StoredLogChecker::AddUnreadable(int64_t index, const std::string& why) {
  Record(index, Name(index) + ": cannot be read: " + why);
}

LogCheck StoredLogChecker::Finish(const VerifyingKey& key) const {
  LogCheck check;
  check.entries = range_.size();
  std::optional<Defect> blame = first_defect_;
  if (checkpoint_) {
    const Checkpoint& cp = *checkpoint_;
    check.checkpoint_size = cp.tree_size;
    if (cp.key_id != key.KeyId()) {
      // The keyed links and row digests were made with that key's secret.
      check.ok = false;
      check.reason = DescribeCheckpoint(cp) + " was signed by key " +
                     cp.key_id + " but this rankd holds key " + key.KeyId() +
                     ": start it with the audit key file this registry was "
                     "written with (--audit-key-file)";
      return check;
    }
    Verdict signature = VerifyCheckpoint(cp, key);
    if (!signature.ok) {
      check.ok = false;
      check.reason = DescribeCheckpoint(cp) +
                     " is not validly signed: " + signature.reason;
      return check;
    }
    Defect root;
    if (range_.size() < cp.tree_size) {
      root = {range_.size(),
              "the log has " + std::to_string(range_.size()) + " entries but " +
                  DescribeCheckpoint(cp) + " covers " +
                  std::to_string(cp.tree_size) + ": " + Name(range_.size()) +
                  (cp.tree_size - range_.size() > 1
                       ? ".." + std::to_string(cp.tree_size - 1) + " are"
                       : " is") +
                  " missing (the log was truncated)"};
    } else if (prefix_root_ && *prefix_root_ != cp.root_hash &&
               !(blame && blame->index < cp.tree_size)) {
      // (An exact defect among the covered entries explains the mismatch.)
      std::vector<int64_t> suspects;
      for (int64_t i = 0; i < cp.tree_size; ++i) {
        if (!vouched_[static_cast<size_t>(i)]) suspects.push_back(i);
      }
      const std::string mismatch = "the first " + std::to_string(cp.tree_size) +
                                   " entries no longer hash to the root of " +
                                   DescribeCheckpoint(cp);
      if (suspects.size() == 1) {
        root = {suspects[0], Name(suspects[0]) +
                                 ": altered after it was logged: " + mismatch +
                                 ", and every other entry it covers is vouched "
                                 "for by the keyed link in the entry after it"};
      } else if (!suspects.empty()) {
        root = {suspects[0],
                mismatch + ": one of the " + std::to_string(suspects.size()) +
                    " entries in " + std::to_string(suspects[0]) + ".." +
                    std::to_string(suspects.back()) +
                    " that no keyed link vouches for (logged before links "
                    "existed) was changed; the first is named"};
      } else {
        root = {cp.tree_size - 1,
                mismatch +
                    ": every entry's link matches, so the stored "
                    "leaf hashes were rewritten together"};
      }
    }
    if (root.index >= 0 && (!blame || root.index < blame->index)) {
      blame = root;
    }
  }
  if (blame) {
    check.ok = false;
    check.first_bad_index = blame->index;
    check.reason = blame->reason;
  }
  return check;
}

}  // namespace gorank::audit
