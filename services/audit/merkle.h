// RFC 6962 / RFC 9162 Merkle tree hashing over SHA-256 for the audit log:
// leaf and node hashes, the Merkle Tree Hash (MTH) of n leaves, inclusion
// proofs (audit paths, RFC 6962 section 2.1.1) and consistency proofs (RFC
// 6962 section 2.1.2), and their verification (RFC 9162 sections 2.1.3.2 and
// 2.1.4.2). Hashes are raw 32-byte strings; see encoding.h for text forms.
//
// Proof generation reads stored leaf hashes through a LeafHashReader (the
// storage layer keeps a leaf-hash column), in batches of at most
// kLeafReadBatch consecutive leaves, so it never needs the whole log in
// memory: generating a proof reads each of the first `size` leaf hashes at
// most once and keeps O(log n) hashes. The incremental append-one-leaf
// structure is CompactRange (compact_range.h).
//
// All functions are thread-safe (they share no mutable state); a reader is
// called only from the calling thread.
#ifndef GORANK_SERVICES_AUDIT_MERKLE_H_
#define GORANK_SERVICES_AUDIT_MERKLE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/audit/verdict.h"

namespace gorank::audit {

inline constexpr size_t kHashSize = 32;
inline constexpr int64_t kLeafReadBatch = 4096;

// SHA-256 of `data`.
std::string Sha256(const std::string& data);
// SHA-256(0x00 || entry): the leaf hash of one log entry's bytes.
std::string LeafHash(const std::string& entry);
// SHA-256(0x01 || left || right). REQUIRES: both are kHashSize bytes.
std::string NodeHash(const std::string& left, const std::string& right);
// MTH({}) = SHA-256(""), e3b0c442...b855.
std::string EmptyRootHash();

// MTH of the given leaf hashes (split at the largest power of two strictly
// less than n). REQUIRES: every element is kHashSize bytes.
std::string RootHash(const std::vector<std::string>& leaf_hashes);

// Returns the leaf hashes of indices [begin, end) in order; called with
// 0 <= begin < end and end - begin <= kLeafReadBatch. Whatever non-OK status
// it returns is passed through unchanged to the caller of the function that
// was given the reader.
using LeafHashReader = std::function<absl::StatusOr<std::vector<std::string>>(
    int64_t begin, int64_t end)>;

// A reader over an in-memory vector. The vector must outlive the reader.
LeafHashReader VectorLeafHashReader(const std::vector<std::string>& hashes);

// Every function taking a reader returns, besides the reader's own errors,
// DATA_LOSS when the reader returns the wrong number of hashes or a hash
// that is not kHashSize bytes.

// MTH of the first `size` leaves. INVALID_ARGUMENT when size < 0.
absl::StatusOr<std::string> RootHash(int64_t size,
                                     const LeafHashReader& reader);

// Audit path of leaf `index` in the tree of the first `size` leaves, from
// the leaf's sibling up to the root's child (RFC 6962 PATH(m, D[n])).
// INVALID_ARGUMENT unless 0 <= index < size.
absl::StatusOr<std::vector<std::string>> InclusionProof(
    int64_t index, int64_t size, const LeafHashReader& reader);
// Same over all of `leaf_hashes` (size = leaf_hashes.size()).
absl::StatusOr<std::vector<std::string>> InclusionProof(
    int64_t index, const std::vector<std::string>& leaf_hashes);

// Proof that the tree of the first `old_size` leaves is a prefix of the tree
// of the first `new_size` (RFC 6962 PROOF(m, D[n])); empty when old_size is
// 0 or equals new_size. INVALID_ARGUMENT unless 0 <= old_size <= new_size.
absl::StatusOr<std::vector<std::string>> ConsistencyProof(
    int64_t old_size, int64_t new_size, const LeafHashReader& reader);
// Same with new_size = leaf_hashes.size().
absl::StatusOr<std::vector<std::string>> ConsistencyProof(
    int64_t old_size, const std::vector<std::string>& leaf_hashes);

// The root that `proof` yields for `leaf_hash` at `index` in a tree of
// `size` leaves (RFC 9162 section 2.1.3.2). INVALID_ARGUMENT when
// index >= size, index < 0, a hash is not kHashSize bytes, or the proof has
// the wrong number of elements for (index, size).
absl::StatusOr<std::string> RootFromInclusionProof(
    const std::string& leaf_hash, int64_t index, int64_t size,
    const std::vector<std::string>& proof);

// Whether `proof` shows that `leaf_hash` is leaf `index` of the tree of
// `size` leaves whose root is `root`. Never an error: every defect (bad
// index, wrong proof length, wrong hash) is a failed Verdict with a reason.
Verdict VerifyInclusion(const std::string& leaf_hash, int64_t index,
                        int64_t size, const std::vector<std::string>& proof,
                        const std::string& root);

// Whether `proof` shows that the tree (old_size, old_root) is a prefix of the
// tree (new_size, new_root) (RFC 9162 section 2.1.4.2). old_size == 0 passes
// with an empty proof; old_size == new_size passes only with an empty proof
// and equal roots. Never an error (see VerifyInclusion).
Verdict VerifyConsistency(int64_t old_size, int64_t new_size,
                          const std::string& old_root,
                          const std::string& new_root,
                          const std::vector<std::string>& proof);

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_MERKLE_H_
