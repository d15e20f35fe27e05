#include "services/audit/audit_trail.h"

#include <algorithm>
#include <map>
#include <optional>

#include "nlohmann/json.hpp"
#include "services/audit/audit_entry.h"
#include "services/audit/encoding.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/merkle.h"
#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

constexpr int64_t kMaxEntriesPerCall = 1000;
constexpr char kDeletedDigest[] = "deleted";  // storage::kDeletedRow

LeafHashReader ReaderOf(AuditRepository* repo) {
  return [repo](int64_t begin, int64_t end) {
    return repo->LeafHashes(begin, end);
  };
}

// Entries and leaf hashes are read in ranges [begin, end) of at most
// kMaxEntriesPerCall within the log.
absl::Status CheckRange(int64_t begin, int64_t end, int64_t size) {
  if (begin < 0 || end < begin || end > size ||
      end - begin > kMaxEntriesPerCall) {
    return absl::InvalidArgumentError(
        "entries are read in ranges [begin, end) of at most 1000 within the "
        "log size " +
        std::to_string(size));
  }
  return absl::OkStatus();
}

}  // namespace

const char* ReviewOutcomeName(ReviewOutcome outcome) {
  switch (outcome) {
    case ReviewOutcome::kPass:
      return "pass";
    case ReviewOutcome::kFail:
      return "fail";
    case ReviewOutcome::kPassWithConditions:
      return "pass_with_conditions";
  }
  return "unknown";
}

std::string LogRefusal(const LogCheck& check) {
  return "the audit log fails rankd's check against its own newest "
         "checkpoint (" +
         (check.first_bad_index >= 0
              ? "first bad entry " + std::to_string(check.first_bad_index) +
                    ": "
              : std::string()) +
         check.reason +
         "): rankd takes no writes and signs nothing until the database is "
         "restored from a good backup";
}

AuditTrail::AuditTrail(AuditRepository* repo, const SigningKey* key,
                       const Clock* clock)
    : repo_(repo),
      key_(key),
      clock_(clock),
      checker_(RowDigestKey(*key), std::nullopt) {}

absl::StatusOr<LogCheck> AuditTrail::CheckLog() {
  std::lock_guard<std::mutex> lock(mu_);
  // The checkpoint first, then the size: the log only grows, so it then
  // covers the checkpoint unless entries were removed.
  GORANK_ASSIGN_OR_RETURN(std::optional<Checkpoint> newest,
                          repo_->LatestCheckpoint());
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  StoredLogChecker checker(RowDigestKey(*key_), newest);
  for (int64_t begin = 0; begin < size; begin += kMaxEntriesPerCall) {
    const int64_t end = std::min(size, begin + kMaxEntriesPerCall);
    absl::StatusOr<std::vector<std::string>> entries =
        repo_->Entries(begin, end);
    absl::StatusOr<std::vector<std::string>> leaves =
        entries.ok() ? repo_->LeafHashes(begin, end) : entries.status();
    if (!leaves.ok()) {
      if (!absl::IsOutOfRange(leaves.status())) return leaves.status();
      checker.AddUnreadable(begin, std::string(leaves.status().message()));
      break;
    }
    for (size_t i = 0; i < entries->size(); ++i)
      checker.Add((*entries)[i], (*leaves)[i]);
  }
  LogCheck check = checker.Finish(key_->public_key());
  checker_ = std::move(checker);
  log_check_ = LogCheck{};
  if (!check.ok) {
    FailLocked(check).IgnoreError();
  } else {
    log_check_ = check;
  }
  return check;
}

LogCheck AuditTrail::last_log_check() const {
  std::lock_guard<std::mutex> lock(mu_);
  return log_check_;
}

void AuditTrail::SetLogFailureListener(
    std::function<void(const LogCheck&)> listener) {
  std::lock_guard<std::mutex> lock(mu_);
  on_failure_ = std::move(listener);
}

absl::Status AuditTrail::FailLocked(LogCheck check) {
  const bool first = log_check_.ok;
  log_check_ = std::move(check);
  if (first && on_failure_) on_failure_(log_check_);
  return absl::FailedPreconditionError(LogRefusal(log_check_));
}

absl::Status AuditTrail::CheckNewEntriesLocked() {
  if (!log_check_.ok)
    return absl::FailedPreconditionError(LogRefusal(log_check_));
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  if (size < checker_.entries()) {
    LogCheck check = log_check_;
    check.ok = false;
    check.first_bad_index = size;
    check.reason = "the log has " + std::to_string(size) +
                   " entries but rankd read " +
                   std::to_string(checker_.entries()) + " earlier: entry " +
                   std::to_string(size) + " and later ones were removed";
    return FailLocked(std::move(check));
  }
  while (checker_.entries() < size) {
    const int64_t begin = checker_.entries();
    const int64_t end = std::min(size, begin + kMaxEntriesPerCall);
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> entries,
                            repo_->Entries(begin, end));
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> leaves,
                            repo_->LeafHashes(begin, end));
    for (size_t i = 0; i < entries.size(); ++i)
      checker_.Add(entries[i], leaves[i]);
  }
  LogCheck check = checker_.Finish(key_->public_key());
  if (!check.ok) return FailLocked(std::move(check));
  return absl::OkStatus();
}

