// The source of "now" for every rule that depends on time (notice periods,
// stock windows, ages). Production uses SystemClock; tests use FakeClock.
#ifndef GORANK_SERVICES_COMMON_CLOCK_H_
#define GORANK_SERVICES_COMMON_CLOCK_H_

#include <atomic>
#include <cstdint>

#include "services/common/date.h"

namespace gorank {

// Thread-safe in every implementation.
class Clock {
 public:
  virtual ~Clock() = default;
  // Unix time in seconds.
  virtual int64_t NowSeconds() const = 0;
  // Today's calendar date in Asia/Shanghai.
  Date Today() const { return ShanghaiDate(NowSeconds()); }
};

class SystemClock : public Clock {
 public:
  int64_t NowSeconds() const override;
  // A process-wide instance; never destroyed.
  static const Clock* Get();
};

class FakeClock : public Clock {
 public:
  explicit FakeClock(int64_t now_seconds = 0) : now_(now_seconds) {}
  int64_t NowSeconds() const override { return now_.load(); }
  void Set(int64_t now_seconds) { now_.store(now_seconds); }
  // Sets the time to 12:00 Asia/Shanghai on `d`.
  void SetDate(const Date& d) { Set(ShanghaiMidnight(d) + 12 * 3600); }
  void Advance(int64_t seconds) { now_.fetch_add(seconds); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_CLOCK_H_
