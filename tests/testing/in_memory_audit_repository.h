// InMemoryAuditRepository: an in-memory AuditRepository for the AuditTrail
// unit tests, held to the same contract as the SQL one
// (tests/storage/audit_repository_contract_test.cc). The log is a vector of
// (entry bytes, leaf hash) that a test may append to or tamper with
// directly; the "tables" are a map of row digests the test sets. Reviews are
// logged like the SQL repository logs them (one entry each); agency 999 is
// the one unknown agency.
#ifndef GORANK_TESTS_TESTING_IN_MEMORY_AUDIT_REPOSITORY_H_
#define GORANK_TESTS_TESTING_IN_MEMORY_AUDIT_REPOSITORY_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "services/audit/audit_entry.h"
#include "services/audit/audit_repository.h"
#include "services/audit/merkle.h"

namespace gorank::testing {

// Thread-safe (one mutex).
class InMemoryAuditRepository : public audit::AuditRepository {
 public:
  // Appends `entry` with its true leaf hash; returns its index.
  int64_t Append(const std::string& entry) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back({entry, audit::LeafHash(entry)});
    return static_cast<int64_t>(log_.size()) - 1;
  }
  // Appends the canonical encoding of `entry`. REQUIRES: it encodes.
  int64_t Append(const audit::AuditEntry& entry) {
    return Append(entry.Encode().value());
  }

  // Replaces the stored bytes (and, when given, the stored leaf hash).
  void Tamper(int64_t index, const std::string& bytes,
              std::optional<std::string> leaf_hash = std::nullopt) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.at(static_cast<size_t>(index)).first = bytes;
    if (leaf_hash) log_.at(static_cast<size_t>(index)).second = *leaf_hash;
  }
  void SetRows(std::map<std::string, std::string> rows) {
    std::lock_guard<std::mutex> lock(mu_);
    rows_ = std::move(rows);
  }
  std::vector<audit::Checkpoint> saved_checkpoints() {
    std::lock_guard<std::mutex> lock(mu_);
    return checkpoints_;
  }
  std::vector<std::string> AllLeafHashes() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> out;
    for (const auto& e : log_) out.push_back(e.second);
    return out;
  }

  absl::StatusOr<int64_t> LogSize() override {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int64_t>(log_.size());
  }
  absl::StatusOr<std::vector<std::string>> Entries(int64_t begin,
                                                   int64_t end) override {
    return Column(begin, end, /*leaf=*/false);
  }
  absl::StatusOr<std::vector<std::string>> LeafHashes(int64_t begin,
                                                      int64_t end) override {
    return Column(begin, end, /*leaf=*/true);
  }
  absl::Status SaveCheckpoint(const audit::Checkpoint& checkpoint) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (const audit::Checkpoint& c : checkpoints_) {
      if (c.tree_size == checkpoint.tree_size) return absl::OkStatus();
    }
    checkpoints_.push_back(checkpoint);
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<audit::Checkpoint>> LatestCheckpoint() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<audit::Checkpoint> out;
    for (const audit::Checkpoint& c : checkpoints_) {
      if (!out || c.tree_size > out->tree_size) out = c;
    }
    return out;
  }
  absl::StatusOr<std::map<std::string, std::string>> CurrentRowDigests()
      override {
    std::lock_guard<std::mutex> lock(mu_);
    return rows_;
  }
  absl::StatusOr<int64_t> InsertReview(const audit::Review& review,
                                       const ChangeRecord& change) override {
    auto bytes = audit::AuditEntry::FromChange(change).Encode();
    if (!bytes.ok()) return bytes.status();
    if (review.agency_prefix == "999")
      return absl::NotFoundError("no agency 999");
    Append(*bytes);
    std::lock_guard<std::mutex> lock(mu_);
    reviews_.push_back(review);
    reviews_.back().id = static_cast<int64_t>(reviews_.size());
    return reviews_.back().id;
  }
  absl::StatusOr<std::vector<audit::Review>> ListReviews(
      const std::string& prefix, int year) override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<audit::Review> out;
    for (auto it = reviews_.rbegin(); it != reviews_.rend(); ++it) {
      if ((prefix.empty() || it->agency_prefix == prefix) &&
          (year == 0 || it->year == year)) {
        out.push_back(*it);
      }
    }
    return out;
  }
  absl::StatusOr<std::vector<audit::Review>> ListReviewsBefore(
      const std::string& prefix, int year, int64_t before_id,
      int limit) override {
    auto all = ListReviews(prefix, year);
    if (!all.ok()) return all.status();
    std::vector<audit::Review> out;
    for (const audit::Review& r : *all) {
      if (before_id != 0 && r.id >= before_id) continue;
      if (static_cast<int>(out.size()) == limit) break;
      out.push_back(r);
    }
    return out;
  }
  absl::Status Backup(const std::string&, bool) override {
    return absl::UnimplementedError("the fake has no file to back up");
  }

 private:
  absl::StatusOr<std::vector<std::string>> Column(int64_t begin, int64_t end,
                                                  bool leaf) {
    std::lock_guard<std::mutex> lock(mu_);
    if (begin < 0 || end < begin || end > static_cast<int64_t>(log_.size())) {
      return absl::OutOfRangeError("no such entries");
    }
    std::vector<std::string> out;
    for (int64_t i = begin; i < end; ++i) {
      const auto& e = log_[static_cast<size_t>(i)];
      out.push_back(leaf ? e.second : e.first);
    }
    return out;
  }

  std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> log_;  // bytes, leaf hash
  std::vector<audit::Checkpoint> checkpoints_;
  std::map<std::string, std::string> rows_;
  std::vector<audit::Review> reviews_;
};

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_IN_MEMORY_AUDIT_REPOSITORY_H_
