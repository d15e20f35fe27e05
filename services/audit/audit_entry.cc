#include "services/audit/audit_entry.h"

#include <array>
#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::audit {
namespace {

using nlohmann::json;

constexpr int kVersion = 1;
constexpr std::array<const char*, 7> kKeys = {
    "action", "actor", "after", "before", "subject", "time", "v"};

// nlohmann::json throws type_error 316 when dumping invalid UTF-8.
absl::Status CheckUtf8(const char* field, const std::string& value) {
  try {
    (void)json(value).dump();
  } catch (const json::exception&) {
    return absl::InvalidArgumentError(std::string("audit entry field '") +
                                      field + "' is not valid UTF-8");
  }
  return absl::OkStatus();
}

absl::Status CheckJsonOrEmpty(const char* field, const std::string& value) {
  if (value.empty() || json::accept(value)) return absl::OkStatus();
  return absl::InvalidArgumentError(std::string("audit entry field '") + field +
                                    "' must be empty or a JSON text");
}

absl::StatusOr<std::string> StringField(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_string()) {
    return absl::InvalidArgumentError(std::string("audit entry field '") + key +
                                      "' is not a string");
  }
  return value.get<std::string>();
}

}  // namespace

AuditEntry AuditEntry::FromChange(const ChangeRecord& change) {
  return AuditEntry{change.time_unix,
                    change.actor,
                    change.action,
                    change.subject,
                    change.before,
                    change.after,
                    {}};
}

absl::StatusOr<std::string> AuditEntry::Encode() const {
  if (actor.empty() || action.empty()) {
    return absl::InvalidArgumentError(
        "audit entry needs an actor and an action");
  }
  // nlohmann::json objects keep keys sorted, which gives the fixed order.
  json object = {{"action", action}, {"actor", actor},     {"after", after},
                 {"before", before}, {"subject", subject}, {"time", time_unix},
                 {"v", kVersion}};
  if (!rows.empty()) {
    json row_object = json::object();
    for (const auto& [key, digest] : rows) row_object[key] = digest;
    object["rows"] = row_object;
  }
  std::string encoded;
  try {
    encoded = object.dump();
  } catch (const json::exception&) {
    // Some text is not valid UTF-8: name the first such field (checked
    // only here, since the dump checks every byte anyway).
    GORANK_RETURN_IF_ERROR(CheckUtf8("actor", actor));
    GORANK_RETURN_IF_ERROR(CheckUtf8("action", action));
    GORANK_RETURN_IF_ERROR(CheckUtf8("subject", subject));
    GORANK_RETURN_IF_ERROR(CheckUtf8("before", before));
    GORANK_RETURN_IF_ERROR(CheckUtf8("after", after));
    for (const auto& [key, digest] : rows) {
      GORANK_RETURN_IF_ERROR(CheckUtf8("rows", key));
      GORANK_RETURN_IF_ERROR(CheckUtf8("rows", digest));
    }
    return absl::InvalidArgumentError("audit entry is not valid UTF-8");
  }
  GORANK_RETURN_IF_ERROR(CheckJsonOrEmpty("before", before));
  GORANK_RETURN_IF_ERROR(CheckJsonOrEmpty("after", after));
  return encoded;
}

absl::StatusOr<AuditEntry> AuditEntry::Decode(const std::string& bytes) {
  json object = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    return absl::InvalidArgumentError("audit entry is not a JSON object");
  }
  for (const char* key : kKeys) {
    if (!object.contains(key)) {
      return absl::InvalidArgumentError(
          std::string("audit entry has no field '") + key + "'");
    }
  }
  const bool has_rows = object.contains("rows");
  if (object.size() != kKeys.size() + (has_rows ? 1 : 0)) {
    return absl::InvalidArgumentError("audit entry has unknown fields");
  }
  if (!object["v"].is_number_integer() ||
      object["v"].get<int64_t>() != kVersion) {
    return absl::InvalidArgumentError(
        "audit entry version is not 1 (this build reads version 1 only)");
  }
  if (!object["time"].is_number_integer()) {
    return absl::InvalidArgumentError("audit entry time is not an integer");
  }
  AuditEntry entry;
  entry.time_unix = object["time"].get<int64_t>();
  GORANK_ASSIGN_OR_RETURN(entry.actor, StringField(object, "actor"));
  GORANK_ASSIGN_OR_RETURN(entry.action, StringField(object, "action"));
  GORANK_ASSIGN_OR_RETURN(entry.subject, StringField(object, "subject"));
  GORANK_ASSIGN_OR_RETURN(entry.before, StringField(object, "before"));
  GORANK_ASSIGN_OR_RETURN(entry.after, StringField(object, "after"));
  if (has_rows) {
    if (!object["rows"].is_object()) {
      return absl::InvalidArgumentError("audit entry rows is not an object");
    }
    for (const auto& [key, value] : object["rows"].items()) {
      if (!value.is_string()) {
        return absl::InvalidArgumentError(
            "audit entry row digest is not a string");
      }
      entry.rows[key] = value.get<std::string>();
    }
  }
  absl::StatusOr<std::string> canonical = entry.Encode();
  if (!canonical.ok()) return canonical.status();
  if (*canonical != bytes) {
    return absl::InvalidArgumentError(
        "audit entry is valid JSON but not in canonical form (spacing, key "
        "order, escaping or number format differ)");
  }
  return entry;
}

}  // namespace gorank::audit
