#include "services/ratings/toml_reader.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace gorank::ratings::internal {

std::string Position(const std::string& source, const toml::source_region& r) {
  std::string out = source;
  if (r.begin.line > 0) {
    out += ":" + std::to_string(r.begin.line) + ":" +
           std::to_string(r.begin.column);
  }
  return out;
}

absl::Status TomlReader::Error(const toml::node* at, const std::string& key,
                               const std::string& what) const {
  const toml::source_region& region = at ? at->source() : table_.source();
  std::string msg = Position(source_, region) + ": " + context_;
  if (!key.empty()) msg += ": key '" + key + "'";
  return absl::InvalidArgumentError(msg + ": " + what);
}

const toml::node* TomlReader::Get(const char* key, bool required,
                                  absl::Status& status) {
  known_.insert(key);
  const toml::node* node = table_.get(key);
  if (node == nullptr && required) {
    status = Error(nullptr, key, "is required but missing");
  }
  return node;
}

absl::Status TomlReader::ReadInt(const char* key, bool required, int min,
                                 int max, int& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  if (!node->is_integer()) return Error(node, key, "must be an integer");
  const int64_t v = node->as_integer()->get();
  if (v < min || v > max) {
    return Error(node, key,
                 "must be between " + std::to_string(min) + " and " +
                     std::to_string(max) + ", not " + std::to_string(v));
  }
  out = static_cast<int>(v);
  return absl::OkStatus();
}

absl::Status TomlReader::ReadDouble(const char* key, bool required, double min,
                                    double max, double& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  double v = 0.0;
  if (node->is_integer()) {
    v = static_cast<double>(node->as_integer()->get());
  } else if (node->is_floating_point()) {
    v = node->as_floating_point()->get();
  } else {
    return Error(node, key, "must be a number");
  }
  if (!std::isfinite(v) || v < min || v > max) {
    return Error(
        node, key,
        absl::StrCat("must be a finite number between ", min, " and ", max));
  }
  out = v;
  return absl::OkStatus();
}

absl::Status TomlReader::ReadBool(const char* key, bool required, bool& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  if (!node->is_boolean()) return Error(node, key, "must be true or false");
  out = node->as_boolean()->get();
  return absl::OkStatus();
}

absl::Status TomlReader::ReadString(const char* key, bool required,
                                    std::string& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  if (!node->is_string()) return Error(node, key, "must be a string");
  if (node->as_string()->get().empty()) {
    return Error(node, key, "must not be empty");
  }
  out = node->as_string()->get();
  return absl::OkStatus();
}

absl::Status TomlReader::ReadStringList(const char* key, bool required,
                                        std::vector<std::string>& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  const toml::array* array = node->as_array();
  if (array == nullptr || array->empty()) {
    return Error(node, key, "must be a non-empty array of strings");
  }
  std::vector<std::string> values;
  for (const toml::node& item : *array) {
    if (!item.is_string() || item.as_string()->get().empty()) {
      return Error(&item, key, "every entry must be a non-empty string");
    }
    values.push_back(item.as_string()->get());
  }
  out = std::move(values);
  return absl::OkStatus();
}

absl::Status TomlReader::ReadRank(
    const char* key, bool required,
    const std::function<std::string(const registry::Rank&)>& check,
    registry::Rank& out) {
  absl::Status status;
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return status;
  if (!node->is_string()) {
    return Error(node, key, "must be a rank string such as \"5d\"");
  }
  absl::StatusOr<registry::Rank> rank =
      registry::Rank::Parse(node->as_string()->get());
  if (!rank.ok()) {
    return Error(node, key,
                 "'" + node->as_string()->get() + "' is not a rank (" +
                     std::string(rank.status().message()) + ")");
  }
  if (std::string why = check(*rank); !why.empty()) {
    return Error(node, key, why);
  }
  out = *rank;
  return absl::OkStatus();
}

const toml::table* TomlReader::ReadTable(const char* key, bool required,
                                         absl::Status& status) {
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return nullptr;
  if (!node->is_table()) {
    status = Error(node, key, "must be a table");
    return nullptr;
  }
  return node->as_table();
}

const toml::array* TomlReader::ReadArrayOfTables(const char* key, bool required,
                                                 absl::Status& status) {
  const toml::node* node = Get(key, required, status);
  if (node == nullptr) return nullptr;
  if (!node->is_array_of_tables()) {
    status = Error(node, key,
                   "must be written as [[" + std::string(key) + "]] tables");
    return nullptr;
  }
  return node->as_array();
}

absl::Status TomlReader::CheckNoUnknownKeys() const {
  for (const auto& [key, node] : table_) {
    if (!known_.contains(std::string(key.str()))) {
      return Error(&node, std::string(key.str()), "unknown key");
    }
  }
  return absl::OkStatus();
}

}  // namespace gorank::ratings::internal
