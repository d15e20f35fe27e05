// libFuzzer target: rank notation (registry::Rank::Parse). A parsed rank
// must print to text that parses back to the same rank.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "services/registry/rank.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gorank::registry::Rank;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto rank = Rank::Parse(text);
  if (!rank.ok()) return 0;
  auto again = Rank::Parse(rank->ToString());
  if (!again.ok() || again->Ordinal() != rank->Ordinal()) std::abort();
  (void)rank->ToChinese();
  return 0;
}
