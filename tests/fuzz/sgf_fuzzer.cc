// libFuzzer target: SGF reader (sgf::ParseCollection) and variation lines.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "services/rules/sgf/sgf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto collection = gorank::rules::sgf::ParseCollection(bytes);
  if (!collection.ok()) return 0;
  for (const auto& game : collection->games) {
    (void)game.Line({});
    (void)game.Line({1});
    (void)game.Values(0, "SZ");
  }
  return 0;
}
