// libFuzzer target: CSV tournament result files (tournaments::ReadCsv).
#include <cstddef>
#include <cstdint>
#include <string>

#include "services/tournaments/result_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)gorank::tournaments::ReadCsv(text);
  return 0;
}
