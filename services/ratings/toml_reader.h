// Internal to the ratings module: typed, strict reading of one TOML table
// with messages that name the source, line, column and key. Every Read*
// marks its key as known; CheckNoUnknownKeys() then refuses the rest, so a
// misspelt key is an error rather than a silently ignored setting.
// Not thread-safe (holds the set of keys read); use one per table.
#ifndef GORANK_SERVICES_RATINGS_TOML_READER_H_
#define GORANK_SERVICES_RATINGS_TOML_READER_H_

#include <toml++/toml.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/registry/rank.h"

namespace gorank::ratings::internal {

class TomlReader {
 public:
  // `context` names the table in messages, e.g. "[rating]" or "rule 'x'".
  TomlReader(const toml::table& table, std::string source, std::string context)
      : table_(table),
        source_(std::move(source)),
        context_(std::move(context)) {}

  void set_context(std::string context) { context_ = std::move(context); }
  const toml::table& table() const { return table_; }
  const std::string& source() const { return source_; }
  const std::string& context() const { return context_; }

  // Each Read* leaves `out` unchanged when the key is absent and not
  // `required`. INVALID_ARGUMENT: absent but required, wrong type, or out of
  // the stated range.
  absl::Status ReadInt(const char* key, bool required, int min, int max,
                       int& out);
  // Accepts integers and floats; refuses NaN and infinities.
  absl::Status ReadDouble(const char* key, bool required, double min,
                          double max, double& out);
  absl::Status ReadBool(const char* key, bool required, bool& out);
  // Refuses empty strings.
  absl::Status ReadString(const char* key, bool required, std::string& out);
  // A non-empty array of non-empty strings.
  absl::Status ReadStringList(const char* key, bool required,
                              std::vector<std::string>& out);
  // A rank in any registry notation; `check` returns "" when the rank is
  // acceptable for this key, else the reason.
  absl::Status ReadRank(
      const char* key, bool required,
      const std::function<std::string(const registry::Rank&)>& check,
      registry::Rank& out);
  // A sub-table (inline or not); nullptr when absent.
  const toml::table* ReadTable(const char* key, bool required,
                               absl::Status& status);

  // An array of tables ([[key]] blocks); nullptr when absent.
  const toml::array* ReadArrayOfTables(const char* key, bool required,
                                       absl::Status& status);

  // INVALID_ARGUMENT naming the first key never read.
  absl::Status CheckNoUnknownKeys() const;

  // "<source>:<line>:<column>: <context>: key '<key>': <what>", positioned
  // at `at` (or at the table when `at` is null).
  absl::Status Error(const toml::node* at, const std::string& key,
                     const std::string& what) const;

 private:
  const toml::node* Get(const char* key, bool required, absl::Status& status);

  const toml::table& table_;
  std::string source_;
  std::string context_;
  std::set<std::string> known_;
};

// "<source>:<line>:<column>" of a region (":<line>" parts left out when the
// region is unknown).
std::string Position(const std::string& source, const toml::source_region& r);

}  // namespace gorank::ratings::internal

#endif  // GORANK_SERVICES_RATINGS_TOML_READER_H_
