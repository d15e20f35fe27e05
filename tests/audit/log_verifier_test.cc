#include "services/audit/log_verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "services/audit/merkle.h"
#include "tests/audit/log_fixture.h"

namespace gorank::audit {
namespace {

using ::gorank::audit::testing::FixtureEntries;
using ::gorank::audit::testing::FixtureEntry;
using ::gorank::audit::testing::FixtureKey;
using ::gorank::audit::testing::SignedLog;
using ::testing::HasSubstr;

constexpr int64_t kSize = 50;
const std::vector<int64_t> kSignedSizes = {10, 25, 50};

class LogVerifierTest : public ::testing::Test {
 protected:
  LogVerifierTest()
      : key_(FixtureKey()),
        log_(SignedLog(FixtureEntries(kSize), kSignedSizes, key_)) {}

  // The checkpoint of the given size from the original log.
  const Checkpoint& At(int64_t size) const {
    for (const Checkpoint& c : log_.checkpoints) {
      if (c.tree_size == size) return c;
    }
    std::abort();
  }

  SigningKey key_;
  ExportedLog log_;
};

// Flips one bit inside a string value, keeping the entry canonical JSON.
std::string FlipInsideValue(std::string bytes) {
  size_t at = bytes.find("player:") + 7;
  bytes[at] ^= 0x01;  // '1' <-> '0'
  return bytes;
}

TEST_F(LogVerifierTest, IntactLogVerifies) {
  LogVerdict verdict = VerifyExportedLog(log_, key_.public_key());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_EQ(verdict.entries, kSize);
  EXPECT_EQ(verdict.verified_size, kSize);
  EXPECT_EQ(verdict.checkpoints, 3);
  EXPECT_EQ(verdict.first_bad_index, -1);
  EXPECT_EQ(verdict.root_hash, At(kSize).root_hash);
}

TEST_F(LogVerifierTest, FlippedByteInEntryKIsNamedExactly) {
  for (int64_t k : {0, 7, 9, 10, 31, 49}) {
    ExportedLog tampered = log_;
    tampered.entries[k].bytes = FlipInsideValue(tampered.entries[k].bytes);
    LogVerdict verdict = VerifyExportedLog(tampered, key_.public_key());
    EXPECT_FALSE(verdict.ok) << k;
    EXPECT_EQ(verdict.first_bad_index, k);
    EXPECT_TRUE(verdict.exact()) << k;
    EXPECT_THAT(verdict.reason, HasSubstr("entry " + std::to_string(k) + ":"));
  }
}

TEST_F(LogVerifierTest, StructuralDamageIsNamedWithoutRecordedHashes) {
  std::vector<std::string> entries = FixtureEntries(kSize);
  entries[23][0] = '[';
  LogVerdict verdict = VerifyLog(entries, At(kSize), key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 23);
  EXPECT_TRUE(verdict.exact());
  EXPECT_THAT(verdict.reason, HasSubstr("not a valid audit entry"));
}

TEST_F(LogVerifierTest, RewrittenLeafHashNarrowsToCheckpointRange) {
  // The attacker changes entry 17 and fixes its recorded leaf hash too: only
  // the signed roots at 10 (still good) and 25 (now wrong) remain.
  ExportedLog tampered = log_;
  tampered.entries[17].bytes = FlipInsideValue(tampered.entries[17].bytes);
  tampered.entries[17].leaf_hash = LeafHash(tampered.entries[17].bytes);
  LogVerdict verdict = VerifyExportedLog(tampered, key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 10);
  EXPECT_EQ(verdict.bad_index_end, 25);
  EXPECT_THAT(verdict.reason, HasSubstr("an entry in 10..24 was changed"));

  // With only the latest checkpoint, the whole log is the range.
  std::vector<std::string> entries = FixtureEntries(kSize);
  entries[17] = tampered.entries[17].bytes;
  verdict = VerifyLog(entries, At(kSize), key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 0);
  EXPECT_EQ(verdict.bad_index_end, kSize);
}

TEST_F(LogVerifierTest, LowestBadIndexWins) {
  ExportedLog tampered = log_;
  tampered.entries[30].bytes = FlipInsideValue(tampered.entries[30].bytes);
  tampered.entries[4].bytes = FlipInsideValue(tampered.entries[4].bytes);
  EXPECT_EQ(VerifyExportedLog(tampered, key_.public_key()).first_bad_index, 4);
  // A silent rewrite in 10..24 outranks an exact defect at 30.
  tampered = log_;
  tampered.entries[30].bytes = FlipInsideValue(tampered.entries[30].bytes);
  tampered.entries[12].bytes = FlipInsideValue(tampered.entries[12].bytes);
  tampered.entries[12].leaf_hash = LeafHash(tampered.entries[12].bytes);
  LogVerdict verdict = VerifyExportedLog(tampered, key_.public_key());
  EXPECT_EQ(verdict.first_bad_index, 10);
  EXPECT_EQ(verdict.bad_index_end, 25);
}

TEST_F(LogVerifierTest, TruncatedLogIsDetected) {
  ExportedLog truncated = log_;
  truncated.entries.pop_back();
  LogVerdict verdict = VerifyExportedLog(truncated, key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, kSize - 1);
  EXPECT_EQ(verdict.bad_index_end, kSize);
  EXPECT_THAT(verdict.reason, HasSubstr("truncated"));

  std::vector<std::string> entries = FixtureEntries(kSize - 3);
  verdict = VerifyLog(entries, At(kSize), key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, kSize - 3);
}

TEST_F(LogVerifierTest, TruncationWithDroppedCheckpointNeedsTrustedCheckpoint) {
  // Entries 25.. and the checkpoint at 50 removed: the rest is self-consistent.
  ExportedLog cut = log_;
  cut.entries.resize(25);
  cut.checkpoints.pop_back();
  EXPECT_TRUE(VerifyExportedLog(cut, key_.public_key()).ok);
  LogVerifyOptions options;
  options.trusted = At(kSize);
  LogVerdict verdict = VerifyExportedLog(cut, key_.public_key(), options);
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 25);
  EXPECT_THAT(verdict.reason, HasSubstr("trusted checkpoint"));
}

TEST_F(LogVerifierTest, WrongKeyIsRejected) {
  SigningKey other = FixtureKey('o');
  LogVerdict verdict = VerifyExportedLog(log_, other.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, -1);
  EXPECT_THAT(verdict.reason, HasSubstr(other.KeyId()));
}

TEST_F(LogVerifierTest,
       HistoryRewrittenAndResignedIsCaughtByTrustedCheckpoint) {
  std::vector<std::string> entries = FixtureEntries(kSize);
  entries[3] = FixtureEntry(1000);  // a different, valid entry
  ExportedLog forged = SignedLog(entries, kSignedSizes, key_);
  EXPECT_TRUE(VerifyExportedLog(forged, key_.public_key()).ok);

  LogVerifyOptions options;
  options.trusted = At(10);  // what the auditor saved last year
  LogVerdict verdict = VerifyExportedLog(forged, key_.public_key(), options);
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 0);
  EXPECT_EQ(verdict.bad_index_end, 10);
  EXPECT_THAT(verdict.reason, HasSubstr("history rewritten"));

