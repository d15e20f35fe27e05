// libFuzzer target: audit log export files (audit::ParseLogFileLine on each
// line, then audit::ReadLogFile on the whole input).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "services/audit/log_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream lines(text);
  std::string line;
  int64_t line_number = 0;
  while (std::getline(lines, line)) {
    (void)gorank::audit::ParseLogFileLine(line, ++line_number);
  }
  std::istringstream whole(text);
  (void)gorank::audit::ReadLogFile(whole);
  return 0;
}
