// A deliberately naive, recursive RFC 6962 section 2.1 implementation (MTH,
// PATH, PROOF/SUBPROOF written as the RFC states them, over explicit leaf
// vectors) used as the independent oracle for the production code, which
// is iterative and reads leaves in batches. Test-only.
#ifndef GORANK_TESTS_AUDIT_MERKLE_REFERENCE_H_
#define GORANK_TESTS_AUDIT_MERKLE_REFERENCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::audit::testing {

using Leaves = std::vector<std::string>;  // entry bytes, not hashes

inline Leaves Slice(const Leaves& d, size_t begin, size_t end) {
  return Leaves(d.begin() + begin, d.begin() + end);
}

// Largest power of two strictly less than n (n > 1).
inline size_t RefSplit(size_t n) {
  size_t k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

inline std::string RefMth(const Leaves& d) {
  if (d.empty()) return Sha256("");
  if (d.size() == 1) return Sha256(std::string(1, '\0') + d[0]);
  size_t k = RefSplit(d.size());
  return Sha256(std::string(1, '\1') + RefMth(Slice(d, 0, k)) +
                RefMth(Slice(d, k, d.size())));
}

inline std::vector<std::string> RefPath(size_t m, const Leaves& d) {
  if (d.size() <= 1) return {};
  size_t k = RefSplit(d.size());
  std::vector<std::string> path;
  if (m < k) {
    path = RefPath(m, Slice(d, 0, k));
    path.push_back(RefMth(Slice(d, k, d.size())));
  } else {
    path = RefPath(m - k, Slice(d, k, d.size()));
    path.push_back(RefMth(Slice(d, 0, k)));
  }
  return path;
}

inline std::vector<std::string> RefSubproof(size_t m, const Leaves& d, bool b) {
  size_t n = d.size();
  if (m == n) {
    if (b) return {};
    return {RefMth(d)};
  }
  size_t k = RefSplit(n);
  std::vector<std::string> proof;
  if (m <= k) {
    proof = RefSubproof(m, Slice(d, 0, k), b);
    proof.push_back(RefMth(Slice(d, k, n)));
  } else {
    proof = RefSubproof(m - k, Slice(d, k, n), false);
    proof.push_back(RefMth(Slice(d, 0, k)));
  }
  return proof;
}

inline std::vector<std::string> RefProof(size_t m, const Leaves& d) {
  if (m == 0 || m == d.size()) return {};
  return RefSubproof(m, d, true);
}

inline std::string Unhex(const std::string& hex) {
  return HexDecode(hex).value();
}

inline std::vector<std::string> UnhexAll(const std::vector<std::string>& hex) {
  std::vector<std::string> out;
  for (const std::string& h : hex) out.push_back(Unhex(h));
  return out;
}

// Leaf i of a synthetic log: distinct, deterministic bytes.
inline std::string SyntheticEntry(int64_t i) {
  return "entry-" + std::to_string(i) +
         std::string(static_cast<size_t>(i % 7), '*');
}

}  // namespace gorank::audit::testing

#endif  // GORANK_TESTS_AUDIT_MERKLE_REFERENCE_H_
