#include "services/common/clock.h"

#include <chrono>

namespace gorank {

int64_t SystemClock::NowSeconds() const {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const Clock* SystemClock::Get() {
  static const SystemClock* const kClock = new SystemClock();
  return kClock;
}

}  // namespace gorank
