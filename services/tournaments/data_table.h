// Reading the tab-separated data files shipped with the product (the
// competition catalogue here, the athlete-grade standard in eligibility/).
// Format: UTF-8 text, one record a line, fields separated by one TAB, lines
// whose first non-blank character is '#' and blank lines ignored, a trailing
// CR tolerated.
#ifndef GORANK_SERVICES_TOURNAMENTS_DATA_TABLE_H_
#define GORANK_SERVICES_TOURNAMENTS_DATA_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gorank::tournaments {

struct DataRecord {
  int line = 0;  // 1-based line number in the source text
  std::vector<std::string> fields;
};

// Splits `text` into records. Never fails. Thread-safe.
std::vector<DataRecord> ParseDataTable(const std::string& text);

// Reads a whole file. NOT_FOUND when it cannot be opened. Thread-safe.
absl::StatusOr<std::string> ReadTextFile(const std::string& path);

// Splits `text` at `sep`; an empty text gives no parts. Thread-safe.
std::vector<std::string> SplitString(const std::string& text, char sep);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_DATA_TABLE_H_
