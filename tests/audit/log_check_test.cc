// StoredLogChecker (rankd's own check of the stored log against its newest
// checkpoint): an entry altered with its leaf hash recomputed is named by
// the keyed link in the entry after it, the last entry by the checkpoint
// root, a truncated log by its first missing entry; entries of an older
// rankd (no links) are blamed as a range, lowest first; every failure has a
// reason.
#include "services/audit/log_check.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/compact_range.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

class LogCheckTest : public ::testing::Test {
 protected:
  LogCheckTest()
      : key_(SigningKey::FromSeed(std::string(32, 's')).value()),
        link_key_(RowDigestKey(key_)) {}

  // Entry i of a test log, linked to entry i - 1 when `linked`.
  std::string Entry(int64_t i, bool linked, const std::string& name = "") {
    AuditEntry e;
    e.time_unix = 1700000000 + i;
    e.actor = "national/token:1";
    e.action = "player.register";
    e.subject = "player:" + std::to_string(i);
    e.after = "{\"name\":\"" + (name.empty() ? "p" + std::to_string(i) : name) +
              "\"}";
    e.rows["players:" + std::to_string(i)] = "hmac:00";
    if (linked && i > 0)
      e.rows[ChainRowName(i)] = ChainLink(link_key_, i, leaves_.at(i - 1));
    return e.Encode().value();
  }
  // Appends `n` entries (linked from `first_linked` on).
  void Build(int n, int first_linked = 0) {
    for (int i = 0; i < n; ++i) {
      entries_.push_back(Entry(i, i >= first_linked));
      leaves_.push_back(LeafHash(entries_.back()));
    }
  }
  Checkpoint SignedAt(int64_t size) {
    CompactRange range;
    for (int64_t i = 0; i < size; ++i) range.Append(leaves_[i]);
    return SignCheckpoint(size, range.RootHash(), 1700000500, key_).value();
  }
  LogCheck Check(const std::optional<Checkpoint>& cp, int64_t size = -1) {
    StoredLogChecker checker(link_key_, cp);
    if (size < 0) size = static_cast<int64_t>(entries_.size());
    for (int64_t i = 0; i < size; ++i) checker.Add(entries_[i], leaves_[i]);
    return checker.Finish(key_.public_key());
  }
  // Rewrites entry i's name and its stored leaf hash (the whole forgery
  // short of the link key).
  void RewriteWithLeaf(int64_t i) {
    std::string e = entries_[i];
    e.replace(e.find("\"p" + std::to_string(i)), 2, "\"q");
    entries_[i] = e;
    leaves_[i] = LeafHash(e);
  }

  SigningKey key_;
  std::string link_key_;
  std::vector<std::string> entries_;
  std::vector<std::string> leaves_;
};

TEST_F(LogCheckTest, AnUntouchedLogPassesWithOrWithoutACheckpoint) {
  Build(9);
  EXPECT_TRUE(Check(std::nullopt).ok);
  LogCheck check = Check(SignedAt(9));
  EXPECT_TRUE(check.ok) << check.reason;
  EXPECT_EQ(check.entries, 9);
  EXPECT_EQ(check.checkpoint_size, 9);
  EXPECT_TRUE(Check(SignedAt(5)).ok);  // entries after the checkpoint
}

TEST_F(LogCheckTest, AnEntryRewrittenWithItsLeafHashIsNamedByTheNextLink) {
  Build(9);
  const Checkpoint cp = SignedAt(9);
  RewriteWithLeaf(4);
  for (const std::optional<Checkpoint>& with :
       {std::optional<Checkpoint>(cp), std::optional<Checkpoint>()}) {
    LogCheck check = Check(with);
    EXPECT_FALSE(check.ok);
    EXPECT_EQ(check.first_bad_index, 4);
    EXPECT_THAT(check.reason,
                HasSubstr("entry 4: altered after it was logged"));
    EXPECT_THAT(check.reason, HasSubstr("keyed link to it in entry 5"));
  }
}

