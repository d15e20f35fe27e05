#include "services/common/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace gorank {

int64_t RateLimiter::Acquire(const std::string& client, TimePoint now) {
  if (limit_.per_second <= 0) return 0;
  std::lock_guard<std::mutex> lock(mu_);
  if (buckets_.size() >= max_clients_ && !buckets_.count(client)) {
    // Forget buckets that have refilled completely: they carry no state.
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      const double secs =
          std::chrono::duration<double>(now - it->second.last).count();
      it = it->second.tokens + secs * limit_.per_second >= limit_.burst
               ? buckets_.erase(it)
               : std::next(it);
    }
  }
  auto [it, inserted] = buckets_.try_emplace(client, Bucket{limit_.burst, now});
  Bucket& b = it->second;
  const double secs = std::chrono::duration<double>(now - b.last).count();
  b.tokens = std::min(limit_.burst,
                      b.tokens + std::max(0.0, secs) * limit_.per_second);
  b.last = now;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return 0;
  }
  return static_cast<int64_t>(
      std::ceil((1 - b.tokens) / limit_.per_second * 1000));
}

std::string ClientAddress(const std::string& peer) {
  const size_t colon = peer.rfind(':');
  const size_t first = peer.find(':');
  if (colon == std::string::npos || colon == first) return peer;
  return peer.substr(0, colon);
}

}  // namespace gorank
