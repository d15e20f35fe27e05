#include "services/audit/merkle.h"

#include <openssl/evp.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "services/audit/compact_range.h"
#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

using Range = std::pair<int64_t, int64_t>;  // [begin, end) of leaf indices

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "gorank::audit: %s\n", what);
  std::abort();
}

// The SHA-256 implementation, fetched once (EVP_sha256() would fetch it
// again on every call in OpenSSL 3). Never freed: it lives as long as the
// process.
const EVP_MD* Sha256Md() {
  static const EVP_MD* md = [] {
    EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (fetched == nullptr) Die("OpenSSL has no SHA-256");
    return fetched;
  }();
  return md;
}

// SHA-256 over the concatenation of up to three byte strings.
std::string Digest(const char* a, size_t a_len, const std::string& b = "",
                   const std::string& c = "") {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int out_len = 0;
  bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, Sha256Md(), nullptr) &&
            EVP_DigestUpdate(ctx, a, a_len) &&
            EVP_DigestUpdate(ctx, b.data(), b.size()) &&
            EVP_DigestUpdate(ctx, c.data(), c.size()) &&
            EVP_DigestFinal_ex(ctx, out, &out_len);
  EVP_MD_CTX_free(ctx);
  if (!ok || out_len != kHashSize) Die("SHA-256 failed");
  return std::string(reinterpret_cast<const char*>(out), out_len);
}

// Largest power of two strictly less than n. REQUIRES: n > 1.
int64_t SplitPoint(int64_t n) {
  return static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(n - 1)));
}

std::string RangeText(int64_t begin, int64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + ")";
}

// MTH of leaves [begin, end), read in batches. REQUIRES: begin < end.
absl::StatusOr<std::string> SubtreeRoot(const Range& range,
                                        const LeafHashReader& reader) {
  CompactRange compact;
  for (int64_t lo = range.first; lo < range.second; lo += kLeafReadBatch) {
    int64_t hi = std::min(range.second, lo + kLeafReadBatch);
    GORANK_ASSIGN_OR_RETURN(std::vector<std::string> batch, reader(lo, hi));
    if (static_cast<int64_t>(batch.size()) != hi - lo) {
      return absl::DataLossError("leaf hash store returned " +
                                 std::to_string(batch.size()) +
                                 " hashes for leaves " + RangeText(lo, hi));
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch[i].size() != kHashSize) {
        return absl::DataLossError(
            "stored leaf hash of leaf " + std::to_string(lo + i) + " has " +
            std::to_string(batch[i].size()) + " bytes, expected 32");
      }
      compact.Append(batch[i]);
    }
  }
  return compact.RootHash();
}

// Hashes the given ranges; the proof lists them deepest first, while the
// callers collect them from the root down.
absl::StatusOr<std::vector<std::string>> HashRangesReversed(
    const std::vector<Range>& ranges, const LeafHashReader& reader) {
  std::vector<std::string> proof;
  proof.reserve(ranges.size());
  for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) {
    GORANK_ASSIGN_OR_RETURN(std::string hash, SubtreeRoot(*it, reader));
    proof.push_back(std::move(hash));
  }
  return proof;
}

bool AllHashSized(const std::vector<std::string>& hashes) {
  return std::all_of(hashes.begin(), hashes.end(), [](const std::string& h) {
    return h.size() == kHashSize;
  });
}

// Shifts fn and sn right while fn is odd (RFC 9162 step "right-shift until
// LSB(fn) is not set").
void ShiftPastOnes(uint64_t& fn, uint64_t& sn) {
  while (fn & 1) {
    fn >>= 1;
    sn >>= 1;
  }
}

// Shifts fn and sn right until LSB(fn) is set or fn is 0.
void ShiftPastZeros(uint64_t& fn, uint64_t& sn) {
  while (fn != 0 && (fn & 1) == 0) {
    fn >>= 1;
    sn >>= 1;
  }
}

