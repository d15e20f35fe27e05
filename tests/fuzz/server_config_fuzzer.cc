// libFuzzer target: the server's TOML config text (server::ParseConfigText).
#include <cstddef>
#include <cstdint>
#include <string>

#include "services/server/server_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gorank::server::ServerConfig config;
  (void)gorank::server::ParseConfigText(text, &config);
  return 0;
}
