#include "services/audit/signing_key.h"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "gorank::audit: %s\n", what);
  std::abort();
}

std::shared_ptr<evp_pkey_st> Own(EVP_PKEY* pkey) {
  return std::shared_ptr<evp_pkey_st>(pkey, EVP_PKEY_free);
}

// The reason of the most recent OpenSSL error, and clears the queue so it
// cannot be mistaken for a later failure.
std::string TakeOpenSslError() {
  unsigned long code = ERR_peek_last_error();
  std::string text = "unknown OpenSSL error";
  if (code != 0) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof(buffer));
    text = buffer;
  }
  ERR_clear_error();
  return text;
}

// Refuses to prompt for a pass phrase: encrypted keys fail to load.
int NoPassphrase(char*, int, int, void*) { return -1; }

bool IsEd25519(const EVP_PKEY* pkey) {
  return EVP_PKEY_is_a(pkey, "ED25519") == 1;
}

std::string BioContents(BIO* bio) {
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(len));
}

absl::Status ErrnoStatus(int err, const std::string& path) {
  std::string message = path + ": " + std::strerror(err);
  switch (err) {
    case ENOENT:
      return absl::NotFoundError(message);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(message);
    case EEXIST:
      return absl::AlreadyExistsError(message +
                                      " (keys are never overwritten)");
    default:
      return absl::InternalError(message);
  }
}

}  // namespace

VerifyingKey::VerifyingKey(std::shared_ptr<evp_pkey_st> pkey)
    : pkey_(std::move(pkey)) {}

absl::StatusOr<VerifyingKey> VerifyingKey::FromRaw(const std::string& raw) {
  if (raw.size() != kEd25519KeySize) {
    return absl::InvalidArgumentError(
        "an Ed25519 public key has 32 bytes, got " +
        std::to_string(raw.size()));
  }
  EVP_PKEY* pkey = EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr,
      reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
  if (pkey == nullptr) {
    return absl::InvalidArgumentError("not an Ed25519 public key: " +
                                      TakeOpenSslError());
  }
  return VerifyingKey(Own(pkey));
}

absl::StatusOr<VerifyingKey> VerifyingKey::FromBase64(const std::string& text) {
  absl::StatusOr<std::string> raw = Base64Decode(text);
  if (!raw.ok()) {
    return absl::InvalidArgumentError("public key: " +
                                      std::string(raw.status().message()));
  }
  return FromRaw(*raw);
}

absl::StatusOr<VerifyingKey> VerifyingKey::FromPem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) Die("BIO_new_mem_buf failed");
  EVP_PKEY* pkey = PEM_read_bio_PUBKEY(bio, nullptr, NoPassphrase, nullptr);
  BIO_free(bio);
  if (pkey == nullptr) {
    return absl::InvalidArgumentError(
        "not a PEM public key (expected -----BEGIN PUBLIC KEY-----): " +
        TakeOpenSslError());
  }
  if (!IsEd25519(pkey)) {
    EVP_PKEY_free(pkey);
    return absl::InvalidArgumentError("the PEM public key is not Ed25519");
  }
  return VerifyingKey(Own(pkey));
}

std::string VerifyingKey::Raw() const {
  unsigned char raw[kEd25519KeySize];
  size_t len = sizeof(raw);
  if (EVP_PKEY_get_raw_public_key(pkey_.get(), raw, &len) != 1 ||
      len != kEd25519KeySize) {
    Die("cannot export an Ed25519 public key");
  }
  return std::string(reinterpret_cast<const char*>(raw), len);
}

std::string VerifyingKey::Base64() const { return Base64Encode(Raw()); }

std::string VerifyingKey::Pem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr || PEM_write_bio_PUBKEY(bio, pkey_.get()) != 1) {
    Die("cannot write a PEM public key");
  }
  std::string pem = BioContents(bio);
  BIO_free(bio);
  return pem;
}

std::string VerifyingKey::KeyId() const {
  return HexEncode(Sha256(Raw()).substr(0, 8));
}

bool VerifyingKey::Verify(const std::string& message,
                          const std::string& signature) const {
  if (signature.size() != kEd25519SignatureSize) return false;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr) Die("EVP_MD_CTX_new failed");
  int result = -1;
  if (EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, pkey_.get()) == 1) {
    result = EVP_DigestVerify(
        ctx, reinterpret_cast<const unsigned char*>(signature.data()),
        signature.size(),
        reinterpret_cast<const unsigned char*>(message.data()), message.size());
  }
  EVP_MD_CTX_free(ctx);
  if (result != 1) ERR_clear_error();
  return result == 1;
}