  options.trusted = At(10);
  EXPECT_TRUE(VerifyExportedLog(log_, key_.public_key(), options).ok);
}

TEST_F(LogVerifierTest, ConsistencyProofFromTrustedCheckpoint) {
  std::vector<std::string> hashes;
  for (const ExportedEntry& e : log_.entries) hashes.push_back(e.leaf_hash);
  LogVerifyOptions options;
  options.trusted = At(25);
  options.consistency_proof = ConsistencyProof(25, hashes).value();
  LogVerdict verdict = VerifyExportedLog(log_, key_.public_key(), options);
  EXPECT_TRUE(verdict.ok) << verdict.reason;

  (*options.consistency_proof)[0][5] ^= 1;
  verdict = VerifyExportedLog(log_, key_.public_key(), options);
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr("consistency proof is wrong"));

  options.trusted.reset();
  EXPECT_FALSE(VerifyExportedLog(log_, key_.public_key(), options).ok);
}

TEST_F(LogVerifierTest, TrustedCheckpointUnderAnOlderKey) {
  SigningKey old_key = FixtureKey('x');
  LogVerifyOptions options;
  options.trusted =
      SignCheckpoint(10, At(10).root_hash, 1700000000, old_key).value();
  LogVerdict verdict = VerifyExportedLog(log_, key_.public_key(), options);
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr("trusted checkpoint: "));
  options.trusted_key = old_key.public_key();
  verdict = VerifyExportedLog(log_, key_.public_key(), options);
  EXPECT_TRUE(verdict.ok) << verdict.reason;
}

