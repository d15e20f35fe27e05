// verify-offline's check on its own (services/cli/offline_check.h): every
// exit status from a statement signed in the test (valid, malformed,
// tampered, wrong key, revoked with its date, a revocation list not signed
// by the key, a name that is not the holder's), the order in which they
// decide, and ReadFederationKey on PEM, raw base64 and bad files.
#include "services/cli/offline_check.h"

#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "services/audit/certificate_statement.h"
#include "services/common/date.h"
#include "tests/testing/temp_dir.h"

namespace gorank::cli {
namespace {

using audit::RevocationList;
using audit::SigningKey;

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

SigningKey Key(char c) { return *SigningKey::FromSeed(std::string(32, c)); }

std::string Statement(const SigningKey& key,
                      const std::string& number = "110250001") {
  audit::CertificateStatement s;
  s.number = number;
  s.discipline = "go";
  s.grade = "3d";
  s.issue_date = "2025-12-10";
  s.agency_prefix = "110";
  s.name_digest = audit::HolderNameDigest("张三");
  s.log_index = 17;
  return *audit::SignStatement(s, key);
}

// 2025-12-20 10:00 Asia/Shanghai.
const int64_t kRevokedUnix = ShanghaiMidnight(Date{2025, 12, 20}) + 36000;

RevocationList Revocations(const SigningKey& key) {
  return audit::SignRevocationList(
      99, kRevokedUnix + 86400,
      {{"110250001", kRevokedUnix}, {"110250005", kRevokedUnix - 500}}, key);
}

// One character of the signature changed (not the last, whose spare bits
// would make the text malformed rather than altered).
std::string Tampered(const std::string& text) {
  std::string t = text;
  char& c = t[t.size() - 10];
  c = c == 'A' ? 'B' : 'A';
  return t;
}

TEST(VerifyOfflineTest, ValidStatementPrintsWhatItStates) {
  const SigningKey key = Key('a');
  const OfflineVerdict v =
      VerifyOffline(Statement(key), key.public_key(), std::nullopt, "");
  EXPECT_EQ(v.exit, 0) << v.text;
  for (const std::string& want :
       {std::string("110250001"), std::string("3d"), std::string("2025-12-10"),
        std::string("entry 17"), key.KeyId(), std::string("signature valid"),
        std::string("revocations not checked"),
        std::string("name not checked")}) {
    EXPECT_TRUE(Has(v.text, want)) << want << " in\n" << v.text;
  }
  // The verify URL the QR code carries works the same, as zbarimg prints it.
  const OfflineVerdict url = VerifyOffline(
      "https://rank.example.org/verify?number=110250001&s=" + Statement(key) +
          "\n",
      key.public_key(), std::nullopt, "");
  EXPECT_EQ(url.exit, 0) << url.text;
}

TEST(VerifyOfflineTest, NotRevokedAndTheNameMatches) {
  const SigningKey key = Key('a');
  const OfflineVerdict v = VerifyOffline(
      Statement(key, "110250002"), key.public_key(), Revocations(key), "张三");
  EXPECT_EQ(v.exit, 0) << v.text;
  EXPECT_TRUE(Has(v.text, "not revoked as of 2025-12-21 (audit log size 99)"))
      << v.text;
  EXPECT_TRUE(Has(v.text, "holder's name matches")) << v.text;
}

TEST(VerifyOfflineTest, EveryFailureHasItsExitStatusAndReason) {
  const SigningKey key = Key('a');
  const SigningKey other = Key('b');
  const std::string good = Statement(key);
  struct Case {
    const char* what;
    std::string text;
    const SigningKey* key;
    std::optional<RevocationList> list;
    std::string name;
    int exit;
    std::vector<std::string> reason;
  } cases[] = {
      {"empty", "", &key, std::nullopt, "", kExitMalformed, {"malformed"}},
      {"not a statement",
       "https://rank.example.org/verify?number=110250001",
       &key,
       std::nullopt,
       "",
       kExitMalformed,
       {"malformed", "GR1"}},
      {"cut short",
       good.substr(0, good.size() - 20),
       &key,
       std::nullopt,
       "",
       kExitMalformed,
       {"malformed", "64 bytes"}},
      {"tampered",
       Tampered(good),
       &key,
       std::nullopt,
       "",
       kExitTampered,
       {"tampered", "110250001", "altered", key.KeyId()}},
      {"wrong key",
       good,
       &other,
       std::nullopt,
       "",
       kExitWrongKey,
       {"wrong key", key.KeyId(), other.KeyId()}},
      {"revoked",
       good,
       &key,
       Revocations(key),
       "",
       kExitRevoked,
       {"revoked", "110250001", "revoked on 2025-12-20", "2025-12-21"}},
      {"list of another key",
       good,
       &key,
       Revocations(other),
       "",
       kExitBadRevocationList,
       {"bad revocation list", other.KeyId()}},
      {"name",
       Statement(key, "110250002"),
       &key,
       Revocations(key),
       "李四",
       kExitNameMismatch,
       {"name mismatch", "110250002", "李四"}},
  };
  for (const Case& c : cases) {
    const OfflineVerdict v =
        VerifyOffline(c.text, c.key->public_key(), c.list, c.name);
    EXPECT_EQ(v.exit, c.exit) << c.what << ": " << v.text;
    for (const std::string& want : c.reason) {
      EXPECT_TRUE(Has(v.text, want))
          << c.what << ": '" << want << "' not in: " << v.text;
    }
    EXPECT_FALSE(Has(v.text, "signature valid")) << c.what;
  }
  // The exit statuses are distinct.
  const std::vector<int> all = {0,
                                2,
                                kExitMalformed,
                                kExitTampered,
                                kExitWrongKey,
                                kExitRevoked,
                                kExitBadRevocationList,
                                kExitNameMismatch};
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i], all[j]);
  }
}

