#include "services/audit/checkpoint.h"

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "services/audit/encoding.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

using nlohmann::json;

constexpr char kSignedHeader[] = "gorank audit checkpoint v1\n";

absl::Status FieldError(const char* field, const std::string& what) {
  return absl::InvalidArgumentError(std::string("checkpoint field '") + field +
                                    "' " + what);
}

absl::StatusOr<std::string> GetString(const json& object, const char* field) {
  auto it = object.find(field);
  if (it == object.end()) return FieldError(field, "is missing");
  if (!it->is_string()) return FieldError(field, "is not a string");
  return it->get<std::string>();
}

absl::StatusOr<int64_t> GetInteger(const json& object, const char* field) {
  auto it = object.find(field);
  if (it == object.end()) return FieldError(field, "is missing");
  if (!it->is_number_integer() ||
      (it->is_number_unsigned() &&
       it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))) {
    return FieldError(field, "is not a 64-bit integer");
  }
  return it->get<int64_t>();
}

}  // namespace

std::string Checkpoint::SignedBytes() const {
  return std::string(kSignedHeader) + std::to_string(tree_size) + "\n" +
         Base64Encode(root_hash) + "\n" + std::to_string(time_unix) + "\n";
}

std::string Checkpoint::ToJson() const {
  json object = {{"key_id", key_id},
                 {"root_hash", HexEncode(root_hash)},
                 {"signature", Base64Encode(signature)},
                 {"time_unix", time_unix},
                 {"tree_size", tree_size}};
  // key_id comes from HexEncode, so dump() cannot meet invalid UTF-8 unless
  // a caller filled it with arbitrary bytes; replace rather than throw.
  return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

absl::StatusOr<Checkpoint> Checkpoint::FromJson(const std::string& text) {
  json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    return absl::InvalidArgumentError("checkpoint is not a JSON object");
  }
  for (const auto& [key, value] : object.items()) {
    if (key != "key_id" && key != "root_hash" && key != "signature" &&
        key != "time_unix" && key != "tree_size") {
      return absl::InvalidArgumentError("checkpoint has unknown field '" + key +
                                        "'");
    }
  }
  absl::StatusOr<std::string> key_id = GetString(object, "key_id");
  absl::StatusOr<std::string> root_hex = GetString(object, "root_hash");
  absl::StatusOr<std::string> signature_b64 = GetString(object, "signature");
  absl::StatusOr<int64_t> time_unix = GetInteger(object, "time_unix");
  absl::StatusOr<int64_t> tree_size = GetInteger(object, "tree_size");
  for (const absl::Status& s :
       {key_id.status(), root_hex.status(), signature_b64.status(),
        time_unix.status(), tree_size.status()}) {
    if (!s.ok()) return s;
  }
  if (*tree_size < 0) return FieldError("tree_size", "is negative");
  absl::StatusOr<std::string> root = HexDecode(*root_hex);
  if (!root.ok() || root->size() != kHashSize) {
    return FieldError("root_hash", "is not 64 hex digits");
  }
  absl::StatusOr<std::string> signature = Base64Decode(*signature_b64);
  if (!signature.ok()) {
    return FieldError("signature",
                      std::string("is not base64: ") +
                          std::string(signature.status().message()));
  }
  return Checkpoint{*tree_size, *root, *time_unix, *signature, *key_id};
}

absl::StatusOr<Checkpoint> SignCheckpoint(int64_t tree_size,
                                          const std::string& root_hash,
                                          int64_t time_unix,
                                          const SigningKey& key) {
  if (tree_size < 0) {
    return absl::InvalidArgumentError(
        "checkpoint tree size " + std::to_string(tree_size) + " is negative");
  }
  if (root_hash.size() != kHashSize) {
    return absl::InvalidArgumentError("checkpoint root hash has " +
                                      std::to_string(root_hash.size()) +
                                      " bytes, expected 32");
  }
  Checkpoint checkpoint{tree_size, root_hash, time_unix, "", key.KeyId()};
  checkpoint.signature = key.Sign(checkpoint.SignedBytes());
  return checkpoint;
}

Verdict VerifyCheckpoint(const Checkpoint& checkpoint,
                         const VerifyingKey& key) {
  std::string name =
      "checkpoint of size " + std::to_string(checkpoint.tree_size);
  if (checkpoint.key_id != key.KeyId()) {
    return Verdict::Fail(name + " names key " + checkpoint.key_id +
                         ", but the trusted key is " + key.KeyId());
  }
  if (checkpoint.signature.size() != kEd25519SignatureSize) {
    return Verdict::Fail(name + " has no valid Ed25519 signature (" +
                         std::to_string(checkpoint.signature.size()) +
                         " bytes, expected 64)");
  }
  if (!key.Verify(checkpoint.SignedBytes(), checkpoint.signature)) {
    return Verdict::Fail(name +
                         " has a signature that does not verify with "
                         "key " +
                         key.KeyId() +
                         " (the checkpoint was altered or signed by "
                         "another key)");
  }
  return Verdict::Pass();
}

}  // namespace gorank::audit
