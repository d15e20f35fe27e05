#include "services/audit/log_verifier.h"

#include <algorithm>
#include <utility>

#include "services/audit/audit_entry.h"
#include "services/audit/compact_range.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

std::string Describe(const Checkpoint& checkpoint, bool trusted) {
  return std::string(trusted ? "the trusted checkpoint" : "the checkpoint") +
         " of size " + std::to_string(checkpoint.tree_size) + " (time " +
         std::to_string(checkpoint.time_unix) + ")";
}

LogVerdict Failed(LogVerdict verdict, std::string reason) {
  verdict.ok = false;
  verdict.reason = std::move(reason);
  return verdict;
}

}  // namespace

LogVerifier::LogVerifier(VerifyingKey key, LogVerifyOptions options)
    : key_(std::move(key)), options_(std::move(options)) {}

void LogVerifier::Record(Blame blame) {
  if (!first_entry_blame_ || blame.begin < first_entry_blame_->begin) {
    first_entry_blame_ = std::move(blame);
  }
}

void LogVerifier::AddEntry(const std::string& bytes,
                           const std::string& recorded_leaf_hash) {
  int64_t index = entries_++;
  std::string leaf_hash = LeafHash(bytes);
  std::string name = "entry " + std::to_string(index);
  if (!recorded_leaf_hash.empty() && recorded_leaf_hash != leaf_hash) {
    Record({index, index + 1,
            name + ": its bytes do not hash to the leaf hash recorded for it "
                   "(the entry or its leaf hash was altered after logging)"});
  } else if (options_.require_canonical_entries) {
    absl::StatusOr<AuditEntry> decoded = AuditEntry::Decode(bytes);
    if (!decoded.ok()) {
      Record({index, index + 1,
              name + ": not a valid audit entry: " +
                  std::string(decoded.status().message())});
    }
  }
  leaf_hashes_ += leaf_hash;
}

void LogVerifier::AddCheckpoint(const Checkpoint& checkpoint) {
  checkpoints_.push_back(checkpoint);
}

void LogVerifier::AddDefect(int64_t index, const std::string& reason) {
  Record({index, index + 1, reason});
}

bool LogVerifier::IsTrusted(const Checkpoint* checkpoint) const {
  return options_.trusted.has_value() && checkpoint == &*options_.trusted;
}

void LogVerifier::CheckRoots(const std::vector<const Checkpoint*>& by_size,
                             const Checkpoint* latest, LogVerdict& verdict,
                             Blame& blame) const {
  CompactRange range;
  // Largest size whose root matched, and the largest matched size below it:
  // a mismatch at size s blames the entries after the largest good size < s.
  int64_t good = 0;
  int64_t good_below = 0;
  for (const Checkpoint* checkpoint : by_size) {
    int64_t size = checkpoint->tree_size;
    if (size > entries_) {
      blame = {entries_, size,
               "the log has " + std::to_string(entries_) + " entries but " +
                   Describe(*checkpoint, IsTrusted(checkpoint)) +
                   " covers more: entries " + std::to_string(entries_) + ".." +
                   std::to_string(size - 1) + " are missing (truncated log)"};
      return;
    }
    while (range.size() < size) {
      range.Append(leaf_hashes_.substr(range.size() * kHashSize, kHashSize));
    }
    std::string root = range.RootHash();
    if (root != checkpoint->root_hash) {
      bool trusted = IsTrusted(checkpoint);
      int64_t last_good = good < size ? good : good_below;
      blame = {
          last_good, size,
          "the first " + std::to_string(size) +
              " entries do not hash to the root of " +
              Describe(*checkpoint, trusted) + ": an entry in " +
              std::to_string(last_good) + ".." + std::to_string(size - 1) +
              " was changed" +
              (trusted ? " after the auditor saw it (history rewritten)" : "")};
      return;
    }
    if (size > good) {
      good_below = good;
      good = size;
    }
    if (checkpoint == latest) verdict.root_hash = root;
  }
}

Verdict LogVerifier::CheckSignatures() const {
  for (const Checkpoint& checkpoint : checkpoints_) {
    Verdict signature = VerifyCheckpoint(checkpoint, key_);
    if (!signature.ok) return signature;
  }
  if (options_.trusted) {
    Verdict signature = VerifyCheckpoint(*options_.trusted,
                                         options_.trusted_key.value_or(key_));
    if (!signature.ok) {
      return Verdict::Fail("trusted checkpoint: " + signature.reason);
    }
  }
  return Verdict::Pass();
}

Verdict LogVerifier::CheckConsistencyProof(const Checkpoint& latest) const {
  if (!options_.consistency_proof) return Verdict::Pass();
  if (!options_.trusted) {
    return Verdict::Fail(
        "a consistency proof needs the trusted checkpoint it starts from");
  }
  Verdict consistent =
      VerifyConsistency(options_.trusted->tree_size, latest.tree_size,
                        options_.trusted->root_hash, latest.root_hash,
                        *options_.consistency_proof);
  if (!consistent.ok) {
    return Verdict::Fail("the server's consistency proof is wrong: " +
                         consistent.reason);
  }
  return Verdict::Pass();
}