SigningKey::SigningKey(std::shared_ptr<evp_pkey_st> pkey)
    : pkey_(pkey), public_key_(pkey) {}

absl::StatusOr<SigningKey> SigningKey::Generate() {
  EVP_PKEY* pkey = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (pkey == nullptr) {
    return absl::InternalError("cannot generate an Ed25519 key: " +
                               TakeOpenSslError());
  }
  return SigningKey(Own(pkey));
}

absl::StatusOr<SigningKey> SigningKey::FromSeed(const std::string& seed) {
  if (seed.size() != kEd25519KeySize) {
    return absl::InvalidArgumentError(
        "an Ed25519 private seed has 32 bytes, got " +
        std::to_string(seed.size()));
  }
  EVP_PKEY* pkey = EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr,
      reinterpret_cast<const unsigned char*>(seed.data()), seed.size());
  if (pkey == nullptr) {
    return absl::InvalidArgumentError("not an Ed25519 private seed: " +
                                      TakeOpenSslError());
  }
  return SigningKey(Own(pkey));
}

absl::StatusOr<SigningKey> SigningKey::FromPem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (bio == nullptr) Die("BIO_new_mem_buf failed");
  EVP_PKEY* pkey = PEM_read_bio_PrivateKey(bio, nullptr, NoPassphrase, nullptr);
  BIO_free(bio);
  if (pkey == nullptr) {
    return absl::InvalidArgumentError(
        "not an unencrypted PEM private key (expected -----BEGIN PRIVATE "
        "KEY-----): " +
        TakeOpenSslError());
  }
  if (!IsEd25519(pkey)) {
    EVP_PKEY_free(pkey);
    return absl::InvalidArgumentError(
        "the PEM private key is not Ed25519 (make one with `openssl genpkey "
        "-algorithm ed25519`)");
  }
  return SigningKey(Own(pkey));
}

absl::StatusOr<SigningKey> SigningKey::LoadPemFile(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return ErrnoStatus(errno, path);
  if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", info.st_mode & 07777);
    return absl::FailedPreconditionError(
        path + ": the signing key file has mode " + mode +
        " and may be read by group or others; run chmod 600 on it");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::PermissionDeniedError(path + ": cannot be opened for reading");
  }
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<SigningKey> key = FromPem(text.str());
  if (!key.ok()) {
    return absl::InvalidArgumentError(path + ": " +
                                      std::string(key.status().message()));
  }
  return key;
}

std::string SigningKey::PrivateKeyPem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr ||
      PEM_write_bio_PrivateKey(bio, pkey_.get(), nullptr, nullptr, 0, nullptr,
                               nullptr) != 1) {
    Die("cannot write a PEM private key");
  }
  std::string pem = BioContents(bio);
  BIO_free(bio);
  return pem;
}

absl::Status SigningKey::SavePemFile(const std::string& path) const {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoStatus(errno, path);
  std::string pem = PrivateKeyPem();
  size_t written = 0;
  while (written < pem.size()) {
    ssize_t n = write(fd, pem.data() + written, pem.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      close(fd);
      unlink(path.c_str());
      return absl::InternalError(path +
                                 ": write failed: " + std::strerror(err));
    }
    written += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    return absl::InternalError(path + ": cannot flush the key file");
  }
  return absl::OkStatus();
}

std::string SigningKey::Sign(const std::string& message) const {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char signature[kEd25519SignatureSize];
  size_t len = sizeof(signature);
  bool ok =
      ctx != nullptr &&
      EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, pkey_.get()) == 1 &&
      EVP_DigestSign(ctx, signature, &len,
                     reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok || len != kEd25519SignatureSize) Die("Ed25519 signing failed");
  return std::string(reinterpret_cast<const char*>(signature), len);
}

}  // namespace gorank::audit

namespace gorank::audit {

std::string SigningKey::DeriveSecret(const std::string& label) const {
  unsigned char seed[kEd25519KeySize];
  size_t len = sizeof(seed);
  if (EVP_PKEY_get_raw_private_key(pkey_.get(), seed, &len) != 1 ||
      len != kEd25519KeySize) {
    Die("reading the Ed25519 private key failed");
  }
  // SHA-256 of a domain-separated label and the seed: one-way, so neither
  // the derived secret nor anything keyed with it reveals the signing key.
  std::string secret =
      Sha256("gorank derived secret\n" + label + "\n" +
             std::string(reinterpret_cast<const char*>(seed), len));
  OPENSSL_cleanse(seed, sizeof(seed));
  return secret;
}

}  // namespace gorank::audit