TEST_F(LogCheckTest, TheLastEntryRewrittenIsNamedByTheCheckpointRoot) {
  Build(9);
  const Checkpoint cp = SignedAt(9);
  RewriteWithLeaf(8);
  LogCheck check = Check(cp);
  EXPECT_FALSE(check.ok);
  EXPECT_EQ(check.first_bad_index, 8);
  EXPECT_THAT(check.reason, HasSubstr("entry 8: altered after it was logged"));
  EXPECT_THAT(check.reason, HasSubstr("checkpoint (size 9"));
}

TEST_F(LogCheckTest, ATruncatedLogNamesItsFirstMissingEntry) {
  Build(9);
  const Checkpoint cp = SignedAt(9);
  LogCheck check = Check(cp, /*size=*/8);
  EXPECT_FALSE(check.ok);
  EXPECT_EQ(check.first_bad_index, 8);
  EXPECT_THAT(check.reason,
              HasSubstr("entry 8 is missing (the log was truncated)"));
  check = Check(cp, /*size=*/6);
  EXPECT_EQ(check.first_bad_index, 6);
  EXPECT_THAT(check.reason, HasSubstr("entry 6..8 are missing"));
}

TEST_F(LogCheckTest, BytesThatNoLongerHashToTheirLeafAreNamedExactly) {
  Build(9);
  const Checkpoint cp = SignedAt(9);
  entries_[3] = Entry(3, true, "altered");  // leaf hash left as it was
  LogCheck check = Check(cp);
  EXPECT_FALSE(check.ok);
  EXPECT_EQ(check.first_bad_index, 3);
  EXPECT_THAT(check.reason,
              HasSubstr("entry 3: its bytes do not hash to the leaf hash"));
}

TEST_F(LogCheckTest, EntriesOfAnOlderRankdWithoutLinksAreBlamedAsARange) {
  Build(9, /*first_linked=*/6);  // entries 0..5 carry no link
  const Checkpoint cp = SignedAt(9);
  EXPECT_TRUE(Check(cp).ok);
  RewriteWithLeaf(2);
  LogCheck check = Check(cp);
  EXPECT_FALSE(check.ok);
  // 0..4 are vouched for by no link (entry 5 is vouched for by entry 6's).
  EXPECT_EQ(check.first_bad_index, 0);
  EXPECT_THAT(check.reason, HasSubstr("entries in 0..8"));
  EXPECT_THAT(check.reason, Not(IsEmpty()));
}

TEST_F(LogCheckTest, OnlyTheRowsKeyIsALinkNotTheSameTextElsewhere) {
  AuditEntry e;
  e.time_unix = 1700000000;
  e.actor = "national/token:1";
  e.action = "note";
  e.subject = "audit_log:7";                  // after ':'
  e.after = "{\"audit_log:7\":\"hmac:00\"}";  // escaped inside a string
  entries_.push_back(Entry(0, true));
  leaves_.push_back(LeafHash(entries_.back()));
  entries_.push_back(e.Encode().value());
  leaves_.push_back(LeafHash(entries_.back()));
  LogCheck check = Check(SignedAt(2));
  EXPECT_TRUE(check.ok) << check.reason;
}

TEST_F(LogCheckTest, ACheckpointOfAnotherKeyAsksForTheRightKeyFile) {
  Build(3);
  SigningKey other = SigningKey::FromSeed(std::string(32, 'o')).value();
  CompactRange range;
  for (const std::string& leaf : leaves_) range.Append(leaf);
  const Checkpoint cp =
      SignCheckpoint(3, range.RootHash(), 1700000500, other).value();
  LogCheck check = Check(cp);
  EXPECT_FALSE(check.ok);
  EXPECT_THAT(check.reason, HasSubstr("--audit-key-file"));
}

}  // namespace
}  // namespace gorank::audit