TEST(VerifyOfflineTest, TheSignatureDecidesBeforeTheListAndTheName) {
  const SigningKey key = Key('a');
  const SigningKey other = Key('b');
  // A tampered statement of a revoked number, with a wrong name: tampered.
  EXPECT_EQ(VerifyOffline(Tampered(Statement(key)), key.public_key(),
                          Revocations(key), "李四")
                .exit,
            kExitTampered);
  // A statement of another federation with that federation's list: wrong
  // key, not revoked.
  EXPECT_EQ(
      VerifyOffline(Statement(other), key.public_key(), Revocations(other), "")
          .exit,
      kExitWrongKey);
  // A bad list is found before the name is looked at.
  EXPECT_EQ(VerifyOffline(Statement(key, "110250002"), key.public_key(),
                          Revocations(other), "李四")
                .exit,
            kExitBadRevocationList);
  // A list with its revocation of this number removed no longer verifies.
  RevocationList edited = Revocations(key);
  edited.revoked.erase(edited.revoked.begin());
  EXPECT_EQ(VerifyOffline(Statement(key), key.public_key(), edited, "").exit,
            kExitBadRevocationList);
}

class ReadFederationKeyTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  testing::TempDir dir_;
  const SigningKey key_ = Key('a');
};

TEST_F(ReadFederationKeyTest, ReadsPemAndRawBase64) {
  for (const auto& [name, text] :
       {std::pair{"pem", key_.public_key().Pem()},
        {"pem-crlf", "\r\n" + key_.public_key().Pem() + "\r\n\r\n"},
        {"base64", key_.public_key().Base64()},
        {"base64-nl", "  " + key_.public_key().Base64() + "\n"}}) {
    absl::StatusOr<audit::VerifyingKey> k =
        ReadFederationKey(Write(name, text));
    ASSERT_TRUE(k.ok()) << name << ": " << k.status();
    EXPECT_EQ(k->Raw(), key_.public_key().Raw()) << name;
  }
}

TEST_F(ReadFederationKeyTest, BadFilesSayWhatIsWrong) {
  absl::StatusOr<audit::VerifyingKey> k =
      ReadFederationKey(dir_.File("missing.pub"));
  EXPECT_EQ(k.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(Has(std::string(k.status().message()), "missing.pub"))
      << k.status();
  std::string pem = key_.public_key().Pem();
  pem[pem.find('\n') + 5] ^= 1;  // one character of the key's base64
  const std::string raw33 = key_.public_key().Base64() + "AA";
  for (const auto& [name, text] : {std::pair{"empty", std::string()},
                                   {"words", std::string("not a key")},
                                   {"private", key_.PrivateKeyPem()},
                                   {"damaged-pem", pem},
                                   {"too-long", raw33},
                                   {"short", std::string("AAAA")}}) {
    const std::string path = Write(std::string(name) + ".pub", text);
    k = ReadFederationKey(path);
    EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument)
        << name << ": " << (k.ok() ? k->Base64() : k.status().ToString());
    EXPECT_TRUE(Has(std::string(k.status().message()), path)) << k.status();
  }
}

}  // namespace
}  // namespace gorank::cli
