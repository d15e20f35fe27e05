#include "services/audit/compact_range.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::audit {

absl::StatusOr<CompactRange> CompactRange::FromFrontier(
    int64_t size, std::vector<std::string> frontier) {
  if (size < 0) {
    return absl::InvalidArgumentError("tree size " + std::to_string(size) +
                                      " is negative");
  }
  size_t expected = std::popcount(static_cast<uint64_t>(size));
  if (frontier.size() != expected) {
    return absl::InvalidArgumentError(
        "a tree of " + std::to_string(size) + " leaves has a frontier of " +
        std::to_string(expected) + " hashes, got " +
        std::to_string(frontier.size()));
  }
  for (const std::string& hash : frontier) {
    if (hash.size() != kHashSize) {
      return absl::InvalidArgumentError("frontier hash of " +
                                        std::to_string(hash.size()) +
                                        " bytes, expected 32");
    }
  }
  CompactRange range;
  range.size_ = size;
  range.frontier_ = std::move(frontier);
  return range;
}

absl::StatusOr<CompactRange> CompactRange::Build(int64_t size,
                                                 const LeafHashReader& reader) {
  if (size < 0) {
    return absl::InvalidArgumentError("tree size " + std::to_string(size) +
                                      " is negative");
  }
  CompactRange range;
  for (int64_t lo = 0; lo < size; lo += kLeafReadBatch) {
    int64_t hi = std::min(size, lo + kLeafReadBatch);
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> batch, reader(lo, hi));
    if (static_cast<int64_t>(batch.size()) != hi - lo) {
      return absl::DataLossError("leaf hash store returned " +
                                 std::to_string(batch.size()) + " hashes for " +
                                 std::to_string(hi - lo) + " leaves from " +
                                 std::to_string(lo));
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch[i].size() != kHashSize) {
        return absl::DataLossError(
            "stored leaf hash of leaf " + std::to_string(lo + i) + " has " +
            std::to_string(batch[i].size()) + " bytes, expected 32");
      }
      range.Append(batch[i]);
    }
  }
  return range;
}

void CompactRange::Append(const std::string& leaf_hash) {
  if (leaf_hash.size() != kHashSize) {
    std::fprintf(stderr, "CompactRange::Append: leaf hash of %zu bytes\n",
                 leaf_hash.size());
    std::abort();
  }
  frontier_.push_back(leaf_hash);
  // Each trailing one bit of the old size is a perfect subtree that now has
  // a right sibling of equal size: merge them.
  for (uint64_t s = static_cast<uint64_t>(size_); s & 1; s >>= 1) {
    std::string right = std::move(frontier_.back());
    frontier_.pop_back();
    frontier_.back() = NodeHash(frontier_.back(), right);
  }
  ++size_;
}

std::string CompactRange::AppendEntry(const std::string& entry) {
  std::string hash = LeafHash(entry);
  Append(hash);
  return hash;
}

std::string CompactRange::RootHash() const {
  if (frontier_.empty()) return EmptyRootHash();
  std::string root = frontier_.back();
  for (size_t i = frontier_.size() - 1; i-- > 0;) {
    root = NodeHash(frontier_[i], root);
  }
  return root;
}

}  // namespace gorank::audit
