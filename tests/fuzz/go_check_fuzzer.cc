// libFuzzer target: the whole Go record check (go::CheckRecords): SGF
// parsing, record reading, replay under the rules, counting. The input's
// length picks the ko rule (so seeds stay plain SGF files).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "services/rules/go/check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using gorank::rules::go::KoRule;
  constexpr KoRule kKoRules[] = {KoRule::kSimple, KoRule::kPositionalSuperko,
                                 KoRule::kSituationalSuperko,
                                 KoRule::kCyclesReported};
  gorank::rules::go::CheckOptions options;
  options.ko_rule = kKoRules[size % 4];
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)gorank::rules::go::CheckRecords(bytes, options);
  return 0;
}
