#include "services/audit/revocation_list.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "services/audit/encoding.h"

namespace gorank::audit {
namespace {

using nlohmann::json;

constexpr char kSignedHeader[] = "gorank revocation list v1\n";

absl::Status FieldError(const std::string& field, const std::string& what) {
  return absl::InvalidArgumentError("revocation list field '" + field + "' " +
                                    what);
}

bool IsInt64(const json& v) {
  return v.is_number_integer() &&
         !(v.is_number_unsigned() &&
           v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX));
}

bool IsNumber(const std::string& s) {
  return s.size() == 9 && std::all_of(s.begin(), s.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

}  // namespace

std::string RevocationList::SignedBytes() const {
  std::string out = std::string(kSignedHeader) + std::to_string(tree_size) +
                    "\n" + std::to_string(time_unix) + "\n";
  for (const Revocation& r : revoked) {
    out += r.number + " " + std::to_string(r.revoked_unix) + "\n";
  }
  return out;
}

std::string RevocationList::ToJson() const {
  json list = json::array();
  for (const Revocation& r : revoked) {
    list.push_back({{"number", r.number}, {"revoked_unix", r.revoked_unix}});
  }
  json object = {{"key_id", key_id},
                 {"revoked", list},
                 {"signature", Base64Encode(signature)},
                 {"time_unix", time_unix},
                 {"tree_size", tree_size}};
  return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

absl::StatusOr<RevocationList> RevocationList::FromJson(
    const std::string& text) {
  const json o = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (o.is_discarded() || !o.is_object()) {
    return absl::InvalidArgumentError("revocation list is not a JSON object");
  }
  RevocationList list;
  for (const char* f : {"key_id", "signature"}) {
    if (!o.contains(f) || !o[f].is_string()) {
      return FieldError(f, "is missing or not a string");
    }
  }
  for (const char* f : {"time_unix", "tree_size"}) {
    if (!o.contains(f) || !IsInt64(o[f])) {
      return FieldError(f, "is missing or not a 64-bit integer");
    }
  }
  if (!o.contains("revoked") || !o["revoked"].is_array()) {
    return FieldError("revoked", "is missing or not an array");
  }
  list.key_id = o["key_id"].get<std::string>();
  list.time_unix = o["time_unix"].get<int64_t>();
  list.tree_size = o["tree_size"].get<int64_t>();
  absl::StatusOr<std::string> sig =
      Base64Decode(o["signature"].get<std::string>());
  if (!sig.ok()) return FieldError("signature", "is not base64");
  list.signature = *sig;
  for (const json& r : o["revoked"]) {
    if (!r.is_object() || !r.contains("number") || !r["number"].is_string() ||
        !IsNumber(r["number"].get<std::string>()) ||
        !r.contains("revoked_unix") || !IsInt64(r["revoked_unix"])) {
      return FieldError("revoked",
                        "holds an entry that is not {\"number\": nine "
                        "digits, \"revoked_unix\": integer}");
    }
    Revocation rev{r["number"].get<std::string>(),
                   r["revoked_unix"].get<int64_t>()};
    if (!list.revoked.empty() && list.revoked.back().number >= rev.number) {
      return FieldError("revoked", "is not ordered by number");
    }
    list.revoked.push_back(std::move(rev));
  }
  return list;
}

std::optional<Revocation> RevocationList::Find(
    const std::string& number) const {
  auto it = std::lower_bound(
      revoked.begin(), revoked.end(), number,
      [](const Revocation& r, const std::string& n) { return r.number < n; });
  if (it == revoked.end() || it->number != number) return std::nullopt;
  return *it;
}

RevocationList SignRevocationList(int64_t tree_size, int64_t time_unix,
                                  std::vector<Revocation> revoked,
                                  const SigningKey& key) {
  std::map<std::string, int64_t> by_number;
  for (const Revocation& r : revoked) by_number[r.number] = r.revoked_unix;
  RevocationList list;
  list.tree_size = tree_size;
  list.time_unix = time_unix;
  for (const auto& [number, when] : by_number) {
    list.revoked.push_back({number, when});
  }
  list.key_id = key.KeyId();
  list.signature = key.Sign(list.SignedBytes());
  return list;
}

Verdict VerifyRevocationList(const RevocationList& list,
                             const VerifyingKey& key) {
  if (list.key_id != key.KeyId()) {
    return Verdict::Fail("the revocation list names key " + list.key_id +
                         ", but the trusted key is " + key.KeyId());
  }
  if (!key.Verify(list.SignedBytes(), list.signature)) {
    return Verdict::Fail(
        "the revocation list's signature does not verify with key " +
        key.KeyId() + " (the list was altered)");
  }
  return Verdict::Pass();
}

}  // namespace gorank::audit
