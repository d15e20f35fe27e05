// CompactRange: the incremental form of an RFC 6962 Merkle tree. It keeps
// only the roots of the perfect subtrees that make up the first n leaves
// (one per set bit of n, largest and leftmost first: the tree's "frontier"),
// so the server can append one leaf and get the new root in O(log n) hashes
// without rereading the log. RootHash() equals merkle.h's RootHash() of the
// same leaves.
//
// Restoring after a restart: either persist frontier() with size() and use
// FromFrontier(), or rebuild from the stored leaf-hash column with Build().
//
// Value type; thread-compatible (const methods may run concurrently; a
// mutating call needs exclusive access, e.g. under the log's write lock).
#ifndef GORANK_SERVICES_AUDIT_COMPACT_RANGE_H_
#define GORANK_SERVICES_AUDIT_COMPACT_RANGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/merkle.h"

namespace gorank::audit {

class CompactRange {
 public:
  // The empty tree (size 0).
  CompactRange() = default;

  // Restores a range from its size and frontier. INVALID_ARGUMENT when
  // size < 0, the frontier does not hold exactly one hash per set bit of
  // size, or a hash is not kHashSize bytes.
  static absl::StatusOr<CompactRange> FromFrontier(
      int64_t size, std::vector<std::string> frontier);

  // The range of the first `size` leaves read through `reader` (O(size)
  // reads, O(log size) memory). INVALID_ARGUMENT when size < 0; DATA_LOSS
  // and reader errors as in merkle.h.
  static absl::StatusOr<CompactRange> Build(int64_t size,
                                            const LeafHashReader& reader);

  // Appends one leaf hash (amortized O(1), at most log2(n) node hashes).
  // REQUIRES: leaf_hash.size() == kHashSize (aborts otherwise).
  void Append(const std::string& leaf_hash);
  // Appends LeafHash(entry) and returns that leaf hash.
  std::string AppendEntry(const std::string& entry);

  // Number of leaves appended.
  int64_t size() const { return size_; }
  // MTH of all leaves appended (EmptyRootHash() when size() == 0).
  std::string RootHash() const;
  // Roots of the perfect subtrees, left to right.
  const std::vector<std::string>& frontier() const { return frontier_; }

 private:
  int64_t size_ = 0;
  std::vector<std::string> frontier_;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_COMPACT_RANGE_H_
