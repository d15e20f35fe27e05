#include "services/audit/merkle.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/audit/encoding.h"
#include "tests/audit/merkle_reference.h"

namespace gorank::audit {
namespace {

using ::gorank::audit::testing::Leaves;
using ::gorank::audit::testing::RefMth;
using ::gorank::audit::testing::RefPath;
using ::gorank::audit::testing::RefProof;
using ::gorank::audit::testing::SyntheticEntry;
using ::gorank::audit::testing::Unhex;
using ::gorank::audit::testing::UnhexAll;
using ::testing::HasSubstr;

// The certificate-transparency test tree (RFC 6962 implementations' common
// vectors): eight leaves of these bytes.
Leaves CtLeaves() {
  return UnhexAll({"", "00", "10", "2021", "3031", "40414243",
                   "5051525354555657", "606162636465666768696a6b6c6d6e6f"});
}

// Published roots of the first n leaves, n = 0..8.
const std::vector<std::string> kCtRoots = {
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
};

std::vector<std::string> LeafHashes(const Leaves& leaves) {
  std::vector<std::string> out;
  for (const std::string& leaf : leaves) out.push_back(LeafHash(leaf));
  return out;
}

std::vector<std::string> Prefix(const std::vector<std::string>& v, size_t n) {
  return std::vector<std::string>(v.begin(), v.begin() + n);
}

TEST(MerkleHashTest, EmptyAndWellKnownRoots) {
  EXPECT_EQ(HexEncode(EmptyRootHash()), kCtRoots[0]);
  EXPECT_EQ(HexEncode(RootHash(std::vector<std::string>{})), kCtRoots[0]);
  EXPECT_EQ(HexEncode(RootHash(LeafHashes(CtLeaves()))),
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");
}

TEST(MerkleHashTest, LeafAndNodeHashUseDomainSeparation) {
  // The one-leaf tree's root is the leaf hash of the empty entry.
  EXPECT_EQ(HexEncode(LeafHash("")), kCtRoots[1]);
  std::string a = LeafHash("a");
  std::string b = LeafHash("b");
  EXPECT_EQ(NodeHash(a, b), Sha256(std::string(1, '\1') + a + b));
  EXPECT_NE(NodeHash(a, b), NodeHash(b, a));
  EXPECT_NE(LeafHash(a + b), NodeHash(a, b));
}

TEST(MerkleHashTest, PublishedRootsForEveryPrefix) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  for (size_t n = 0; n <= 8; ++n) {
    SCOPED_TRACE(n);
    EXPECT_EQ(HexEncode(RootHash(Prefix(hashes, n))), kCtRoots[n]);
    absl::StatusOr<std::string> via_reader =
        RootHash(static_cast<int64_t>(n), VectorLeafHashReader(hashes));
    ASSERT_TRUE(via_reader.ok()) << via_reader.status();
    EXPECT_EQ(HexEncode(*via_reader), kCtRoots[n]);
    Leaves leaves = CtLeaves();
    leaves.resize(n);
    EXPECT_EQ(HexEncode(RefMth(leaves)), kCtRoots[n]);
  }
}

struct InclusionVector {
  int64_t index;
  int64_t size;
  std::vector<std::string> proof;
};

// Published audit paths of the test tree (0-based leaf index).
const std::vector<InclusionVector> kInclusionVectors = {
    {0, 1, {}},
    {0,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {5,
     8,
     {"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2,
     3,
     {"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
    {1,
     5,
     {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
};

TEST(MerkleInclusionTest, PublishedAuditPaths) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  for (const InclusionVector& v : kInclusionVectors) {
    SCOPED_TRACE(std::to_string(v.index) + " of " + std::to_string(v.size));
    absl::StatusOr<std::vector<std::string>> proof =
        InclusionProof(v.index, Prefix(hashes, v.size));
    ASSERT_TRUE(proof.ok()) << proof.status();
    EXPECT_EQ(*proof, UnhexAll(v.proof));
    Verdict verdict =
        VerifyInclusion(hashes[v.index], v.index, v.size, UnhexAll(v.proof),
                        Unhex(kCtRoots[v.size]));
    EXPECT_TRUE(verdict.ok) << verdict.reason;
  }
}

struct ConsistencyVector {
  int64_t old_size;
  int64_t new_size;
  std::vector<std::string> proof;
};

const std::vector<ConsistencyVector> kConsistencyVectors = {
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2,
     5,
     {"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
};

TEST(MerkleConsistencyTest, PublishedProofs) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  for (const ConsistencyVector& v : kConsistencyVectors) {
    SCOPED_TRACE(std::to_string(v.old_size) + " -> " +
                 std::to_string(v.new_size));
    absl::StatusOr<std::vector<std::string>> proof =
        ConsistencyProof(v.old_size, Prefix(hashes, v.new_size));
    ASSERT_TRUE(proof.ok()) << proof.status();
    EXPECT_EQ(*proof, UnhexAll(v.proof));
    Verdict verdict =
        VerifyConsistency(v.old_size, v.new_size, Unhex(kCtRoots[v.old_size]),
                          Unhex(kCtRoots[v.new_size]), UnhexAll(v.proof));
    EXPECT_TRUE(verdict.ok) << verdict.reason;
  }
}

// Every (index, size) and (m, n) up to 40 leaves against the recursive
// reference, and every proof verifies.
TEST(MerkleProofTest, MatchesReferenceForAllSmallTrees) {
  Leaves leaves;
  for (int i = 0; i < 40; ++i) leaves.push_back(SyntheticEntry(i));
  std::vector<std::string> hashes = LeafHashes(leaves);
  std::vector<std::string> roots;
  for (size_t n = 0; n <= leaves.size(); ++n) {
    roots.push_back(RefMth(Leaves(leaves.begin(), leaves.begin() + n)));
  }
  for (size_t n = 1; n <= leaves.size(); ++n) {
    Leaves prefix(leaves.begin(), leaves.begin() + n);
    for (size_t i = 0; i < n; ++i) {
      absl::StatusOr<std::vector<std::string>> proof =
          InclusionProof(i, n, VectorLeafHashReader(hashes));
      ASSERT_TRUE(proof.ok()) << proof.status();
      ASSERT_EQ(*proof, RefPath(i, prefix)) << i << " of " << n;
      ASSERT_TRUE(VerifyInclusion(hashes[i], i, n, *proof, roots[n]).ok)
          << i << " of " << n;
    }
    for (size_t m = 0; m <= n; ++m) {
      absl::StatusOr<std::vector<std::string>> proof =
          ConsistencyProof(m, n, VectorLeafHashReader(hashes));
      ASSERT_TRUE(proof.ok()) << proof.status();
      ASSERT_EQ(*proof, RefProof(m, prefix)) << m << " -> " << n;
      Verdict verdict = VerifyConsistency(m, n, roots[m], roots[n], *proof);
      ASSERT_TRUE(verdict.ok) << m << " -> " << n << ": " << verdict.reason;
    }
  }
}

std::vector<std::string> FlipBit(std::vector<std::string> proof, size_t i) {
  proof[i][0] ^= 0x08;
  return proof;
}

TEST(MerkleInclusionTest, RejectsEveryCorruption) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  std::string root = Unhex(kCtRoots[8]);
  std::vector<std::string> proof = InclusionProof(5, hashes).value();
  std::vector<std::string> longer = proof;
  longer.push_back(root);
  std::vector<std::string> shorter(proof.begin(), proof.end() - 1);
  std::vector<std::string> odd_element = proof;
  odd_element[1] = "short";
  struct Case {
    const char* name;
    std::string leaf;
    int64_t index;
    int64_t size;
    std::vector<std::string> proof;
    std::string root;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"index-1", hashes[5], 4, 8, proof, root, "expected root"},
      {"index+1", hashes[5], 6, 8, proof, root, "expected root"},
      {"index out of tree", hashes[5], 8, 8, proof, root, "not in a tree"},
      {"negative index", hashes[5], -1, 8, proof, root, "not in a tree"},
      {"size*2", hashes[5], 5, 16, proof, root, "too few"},
      {"size/2", hashes[5], 5, 4, proof, root, "not in a tree"},
      {"size 7", hashes[5], 5, 7, proof, Unhex(kCtRoots[7]), "expected root"},
      {"wrong leaf", hashes[4], 5, 8, proof, root, "expected root"},
      {"empty root", hashes[5], 5, 8, proof, EmptyRootHash(), "expected root"},
      {"bit flip 0", hashes[5], 5, 8, FlipBit(proof, 0), root, "expected root"},
      {"bit flip 1", hashes[5], 5, 8, FlipBit(proof, 1), root, "expected root"},
      {"bit flip 2", hashes[5], 5, 8, FlipBit(proof, 2), root, "expected root"},
      {"extra element", hashes[5], 5, 8, longer, root, "too many"},
      {"missing element", hashes[5], 5, 8, shorter, root, "too few"},
      {"not a hash", hashes[5], 5, 8, odd_element, root, "32 bytes"},
  };
  for (const Case& c : cases) {
    Verdict verdict = VerifyInclusion(c.leaf, c.index, c.size, c.proof, c.root);
    EXPECT_FALSE(verdict.ok) << c.name;
    EXPECT_THAT(verdict.reason, HasSubstr(c.reason)) << c.name;
  }
}

TEST(MerkleConsistencyTest, RejectsEveryCorruption) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  std::string r6 = Unhex(kCtRoots[6]);
  std::string r8 = Unhex(kCtRoots[8]);
  std::vector<std::string> proof = ConsistencyProof(6, hashes).value();
  std::vector<std::string> longer = proof;
  longer.push_back(r8);
  std::vector<std::string> prefixed = proof;
  prefixed.insert(prefixed.begin(), r6);
  std::vector<std::string> shorter(proof.begin(), proof.end() - 1);
  struct Case {
    const char* name;
    int64_t old_size;
    int64_t new_size;
    std::string old_root;
    std::string new_root;
    std::vector<std::string> proof;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"old-1", 5, 8, r6, r8, proof, "too few"},
      {"old+1", 7, 8, r6, r8, proof, "too few"},
      {"new*2", 6, 16, r6, r8, proof, "too few"},
      {"old > new", 8, 6, r8, r6, proof, "larger"},
      {"wrong old root", 6, 8, r8, r8, proof, "old root"},
      {"wrong new root", 6, 8, r6, r6, proof, "new root"},
      {"empty proof", 6, 8, r6, r8, {}, "empty"},
      {"extra element", 6, 8, r6, r8, longer, "too many"},
      {"preceding root", 6, 8, r6, r8, prefixed, "too many"},
      {"missing element", 6, 8, r6, r8, shorter, "too few"},
      {"bit flip 0", 6, 8, r6, r8, FlipBit(proof, 0), "root"},
      {"bit flip 1", 6, 8, r6, r8, FlipBit(proof, 1), "new root"},
      {"bit flip 2", 6, 8, r6, r8, FlipBit(proof, 2), "root hash"},
      {"same size, other root", 8, 8, r6, r8, {}, "forked"},
      {"same size, non-empty proof", 8, 8, r8, r8, proof, "must be empty"},
      {"from empty, non-empty proof", 0, 8, EmptyRootHash(), r8, proof,
       "must be empty"},
  };
  for (const Case& c : cases) {
    Verdict verdict = VerifyConsistency(c.old_size, c.new_size, c.old_root,
                                        c.new_root, c.proof);
    EXPECT_FALSE(verdict.ok) << c.name;
    EXPECT_THAT(verdict.reason, HasSubstr(c.reason)) << c.name;
  }
  EXPECT_TRUE(VerifyConsistency(0, 8, EmptyRootHash(), r8, {}).ok);
  EXPECT_TRUE(VerifyConsistency(8, 8, r8, r8, {}).ok);
}

TEST(MerkleProofTest, InvalidRequestsAreInvalidArgument) {
  std::vector<std::string> hashes = LeafHashes(CtLeaves());
  LeafHashReader reader = VectorLeafHashReader(hashes);
  EXPECT_EQ(InclusionProof(8, 8, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InclusionProof(-1, 8, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(InclusionProof(0, 0, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ConsistencyProof(5, 4, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ConsistencyProof(-1, 4, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RootHash(-1, reader).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(InclusionProof(9, 8, reader).status().message()),
              HasSubstr("leaf index 9 is not in a tree of 8 leaves"));
}

TEST(MerkleProofTest, ReaderFailuresArePropagated) {
  LeafHashReader failing =
      [](int64_t, int64_t) -> absl::StatusOr<std::vector<std::string>> {
    return absl::UnavailableError("database is locked");
  };
  EXPECT_EQ(InclusionProof(0, 8, failing).status(),
            absl::UnavailableError("database is locked"));
  EXPECT_EQ(ConsistencyProof(3, 8, failing).status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(RootHash(8, failing).status().code(),
            absl::StatusCode::kUnavailable);

  LeafHashReader short_read =
      [](int64_t begin,
         int64_t end) -> absl::StatusOr<std::vector<std::string>> {
    return std::vector<std::string>(end - begin - 1, std::string(32, 'x'));
  };
  EXPECT_EQ(RootHash(8, short_read).status().code(),
            absl::StatusCode::kDataLoss);
  LeafHashReader bad_hash =
      [](int64_t begin,
         int64_t end) -> absl::StatusOr<std::vector<std::string>> {
    return std::vector<std::string>(end - begin, std::string(31, 'x'));
  };
  absl::Status status = InclusionProof(0, 8, bad_hash).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(status.message()), HasSubstr("31 bytes"));
}

TEST(MerkleProofTest, ReadsInBoundedBatchesAndEachLeafAtMostOnce) {
  const int64_t size = 3 * kLeafReadBatch + 17;
  std::vector<std::string> hashes;
  for (int64_t i = 0; i < size; ++i)
    hashes.push_back(LeafHash(SyntheticEntry(i)));
  LeafHashReader inner = VectorLeafHashReader(hashes);
  int64_t leaves_read = 0;
  int64_t largest_batch = 0;
  LeafHashReader counting = [&](int64_t begin, int64_t end) {
    leaves_read += end - begin;
    largest_batch = std::max(largest_batch, end - begin);
    return inner(begin, end);
  };
  std::vector<std::string> proof = InclusionProof(1234, size, counting).value();
  EXPECT_EQ(leaves_read, size - 1);  // every leaf but the proven one
  EXPECT_LE(largest_batch, kLeafReadBatch);
  EXPECT_TRUE(
      VerifyInclusion(hashes[1234], 1234, size, proof, RootHash(hashes)).ok);
  leaves_read = 0;
  std::vector<std::string> consistency =
      ConsistencyProof(5000, size, counting).value();
  EXPECT_LE(leaves_read, size);
  EXPECT_TRUE(VerifyConsistency(5000, size, RootHash(Prefix(hashes, 5000)),
                                RootHash(hashes), consistency)
                  .ok);
}

}  // namespace
}  // namespace gorank::audit