TEST_F(LogVerifierTest, ForkedCheckpointsAreDetected) {
  ExportedLog forked = log_;
  forked.checkpoints.push_back(
      SignCheckpoint(25, At(10).root_hash, 1767230000, key_).value());
  LogVerdict verdict = VerifyExportedLog(forked, key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 10);
  EXPECT_EQ(verdict.bad_index_end, 25);
}

TEST_F(LogVerifierTest, UnsignedLogFails) {
  ExportedLog unsigned_log = log_;
  unsigned_log.checkpoints.clear();
  LogVerdict verdict = VerifyExportedLog(unsigned_log, key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr("no checkpoint"));
}

TEST_F(LogVerifierTest, EntriesAfterTheLatestCheckpointAreNotCounted) {
  ExportedLog longer = SignedLog(FixtureEntries(kSize + 4), kSignedSizes, key_);
  LogVerdict verdict = VerifyExportedLog(longer, key_.public_key());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_EQ(verdict.entries, kSize + 4);
  EXPECT_EQ(verdict.verified_size, kSize);
}

TEST_F(LogVerifierTest, NonAuditEntriesNeedTheOptionOff) {
  ExportedLog raw = SignedLog({"a", "b", "c"}, {3}, key_);
  LogVerdict strict = VerifyExportedLog(raw, key_.public_key());
  EXPECT_FALSE(strict.ok);
  EXPECT_EQ(strict.first_bad_index, 0);
  LogVerifyOptions options;
  options.require_canonical_entries = false;
  EXPECT_TRUE(VerifyExportedLog(raw, key_.public_key(), options).ok);
}

class LogFileVerifierTest : public LogVerifierTest {
 protected:
  std::vector<std::string> Lines() const {
    std::ostringstream out;
    EXPECT_TRUE(WriteLogFile(log_, out).ok());
    std::vector<std::string> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  // Line number (0-based) of entry `index`: header, entries, and the
  // checkpoints after 10 and 25 entries.
  static size_t LineOf(int64_t index) {
    return 1 + index + (index >= 10 ? 1 : 0) + (index >= 25 ? 1 : 0);
  }
  LogVerdict Verify(const std::vector<std::string>& lines,
                    const LogVerifyOptions& options = {}) const {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    std::istringstream in(text);
    return VerifyLogFile(in, key_.public_key(), options);
  }
};

TEST_F(LogFileVerifierTest, IntactFileVerifies) {
  LogVerdict verdict = Verify(Lines());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_EQ(verdict.verified_size, kSize);
}

TEST_F(LogFileVerifierTest, DeletedEntryLineIsNamed) {
  std::vector<std::string> lines = Lines();
  ASSERT_THAT(lines[LineOf(17)], HasSubstr("\"index\":17"));
  lines.erase(lines.begin() + LineOf(17));
  LogVerdict verdict = Verify(lines);
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 17);
  EXPECT_THAT(verdict.reason, HasSubstr("entry index 18 where 17"));
}

TEST_F(LogFileVerifierTest, GarbledLineIsNamed) {
  std::vector<std::string> lines = Lines();
  lines[LineOf(20)].resize(10);
  LogVerdict verdict = Verify(lines);
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 20);
  EXPECT_THAT(verdict.reason,
              HasSubstr("line " + std::to_string(LineOf(20) + 1)));
}

TEST_F(LogFileVerifierTest, EditedEntryBytesAreNamed) {
  ExportedLog tampered = log_;
  tampered.entries[33].bytes = FlipInsideValue(tampered.entries[33].bytes);
  std::ostringstream out;
  ASSERT_TRUE(WriteLogFile(tampered, out).ok());
  std::istringstream in(out.str());
  LogVerdict verdict = VerifyLogFile(in, key_.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_EQ(verdict.first_bad_index, 33);
  EXPECT_TRUE(verdict.exact());
}

TEST_F(LogFileVerifierTest, MissingHeaderFails) {
  std::vector<std::string> lines = Lines();
  lines.erase(lines.begin());
  LogVerdict verdict = Verify(lines);
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr("header"));
}

}  // namespace
}  // namespace gorank::audit
