#include "services/audit/signing_key.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
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
using ::testing::StartsWith;

struct Rfc8032Vector {
  const char* seed;
  const char* public_key;
  const char* message;
  const char* signature;
};

// RFC 8032 section 7.1, TEST 1 and TEST 2.
const std::vector<Rfc8032Vector> kRfc8032 = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb882159"
     "0"
     "a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43"
     "e"
     "15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
};

TEST(SigningKeyTest, Rfc8032Vectors) {
  for (const Rfc8032Vector& v : kRfc8032) {
    absl::StatusOr<SigningKey> key = SigningKey::FromSeed(Unhex(v.seed));
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_EQ(HexEncode(key->public_key().Raw()), v.public_key);
    std::string message = Unhex(v.message);
    EXPECT_EQ(HexEncode(key->Sign(message)), v.signature);
    VerifyingKey public_key =
        VerifyingKey::FromRaw(Unhex(v.public_key)).value();
    EXPECT_TRUE(public_key.Verify(message, Unhex(v.signature)));
    EXPECT_FALSE(public_key.Verify(message + "x", Unhex(v.signature)));
  }
}

TEST(SigningKeyTest, GeneratedKeysSignAndVerify) {
  SigningKey a = SigningKey::Generate().value();
  SigningKey b = SigningKey::Generate().value();
  EXPECT_NE(a.public_key().Raw(), b.public_key().Raw());
  EXPECT_NE(a.KeyId(), b.KeyId());
  EXPECT_EQ(a.KeyId().size(), 16u);
  EXPECT_EQ(a.KeyId(), HexEncode(Sha256(a.public_key().Raw()).substr(0, 8)));
  std::string signature = a.Sign("checkpoint");
  EXPECT_EQ(signature.size(), kEd25519SignatureSize);
  EXPECT_TRUE(a.public_key().Verify("checkpoint", signature));
  EXPECT_FALSE(b.public_key().Verify("checkpoint", signature));
  EXPECT_FALSE(a.public_key().Verify("checkpoint", signature.substr(1)));
  std::string flipped = signature;
  flipped[10] ^= 1;
  EXPECT_FALSE(a.public_key().Verify("checkpoint", flipped));
}

TEST(SigningKeyTest, PemAndBase64RoundTrips) {
  SigningKey key = SigningKey::Generate().value();
  std::string private_pem = key.PrivateKeyPem();
  EXPECT_THAT(private_pem, StartsWith("-----BEGIN PRIVATE KEY-----\n"));
  SigningKey reloaded = SigningKey::FromPem(private_pem).value();
  EXPECT_EQ(reloaded.public_key().Raw(), key.public_key().Raw());

  std::string public_pem = key.public_key().Pem();
  EXPECT_THAT(public_pem, StartsWith("-----BEGIN PUBLIC KEY-----\n"));
  EXPECT_EQ(VerifyingKey::FromPem(public_pem)->Raw(), key.public_key().Raw());
  EXPECT_EQ(VerifyingKey::FromBase64(key.public_key().Base64())->KeyId(),
            key.KeyId());
}

// The PEM text `openssl genpkey -algorithm ed25519` writes for the RFC 8032
// TEST 1 seed (PKCS#8: a fixed 16-byte prefix, then the seed).
TEST(SigningKeyTest, ReadsOpenSslCommandLineKeys) {
  std::string der =
      Unhex("302e020100300506032b657004220420") + Unhex(kRfc8032[0].seed);
  std::string pem = "-----BEGIN PRIVATE KEY-----\n" + Base64Encode(der) +
                    "\n-----END PRIVATE KEY-----\n";
  absl::StatusOr<SigningKey> key = SigningKey::FromPem(pem);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(HexEncode(key->public_key().Raw()), kRfc8032[0].public_key);
  EXPECT_EQ(key->PrivateKeyPem(), pem);
}

std::string EcPrivateKeyPem() {
  EVP_PKEY* pkey = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, pkey, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(len));
  BIO_free(bio);
  EVP_PKEY_free(pkey);
  return pem;
}

TEST(SigningKeyTest, RejectsWhatIsNotAnEd25519Key) {
  struct Case {
    const char* name;
    absl::Status status;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"garbage PEM", SigningKey::FromPem("hello").status(),
       "not an unencrypted PEM"},
      {"EC key", SigningKey::FromPem(EcPrivateKeyPem()).status(),
       "not Ed25519"},
      {"public PEM as private",
       SigningKey::FromPem(SigningKey::Generate()->public_key().Pem()).status(),
       "not an unencrypted PEM"},
      {"short seed", SigningKey::FromSeed("abc").status(), "32 bytes, got 3"},
      {"short raw key", VerifyingKey::FromRaw("abc").status(),
       "32 bytes, got 3"},
      {"bad base64", VerifyingKey::FromBase64("@@@@").status(), "public key"},
      {"garbage public PEM", VerifyingKey::FromPem("x").status(),
       "not a PEM public key"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(c.status.message()), HasSubstr(c.message))
        << c.name;
  }
}

class KeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/audit_key_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::remove((dir_ + "/key.pem").c_str());
    rmdir(dir_.c_str());
  }
  std::string dir_;
};

TEST_F(KeyFileTest, SaveThenLoadWithPrivateMode) {
  std::string path = dir_ + "/key.pem";
  SigningKey key = SigningKey::Generate().value();
  ASSERT_TRUE(key.SavePemFile(path).ok());
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  absl::StatusOr<SigningKey> loaded = SigningKey::LoadPemFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->KeyId(), key.KeyId());

  EXPECT_EQ(SigningKey::Generate()->SavePemFile(path).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(SigningKey::LoadPemFile(path)->KeyId(), key.KeyId());
}

TEST_F(KeyFileTest, LoadErrors) {
  std::string path = dir_ + "/key.pem";
  EXPECT_EQ(SigningKey::LoadPemFile(path).status().code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(SigningKey::Generate()->SavePemFile(path).ok());
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  absl::Status readable = SigningKey::LoadPemFile(path).status();
  EXPECT_EQ(readable.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(readable.message()), HasSubstr("chmod 600"));
  ASSERT_EQ(chmod(path.c_str(), 0600), 0);
  std::ofstream(path, std::ios::trunc) << "not a key\n";
  absl::Status garbage = SigningKey::LoadPemFile(path).status();
  EXPECT_EQ(garbage.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(garbage.message()), HasSubstr(path));
  EXPECT_EQ(SigningKey::Generate()->SavePemFile(dir_ + "/no/such/dir").code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::audit