// RFC 9162 section 2.1.4.2 steps 2-7: the (old, new) roots a consistency
// proof yields. REQUIRES: 0 < old_size < new_size, every hash 32 bytes.
// INVALID_ARGUMENT ("has too many/few elements") on a wrong proof length.
absl::StatusOr<std::pair<std::string, std::string>> RootsFromConsistencyProof(
    int64_t old_size, int64_t new_size, const std::string& old_root,
    const std::vector<std::string>& proof) {
  std::vector<std::string> path;
  if (std::has_single_bit(static_cast<uint64_t>(old_size))) {
    path.push_back(old_root);
  }
  path.insert(path.end(), proof.begin(), proof.end());
  uint64_t fn = static_cast<uint64_t>(old_size - 1);
  uint64_t sn = static_cast<uint64_t>(new_size - 1);
  ShiftPastOnes(fn, sn);
  std::string fr = path[0];
  std::string sr = path[0];
  for (size_t i = 1; i < path.size(); ++i) {
    if (sn == 0) return absl::InvalidArgumentError("has too many elements");
    if ((fn & 1) || fn == sn) {
      fr = NodeHash(path[i], fr);
      sr = NodeHash(path[i], sr);
      ShiftPastZeros(fn, sn);
    } else {
      sr = NodeHash(sr, path[i]);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return absl::InvalidArgumentError("has too few elements");
  return std::make_pair(fr, sr);
}

}  // namespace

std::string Sha256(const std::string& data) {
  return Digest(data.data(), data.size());
}

std::string LeafHash(const std::string& entry) {
  static constexpr char kLeafPrefix = 0x00;
  return Digest(&kLeafPrefix, 1, entry);
}

std::string NodeHash(const std::string& left, const std::string& right) {
  if (left.size() != kHashSize || right.size() != kHashSize) {
    Die("NodeHash of a value that is not a 32-byte hash");
  }
  static constexpr char kNodePrefix = 0x01;
  return Digest(&kNodePrefix, 1, left, right);
}

std::string EmptyRootHash() { return Digest("", 0); }

std::string RootHash(const std::vector<std::string>& leaf_hashes) {
  CompactRange compact;
  for (const std::string& h : leaf_hashes) compact.Append(h);
  return compact.RootHash();
}

LeafHashReader VectorLeafHashReader(const std::vector<std::string>& hashes) {
  return [&hashes](int64_t begin,
                   int64_t end) -> absl::StatusOr<std::vector<std::string>> {
    if (begin < 0 || end > static_cast<int64_t>(hashes.size()) || begin > end) {
      return absl::OutOfRangeError("leaves " + RangeText(begin, end) +
                                   " are not in a log of " +
                                   std::to_string(hashes.size()) + " leaves");
    }
    return std::vector<std::string>(hashes.begin() + begin,
                                    hashes.begin() + end);
  };
}

absl::StatusOr<std::string> RootHash(int64_t size,
                                     const LeafHashReader& reader) {
  if (size < 0) {
    return absl::InvalidArgumentError("tree size " + std::to_string(size) +
                                      " is negative");
  }
  if (size == 0) return EmptyRootHash();
  return SubtreeRoot({0, size}, reader);
}

absl::StatusOr<std::vector<std::string>> InclusionProof(
    int64_t index, int64_t size, const LeafHashReader& reader) {
  if (index < 0 || index >= size) {
    return absl::InvalidArgumentError(
        "leaf index " + std::to_string(index) + " is not in a tree of " +
        std::to_string(size) + " leaves (valid: 0 <= index < size)");
  }
  std::vector<Range> siblings;
  int64_t begin = 0;
  int64_t end = size;
  while (end - begin > 1) {
    int64_t k = SplitPoint(end - begin);
    if (index - begin < k) {
      siblings.push_back({begin + k, end});
      end = begin + k;
    } else {
      siblings.push_back({begin, begin + k});
      begin += k;
    }
  }
  return HashRangesReversed(siblings, reader);
}

absl::StatusOr<std::vector<std::string>> InclusionProof(
    int64_t index, const std::vector<std::string>& leaf_hashes) {
  return InclusionProof(index, static_cast<int64_t>(leaf_hashes.size()),
                        VectorLeafHashReader(leaf_hashes));
}

absl::StatusOr<std::vector<std::string>> ConsistencyProof(
    int64_t old_size, int64_t new_size, const LeafHashReader& reader) {
  if (old_size < 0 || old_size > new_size) {
    return absl::InvalidArgumentError("no consistency proof from size " +
                                      std::to_string(old_size) + " to size " +
                                      std::to_string(new_size) +
                                      " (valid: 0 <= old_size <= new_size)");
  }
  if (old_size == 0 || old_size == new_size) return std::vector<std::string>{};
  // RFC 6962 SUBPROOF(m, D[begin:end], b), unrolled from the root down.
  std::vector<Range> nodes;
  int64_t begin = 0;
  int64_t end = new_size;
  int64_t m = old_size;
  bool whole_old_tree = true;  // b: the old tree's root is already known
  while (true) {
    int64_t n = end - begin;
    if (m == n) {
      if (!whole_old_tree) nodes.push_back({begin, end});
      break;
    }
    int64_t k = SplitPoint(n);
    if (m <= k) {
      nodes.push_back({begin + k, end});
      end = begin + k;
    } else {
      nodes.push_back({begin, begin + k});
      begin += k;
      m -= k;
      whole_old_tree = false;
    }
  }
  return HashRangesReversed(nodes, reader);
}

absl::StatusOr<std::vector<std::string>> ConsistencyProof(
    int64_t old_size, const std::vector<std::string>& leaf_hashes) {
  return ConsistencyProof(old_size, static_cast<int64_t>(leaf_hashes.size()),
                          VectorLeafHashReader(leaf_hashes));
}

absl::StatusOr<std::string> RootFromInclusionProof(
    const std::string& leaf_hash, int64_t index, int64_t size,
    const std::vector<std::string>& proof) {
  if (index < 0 || index >= size) {
    return absl::InvalidArgumentError("leaf index " + std::to_string(index) +
                                      " is not in a tree of " +
                                      std::to_string(size) + " leaves");
  }
  if (leaf_hash.size() != kHashSize || !AllHashSized(proof)) {
    return absl::InvalidArgumentError(
        "the leaf hash and every proof element must be 32 bytes");
  }
  uint64_t fn = static_cast<uint64_t>(index);
  uint64_t sn = static_cast<uint64_t>(size - 1);
  std::string r = leaf_hash;
  for (const std::string& p : proof) {
    if (sn == 0) {
      return absl::InvalidArgumentError(
          "inclusion proof has too many elements (" +
          std::to_string(proof.size()) + ") for leaf " + std::to_string(index) +
          " of " + std::to_string(size));
    }
    if ((fn & 1) || fn == sn) {
      r = NodeHash(p, r);
      ShiftPastZeros(fn, sn);
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) {
    return absl::InvalidArgumentError("inclusion proof has too few elements (" +
                                      std::to_string(proof.size()) +
                                      ") for leaf " + std::to_string(index) +
                                      " of " + std::to_string(size));
  }
  return r;
}

Verdict VerifyInclusion(const std::string& leaf_hash, int64_t index,
                        int64_t size, const std::vector<std::string>& proof,
                        const std::string& root) {
  absl::StatusOr<std::string> computed =
      RootFromInclusionProof(leaf_hash, index, size, proof);
  if (!computed.ok())
    return Verdict::Fail(std::string(computed.status().message()));
  if (*computed != root) {
    return Verdict::Fail("inclusion proof for leaf " + std::to_string(index) +
                         " of " + std::to_string(size) +
                         " does not lead to the expected root hash");
  }
  return Verdict::Pass();
}

Verdict VerifyConsistency(int64_t old_size, int64_t new_size,
                          const std::string& old_root,
                          const std::string& new_root,
                          const std::vector<std::string>& proof) {
  std::string sizes =
      std::to_string(old_size) + " -> " + std::to_string(new_size);
  if (old_size < 0 || old_size > new_size) {
    return Verdict::Fail("sizes " + sizes +
                         ": the old tree is larger than the new one "
                         "(the log shrank or the checkpoints are swapped)");
  }
  if (old_size == 0 || old_size == new_size) {
    if (!proof.empty()) {
      return Verdict::Fail("consistency proof " + sizes + " must be empty");
    }
    if (old_size == new_size && old_root != new_root) {
      return Verdict::Fail("two trees of size " + std::to_string(old_size) +
                           " have different roots (the log was forked)");
    }
    return Verdict::Pass();
  }
  if (proof.empty() || !AllHashSized(proof) || old_root.size() != kHashSize ||
      new_root.size() != kHashSize) {
    return Verdict::Fail("consistency proof " + sizes +
                         " is empty or holds a value that is not a 32-byte "
                         "hash");
  }
  absl::StatusOr<std::pair<std::string, std::string>> roots =
      RootsFromConsistencyProof(old_size, new_size, old_root, proof);
  if (!roots.ok()) {
    return Verdict::Fail("consistency proof " + sizes + " " +
                         std::string(roots.status().message()));
  }
  if (roots->first != old_root) {
    return Verdict::Fail("consistency proof " + sizes +
                         " does not lead to the old root hash");
  }
  if (roots->second != new_root) {
    return Verdict::Fail("consistency proof " + sizes +
                         " does not lead to the new root hash");
  }
  return Verdict::Pass();
}

}  // namespace gorank::audit
