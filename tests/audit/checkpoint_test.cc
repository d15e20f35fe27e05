#include "services/audit/checkpoint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"
#include "tests/audit/merkle_reference.h"

namespace gorank::audit {
namespace {

using ::gorank::audit::testing::Unhex;
using ::testing::HasSubstr;

const char kRoot8[] =
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328";

SigningKey TestKey(char fill) {
  return SigningKey::FromSeed(std::string(32, fill)).value();
}

TEST(CheckpointTest, SignedBytesAreTheDocumentedText) {
  Checkpoint checkpoint{8, Unhex(kRoot8), 1767225600, "", ""};
  EXPECT_EQ(checkpoint.SignedBytes(),
            "gorank audit checkpoint v1\n8\n"
            "XcnaeacGWamtVZy3Ad7ZoqudgjqtL0lgz+Nw7/RgQyg=\n1767225600\n");
}

TEST(CheckpointTest, SignThenVerify) {
  SigningKey key = TestKey('k');
  absl::StatusOr<Checkpoint> checkpoint =
      SignCheckpoint(8, Unhex(kRoot8), 1767225600, key);
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  EXPECT_EQ(checkpoint->key_id, key.KeyId());
  EXPECT_EQ(checkpoint->signature.size(), kEd25519SignatureSize);
  Verdict verdict = VerifyCheckpoint(*checkpoint, key.public_key());
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  // Ed25519 is deterministic: the same key signs the same bytes identically.
  EXPECT_EQ(SignCheckpoint(8, Unhex(kRoot8), 1767225600, key)->signature,
            checkpoint->signature);
}

TEST(CheckpointTest, DetectsEveryAlteration) {
  SigningKey key = TestKey('k');
  Checkpoint good = SignCheckpoint(8, Unhex(kRoot8), 1000, key).value();
  struct Case {
    const char* name;
    Checkpoint checkpoint;
    const char* reason;
  };
  std::vector<Case> cases;
  Checkpoint c = good;
  c.tree_size = 9;
  cases.push_back({"size", c, "does not verify"});
  c = good;
  c.root_hash[0] ^= 1;
  cases.push_back({"root", c, "does not verify"});
  c = good;
  c.time_unix = 1001;
  cases.push_back({"time", c, "does not verify"});
  c = good;
  c.signature[63] ^= 0x40;
  cases.push_back({"signature bit", c, "does not verify"});
  c = good;
  c.signature.clear();
  cases.push_back({"unsigned", c, "no valid Ed25519 signature"});
  c = good;
  c.key_id = TestKey('z').KeyId();
  cases.push_back({"other key id", c, "names key"});
  for (const Case& test : cases) {
    Verdict verdict = VerifyCheckpoint(test.checkpoint, key.public_key());
    EXPECT_FALSE(verdict.ok) << test.name;
    EXPECT_THAT(verdict.reason, HasSubstr(test.reason)) << test.name;
  }
}

TEST(CheckpointTest, WrongKeyIsRejected) {
  Checkpoint checkpoint =
      SignCheckpoint(8, Unhex(kRoot8), 1000, TestKey('a')).value();
  SigningKey other = TestKey('b');
  Verdict verdict = VerifyCheckpoint(checkpoint, other.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr(other.KeyId()));
  // A forger who copies the trusted key id still fails on the signature.
  checkpoint.key_id = other.KeyId();
  verdict = VerifyCheckpoint(checkpoint, other.public_key());
  EXPECT_FALSE(verdict.ok);
  EXPECT_THAT(verdict.reason, HasSubstr("does not verify"));
}

TEST(CheckpointTest, JsonRoundTrip) {
  Checkpoint checkpoint =
      SignCheckpoint(8, Unhex(kRoot8), 1767225600, TestKey('k')).value();
  std::string json = checkpoint.ToJson();
  EXPECT_THAT(json, HasSubstr(std::string("\"root_hash\":\"") + kRoot8 + "\""));
  EXPECT_THAT(json, HasSubstr("\"tree_size\":8"));
  absl::StatusOr<Checkpoint> parsed = Checkpoint::FromJson(json);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, checkpoint);
  // Hand-edited OLD.json files may be pretty-printed.
  std::string pretty =
      "{\n  \"tree_size\": 8,\n  \"time_unix\": 1767225600,\n"
      "  \"root_hash\": \"" +
      std::string(kRoot8) +
      "\",\n"
      "  \"signature\": \"" +
      Base64Encode(checkpoint.signature) +
      "\",\n"
      "  \"key_id\": \"" +
      checkpoint.key_id + "\"\n}\n";
  EXPECT_EQ(Checkpoint::FromJson(pretty).value(), checkpoint);
}

TEST(CheckpointTest, FromJsonNamesTheBadField) {
  const std::string root = std::string("\"root_hash\":\"") + kRoot8 + "\"";
  const std::string rest =
      ",\"signature\":\"\",\"key_id\":\"k\",\"time_unix\":1";
  struct Case {
    const char* name;
    std::string json;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"not JSON", "{", "not a JSON object"},
      {"missing size", "{" + root + rest + "}", "'tree_size' is missing"},
      {"negative size", "{\"tree_size\":-1," + root + rest + "}",
       "'tree_size' is negative"},
      {"size as text", "{\"tree_size\":\"8\"," + root + rest + "}",
       "'tree_size' is not a 64-bit integer"},
      {"short root", "{\"tree_size\":8,\"root_hash\":\"5dc9\"" + rest + "}",
       "'root_hash' is not 64 hex digits"},
      {"bad signature",
       "{\"tree_size\":8," + root +
           ",\"signature\":\"!!\",\"key_id\":\"k\",\"time_unix\":1}",
       "'signature' is not base64"},
      {"unknown field", "{\"tree_size\":8," + root + rest + ",\"x\":1}",
       "unknown field 'x'"},
  };
  for (const Case& c : cases) {
    absl::Status status = Checkpoint::FromJson(c.json).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message)) << c.name;
  }
}

TEST(CheckpointTest, SignRejectsMalformedInput) {
  SigningKey key = TestKey('k');
  EXPECT_EQ(SignCheckpoint(-1, Unhex(kRoot8), 0, key).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SignCheckpoint(1, "short", 0, key).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(SignCheckpoint(0, EmptyRootHash(), 0, key).ok());
}

}  // namespace
}  // namespace gorank::audit