absl::StatusOr<Checkpoint> AuditTrail::SignCheckpointNow() {
  std::lock_guard<std::mutex> lock(mu_);
  GORANK_RETURN_IF_ERROR(CheckNewEntriesLocked());
  const CompactRange& range = checker_.range();
  GORANK_ASSIGN_OR_RETURN(Checkpoint cp,
                          SignCheckpoint(range.size(), range.RootHash(),
                                         clock_->NowSeconds(), *key_));
  GORANK_RETURN_IF_ERROR(repo_->SaveCheckpoint(cp));
  return cp;
}

absl::StatusOr<CheckpointAnswer> AuditTrail::CheckpointForAuditors() {
  CheckpointAnswer answer;
  absl::StatusOr<Checkpoint> signed_now = SignCheckpointNow();
  answer.check = last_log_check();
  if (signed_now.ok()) {
    answer.checkpoint = *signed_now;
    answer.log_size = signed_now->tree_size;  // the entries it covers
    return answer;
  }
  GORANK_ASSIGN_OR_RETURN(answer.log_size, repo_->LogSize());
  if (answer.check.ok) return signed_now.status();
  GORANK_ASSIGN_OR_RETURN(std::optional<Checkpoint> stored,
                          repo_->LatestCheckpoint());
  if (stored) answer.checkpoint = *stored;
  return answer;
}

absl::StatusOr<std::vector<std::string>> AuditTrail::Entries(int64_t begin,
                                                             int64_t end) {
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  GORANK_RETURN_IF_ERROR(CheckRange(begin, end, size));
  return repo_->Entries(begin, end);
}

absl::StatusOr<std::vector<std::string>> AuditTrail::LeafHashes(int64_t begin,
                                                                int64_t end) {
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  GORANK_RETURN_IF_ERROR(CheckRange(begin, end, size));
  return repo_->LeafHashes(begin, end);
}

absl::StatusOr<std::pair<std::string, std::vector<std::string>>>
AuditTrail::InclusionProof(int64_t index, int64_t size) {
  GORANK_ASSIGN_OR_RETURN(int64_t log_size, repo_->LogSize());
  if (size <= 0 || size > log_size || index < 0 || index >= size) {
    return absl::InvalidArgumentError(
        "need 0 <= index < tree_size <= log size " + std::to_string(log_size));
  }
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> leaf,
                          repo_->LeafHashes(index, index + 1));
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> proof,
                          audit::InclusionProof(index, size, ReaderOf(repo_)));
  return std::make_pair(leaf.at(0), proof);
}

absl::StatusOr<std::vector<std::string>> AuditTrail::ConsistencyProof(
    int64_t old_size, int64_t new_size) {
  GORANK_ASSIGN_OR_RETURN(int64_t log_size, repo_->LogSize());
  if (old_size < 0 || new_size < old_size || new_size > log_size) {
    return absl::InvalidArgumentError(
        "need 0 <= old_size <= new_size <= log size " +
        std::to_string(log_size));
  }
  return audit::ConsistencyProof(old_size, new_size, ReaderOf(repo_));
}

absl::StatusOr<TableCheck> AuditTrail::VerifyTables() {
  TableCheck check;
  // The digests the log says each row had after its last change.
  std::map<std::string, std::pair<std::string, int64_t>> expected;
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  for (int64_t begin = 0; begin < size; begin += kMaxEntriesPerCall) {
    GORANK_ASSIGN_OR_RETURN(
        std::vector<std::string> entries,
        repo_->Entries(begin, std::min(size, begin + kMaxEntriesPerCall)));
    for (size_t i = 0; i < entries.size(); ++i) {
      const int64_t index = begin + static_cast<int64_t>(i);
      auto entry = AuditEntry::Decode(entries[i]);
      if (!entry.ok()) {
        check.mismatches.push_back(
            {"audit_log", index, "entry does not decode"});
        continue;
      }
      for (const auto& [row, digest] : entry->rows) {
        if (row.rfind("audit_log:", 0) == 0) continue;  // a link, not a row
        expected[row] = {digest, index};
      }
    }
    check.entries_read += static_cast<int64_t>(entries.size());
  }
  GORANK_ASSIGN_OR_RETURN(auto current, repo_->CurrentRowDigests());
  // Rows last written by an older rankd carry unkeyed digests.
  std::optional<std::map<std::string, std::string>> legacy;
  for (const auto& [row, want] : expected) {
    if (want.first != kDeletedDigest && !IsKeyedDigest(want.first)) {
      GORANK_ASSIGN_OR_RETURN(legacy, repo_->LegacyRowDigests());
      break;
    }
  }
  check.rows_checked = static_cast<int64_t>(current.size());
  for (const auto& [row, keyed] : current) {
    auto it = expected.find(row);
    std::string digest = keyed;
    if (it != expected.end() && legacy && !IsKeyedDigest(it->second.first)) {
      auto old = legacy->find(row);
      if (old != legacy->end()) digest = old->second;
    }
    if (it == expected.end()) {
      check.mismatches.push_back({row, -1, "row is not in the audit log"});
    } else if (it->second.first != digest) {
      check.mismatches.push_back(
          {row, it->second.second,
           "row differs from the state the log recorded"});
    }
  }
  for (const auto& [row, want] : expected) {
    if (want.first != kDeletedDigest &&
        row.find(":rowid/") == std::string::npos && !current.count(row)) {
      check.mismatches.push_back(
          {row, want.second, "row recorded in the log is missing"});
    }
  }
  std::stable_sort(check.mismatches.begin(), check.mismatches.end(),
                   [](const TableMismatch& a, const TableMismatch& b) {
                     const uint64_t ai = static_cast<uint64_t>(a.log_index);
                     const uint64_t bi = static_cast<uint64_t>(b.log_index);
                     return ai < bi;  // -1 sorts last
                   });
  return check;
}

