#include "services/audit/keyed_digest.h"

#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::audit {

std::string HmacSha256(const std::string& key, const std::string& data) {
  constexpr size_t kBlock = 64;
  std::string k = key.size() > kBlock ? Sha256(key) : key;
  k.resize(kBlock, '\0');
  std::string inner(kBlock, '\0');
  std::string outer(kBlock, '\0');
  for (size_t i = 0; i < kBlock; ++i) {
    inner[i] = static_cast<char>(k[i] ^ 0x36);
    outer[i] = static_cast<char>(k[i] ^ 0x5c);
  }
  return Sha256(outer + Sha256(inner + data));
}

std::string RowDigestKey(const SigningKey& key) {
  return key.DeriveSecret("audit row digests v1");
}

bool IsKeyedDigest(const std::string& digest) {
  return digest.rfind(kKeyedDigestPrefix, 0) == 0;
}

std::string ChainRowName(int64_t previous_seq) {
  return "audit_log:" + std::to_string(previous_seq);
}

std::string ChainLink(const std::string& key, int64_t previous_seq,
                      const std::string& previous_leaf_hash) {
  return kKeyedDigestPrefix +
         HexEncode(HmacSha256(
             key, ChainRowName(previous_seq) + ":" + previous_leaf_hash));
}

}  // namespace gorank::audit