LogVerdict LogVerifier::Finish() const {
  LogVerdict verdict;
  verdict.entries = entries_;
  verdict.checkpoints = static_cast<int64_t>(checkpoints_.size());
  if (checkpoints_.empty()) {
    return Failed(verdict,
                  "the log has no checkpoint: nothing in it is signed");
  }
  Verdict signatures = CheckSignatures();
  if (!signatures.ok) return Failed(verdict, signatures.reason);
  std::vector<const Checkpoint*> by_size;
  for (const Checkpoint& checkpoint : checkpoints_)
    by_size.push_back(&checkpoint);
  if (options_.trusted) by_size.push_back(&*options_.trusted);
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const Checkpoint* a, const Checkpoint* b) {
                     return a->tree_size < b->tree_size;
                   });
  const Checkpoint* latest = &checkpoints_[0];
  for (const Checkpoint& c : checkpoints_) {
    if (c.tree_size > latest->tree_size) latest = &c;
  }
  Blame root_blame;
  CheckRoots(by_size, latest, verdict, root_blame);
  const std::optional<Blame>& entry_blame = first_entry_blame_;
  const Blame* blame = nullptr;
  // An exact entry defect inside (or before) the range a signed root blames
  // explains that mismatch and is the more useful answer.
  if (entry_blame) blame = &*entry_blame;
  if (root_blame.begin >= 0 && (!blame || root_blame.end <= blame->begin)) {
    blame = &root_blame;
  }
  if (blame) {
    verdict.first_bad_index = blame->begin;
    verdict.bad_index_end = blame->end;
    verdict.root_hash.clear();
    return Failed(verdict, blame->reason);
  }
  Verdict consistency = CheckConsistencyProof(*latest);
  if (!consistency.ok) return Failed(verdict, consistency.reason);
  verdict.ok = true;
  verdict.verified_size = latest->tree_size;
  return verdict;
}

LogVerdict VerifyLog(const std::vector<std::string>& entries,
                     const Checkpoint& latest, const VerifyingKey& key,
                     const LogVerifyOptions& options) {
  LogVerifier verifier(key, options);
  for (const std::string& entry : entries) verifier.AddEntry(entry);
  verifier.AddCheckpoint(latest);
  return verifier.Finish();
}

LogVerdict VerifyExportedLog(const ExportedLog& log, const VerifyingKey& key,
                             const LogVerifyOptions& options) {
  LogVerifier verifier(key, options);
  for (const ExportedEntry& entry : log.entries) {
    verifier.AddEntry(entry.bytes, entry.leaf_hash);
  }
  for (const Checkpoint& checkpoint : log.checkpoints) {
    verifier.AddCheckpoint(checkpoint);
  }
  return verifier.Finish();
}

LogVerdict VerifyLogFile(std::istream& in, const VerifyingKey& key,
                         const LogVerifyOptions& options) {
  LogVerifier verifier(key, options);
  std::string text;
  int64_t line_number = 0;
  int64_t next_index = 0;
  bool seen_header = false;
  bool entries_broken = false;  // after a defect, later indices mean nothing
  while (std::getline(in, text)) {
    ++line_number;
    absl::StatusOr<LogFileLine> line = ParseLogFileLine(text, line_number);
    if (!line.ok()) {
      if (!entries_broken) {
        verifier.AddDefect(next_index, std::string(line.status().message()));
      }
      entries_broken = true;
      continue;
    }
    if (!line->entry && !line->checkpoint) {
      if (text.find_first_not_of(" \t\r") != std::string::npos) {
        seen_header = true;
      }
      continue;
    }
    if (!seen_header) {
      LogVerdict verdict;
      return Failed(verdict, "line " + std::to_string(line_number) +
                                 ": the file does not start with the "
                                 "gorank-audit-log header line");
    }
    if (line->checkpoint) verifier.AddCheckpoint(*line->checkpoint);
    if (!line->entry || entries_broken) continue;
    if (*line->index != next_index) {
      verifier.AddDefect(
          next_index, "line " + std::to_string(line_number) + ": entry index " +
                          std::to_string(*line->index) + " where " +
                          std::to_string(next_index) +
                          " was expected (entries missing, repeated or out "
                          "of order)");
      entries_broken = true;
      continue;
    }
    verifier.AddEntry(line->entry->bytes, line->entry->leaf_hash);
    ++next_index;
  }
  if (!seen_header) {
    LogVerdict verdict;
    return Failed(verdict, "empty file: no gorank-audit-log header");
  }
  return verifier.Finish();
}

}  // namespace gorank::audit
