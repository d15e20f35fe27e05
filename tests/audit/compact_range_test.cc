#include "services/audit/compact_range.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tests/audit/merkle_reference.h"

namespace gorank::audit {
namespace {

using ::gorank::audit::testing::Leaves;
using ::gorank::audit::testing::RefMth;
using ::gorank::audit::testing::SyntheticEntry;

TEST(CompactRangeTest, IncrementalRootEqualsBatchRootForSizes0To300) {
  Leaves leaves;
  std::vector<std::string> hashes;
  CompactRange range;
  for (int64_t n = 0; n <= 300; ++n) {
    ASSERT_EQ(range.size(), n);
    ASSERT_EQ(range.frontier().size(),
              static_cast<size_t>(std::popcount(static_cast<uint64_t>(n))));
    std::string batch = RootHash(hashes);
    ASSERT_EQ(range.RootHash(), batch) << n;
    // The naive recursion is quadratic-ish; sample it.
    if (n <= 70 || n % 23 == 0 || n == 256 || n == 300) {
      ASSERT_EQ(batch, RefMth(leaves)) << n;
    }
    leaves.push_back(SyntheticEntry(n));
    hashes.push_back(range.AppendEntry(leaves.back()));
    ASSERT_EQ(hashes.back(), LeafHash(leaves.back()));
  }
}

TEST(CompactRangeTest, FrontierRoundTripContinuesIdentically) {
  CompactRange original;
  for (int i = 0; i < 77; ++i) original.AppendEntry(SyntheticEntry(i));
  absl::StatusOr<CompactRange> restored =
      CompactRange::FromFrontier(original.size(), original.frontier());
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->RootHash(), original.RootHash());
  for (int i = 77; i < 130; ++i) {
    original.AppendEntry(SyntheticEntry(i));
    restored->AppendEntry(SyntheticEntry(i));
    ASSERT_EQ(restored->RootHash(), original.RootHash()) << i;
  }
}

TEST(CompactRangeTest, BuildFromStoredLeafHashes) {
  std::vector<std::string> hashes;
  CompactRange appended;
  for (int64_t i = 0; i < 2 * kLeafReadBatch + 5; ++i) {
    hashes.push_back(appended.AppendEntry(SyntheticEntry(i)));
  }
  absl::StatusOr<CompactRange> built = CompactRange::Build(
      static_cast<int64_t>(hashes.size()), VectorLeafHashReader(hashes));
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(built->size(), appended.size());
  EXPECT_EQ(built->frontier(), appended.frontier());
  EXPECT_EQ(built->RootHash(), appended.RootHash());
}

TEST(CompactRangeTest, RejectsInconsistentFrontiers) {
  std::string h(kHashSize, 'h');
  struct Case {
    const char* name;
    int64_t size;
    std::vector<std::string> frontier;
  };
  const std::vector<Case> cases = {
      {"negative size", -1, {}},           {"size 0 with a hash", 0, {h}},
      {"size 5 needs two hashes", 5, {h}}, {"size 4 needs one hash", 4, {h, h}},
      {"short hash", 1, {"abc"}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(CompactRange::FromFrontier(c.size, c.frontier).status().code(),
              absl::StatusCode::kInvalidArgument)
        << c.name;
  }
  EXPECT_TRUE(CompactRange::FromFrontier(6, {h, h}).ok());
}

TEST(CompactRangeTest, BuildPropagatesStorageErrors) {
  LeafHashReader failing =
      [](int64_t, int64_t) -> absl::StatusOr<std::vector<std::string>> {
    return absl::InternalError("disk I/O error");
  };
  EXPECT_EQ(CompactRange::Build(3, failing).status().code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(CompactRange::Build(-2, failing).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CompactRange::Build(0, failing)->RootHash(), EmptyRootHash());
}

TEST(CompactRangeDeathTest, AppendOfNonHashAborts) {
  CompactRange range;
  EXPECT_DEATH(range.Append("not a hash"), "leaf hash of 10 bytes");
}

}  // namespace
}  // namespace gorank::audit
