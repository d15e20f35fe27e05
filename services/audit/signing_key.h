// Ed25519 keys for signing audit-log checkpoints, over OpenSSL 3 EVP. The
// server holds a SigningKey loaded from the PEM file its configuration names;
// auditors hold the matching VerifyingKey (published as PEM or as base64 of
// the 32 raw bytes). A key is named by its key id: the lowercase hex of the
// first 8 bytes of SHA-256 of the raw public key (16 characters).
//
// Both classes are immutable values sharing one OpenSSL key object; copies
// are cheap and every method is thread-safe. OpenSSL types stay out of this
// header.
#ifndef GORANK_SERVICES_AUDIT_SIGNING_KEY_H_
#define GORANK_SERVICES_AUDIT_SIGNING_KEY_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct evp_pkey_st;  // OpenSSL's EVP_PKEY

namespace gorank::audit {

inline constexpr size_t kEd25519KeySize = 32;
inline constexpr size_t kEd25519SignatureSize = 64;

class VerifyingKey {
 public:
  // INVALID_ARGUMENT unless `raw` is 32 bytes forming an Ed25519 public key.
  static absl::StatusOr<VerifyingKey> FromRaw(const std::string& raw);
  // Base64 of the 32 raw bytes. INVALID_ARGUMENT as FromRaw or bad base64.
  static absl::StatusOr<VerifyingKey> FromBase64(const std::string& text);
  // A "-----BEGIN PUBLIC KEY-----" (SubjectPublicKeyInfo) PEM text.
  // INVALID_ARGUMENT when it is not PEM or not an Ed25519 key.
  static absl::StatusOr<VerifyingKey> FromPem(const std::string& pem);

  std::string Raw() const;     // 32 bytes
  std::string Base64() const;  // base64 of Raw()
  std::string Pem() const;     // SubjectPublicKeyInfo PEM
  std::string KeyId() const;

  // True when `signature` is a valid Ed25519 signature of `message` by this
  // key. A signature of the wrong length is simply invalid.
  bool Verify(const std::string& message, const std::string& signature) const;

 private:
  explicit VerifyingKey(std::shared_ptr<evp_pkey_st> pkey);
  friend class SigningKey;
  std::shared_ptr<evp_pkey_st> pkey_;  // never null
};

class SigningKey {
 public:
  // A fresh random key. INTERNAL when OpenSSL cannot generate one.
  static absl::StatusOr<SigningKey> Generate();
  // The key with this 32-byte private seed (RFC 8032 secret key); for tests
  // and for deriving a key from a configured secret. INVALID_ARGUMENT when
  // the seed is not 32 bytes.
  static absl::StatusOr<SigningKey> FromSeed(const std::string& seed);
  // An unencrypted PKCS#8 "-----BEGIN PRIVATE KEY-----" PEM text (what
  // `openssl genpkey -algorithm ed25519` writes). INVALID_ARGUMENT when it
  // is not PEM, is encrypted, or is not an Ed25519 key.
  static absl::StatusOr<SigningKey> FromPem(const std::string& pem);
  // Reads FromPem() from a file. NOT_FOUND when the file does not exist,
  // PERMISSION_DENIED when it cannot be read, FAILED_PRECONDITION when group
  // or others may read it (chmod 600 it), INVALID_ARGUMENT as FromPem.
  static absl::StatusOr<SigningKey> LoadPemFile(const std::string& path);

  // The unencrypted PKCS#8 PEM text of the private key.
  std::string PrivateKeyPem() const;
  // Writes PrivateKeyPem() to a new file with mode 0600. ALREADY_EXISTS when
  // the file exists (keys are never overwritten); PERMISSION_DENIED or
  // NOT_FOUND (missing directory) from the file system; INTERNAL when the
  // write fails.
  absl::Status SavePemFile(const std::string& path) const;

  const VerifyingKey& public_key() const { return public_key_; }
  std::string KeyId() const { return public_key_.KeyId(); }

  // A 32-byte secret derived from the private key for `label` (e.g. the
  // audit log's row-digest key): the same for every copy of the key file,
  // and revealing nothing about the key. Thread-safe.
  std::string DeriveSecret(const std::string& label) const;

  // The 64-byte Ed25519 signature of `message`. Aborts if OpenSSL fails,
  // which cannot happen with a valid key.
  std::string Sign(const std::string& message) const;

 private:
  explicit SigningKey(std::shared_ptr<evp_pkey_st> pkey);
  std::shared_ptr<evp_pkey_st> pkey_;  // never null
  VerifyingKey public_key_;
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_SIGNING_KEY_H_