absl::StatusOr<Review> AuditTrail::RecordReview(const auth::Caller& caller,
                                                Review r) {
  if (r.agency_prefix.size() != 3 || r.year < 2000 || r.year > 2099) {
    return absl::InvalidArgumentError(
        "agency prefix (three digits) and year 2000..2099 required");
  }
  if (r.findings.empty() || r.findings.size() > 20000) {
    return absl::InvalidArgumentError(
        "findings are required (at most 20000 bytes)");
  }
  GORANK_ASSIGN_OR_RETURN(int64_t size, repo_->LogSize());
  if (r.checkpoint_size <= 0 || r.checkpoint_size > size) {
    return absl::FailedPreconditionError(
        "checkpoint_size must name a checkpoint of this log (1.." +
        std::to_string(size) + ")");
  }
  GORANK_ASSIGN_OR_RETURN(r.checkpoint_root,
                          RootHash(r.checkpoint_size, ReaderOf(repo_)));
  r.reviewer = caller.Describe();
  r.recorded_unix = clock_->NowSeconds();
  const std::string after =
      nlohmann::json{{"agency_prefix", r.agency_prefix},
                     {"year", r.year},
                     {"outcome", ReviewOutcomeName(r.outcome)},
                     {"findings", r.findings},
                     {"checkpoint_size", r.checkpoint_size},
                     {"checkpoint_root", HexEncode(r.checkpoint_root)}}
          .dump();
  GORANK_ASSIGN_OR_RETURN(
      r.id, repo_->InsertReview(
                r, ChangeRecord{r.recorded_unix, r.reviewer, "review.record",
                                "review:" + r.agency_prefix + ":" +
                                    std::to_string(r.year),
                                "", after}));
  return r;
}

absl::StatusOr<Page<Review>> AuditTrail::ListReviews(const auth::Caller& caller,
                                                     const std::string& prefix,
                                                     int year,
                                                     const PageArgs& page) {
  std::string scope = prefix;
  if (caller.role == auth::Role::kAgencyOperator) {
    if (!scope.empty() && scope != caller.agency_prefix) {
      return absl::PermissionDeniedError("an agency sees only its own reviews");
    }
    scope = caller.agency_prefix;
  }
  const PageQuery query =
      PageQuery("ListReviews").With("agency_prefix", scope).With("year", year);
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kReviewPage, query, "i", page));
  GORANK_ASSIGN_OR_RETURN(
      std::vector<Review> found,
      repo_->ListReviewsBefore(scope, year,
                               request.after ? request.after->Int(0) : 0,
                               request.FetchLimit()));
  return CutPage(std::move(found), request, query,
                 [](const Review& r) { return PageKey().Add(r.id); });
}

absl::Status AuditTrail::CheckReviewPassed(const std::string& prefix,
                                           int year) {
  GORANK_ASSIGN_OR_RETURN(std::vector<Review> reviews,
                          repo_->ListReviews(prefix, year));
  if (reviews.empty()) {
    return absl::FailedPreconditionError(
        "rule: stock for " + std::to_string(year + 1) +
        " is released only after agency " + prefix +
        " passed the annual review of " + std::to_string(year) +
        "; no review is recorded");
  }
  if (reviews.front().outcome == ReviewOutcome::kFail) {
    return absl::FailedPreconditionError(
        "rule: agency " + prefix + " failed the annual review of " +
        std::to_string(year) + "; stock for " + std::to_string(year + 1) +
        " cannot be released");
  }
  return absl::OkStatus();
}

}  // namespace gorank::audit
