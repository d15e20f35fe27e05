// libFuzzer target: EGF tournament result files (tournaments::ReadEgf).
#include <cstddef>
#include <cstdint>
#include <string>

#include "services/tournaments/result_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)gorank::tournaments::ReadEgf(text);
  return 0;
}
