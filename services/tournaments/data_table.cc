#include "services/tournaments/data_table.h"

#include <fstream>
#include <sstream>

#include "absl/status/status.h"

namespace gorank::tournaments {

std::vector<std::string> SplitString(const std::string& text, char sep) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  size_t begin = 0;
  while (true) {
    const size_t end = text.find(sep, begin);
    parts.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return parts;
}

std::vector<DataRecord> ParseDataTable(const std::string& text) {
  std::vector<DataRecord> records;
  int line_number = 0;
  for (std::string line : SplitString(text, '\n')) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    records.push_back({line_number, SplitString(line, '\t')});
  }
  return records;
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open file '" + path + "'");
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace gorank::tournaments
