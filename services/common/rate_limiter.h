// RateLimiter: per-client token buckets, so a client that floods a public
// method is told to slow down (RESOURCE_EXHAUSTED / HTTP 429 with a retry
// hint) while every other client is served as before. Used by the gRPC call
// gate and by the public web page.
#ifndef GORANK_SERVICES_COMMON_RATE_LIMITER_H_
#define GORANK_SERVICES_COMMON_RATE_LIMITER_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace gorank {

struct RateLimit {
  double per_second =
      20;             // sustained rate a client may call at; <= 0: no limit
  double burst = 40;  // calls a client may make at once
};

// Thread-safe.
class RateLimiter {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit RateLimiter(RateLimit limit, size_t max_clients = 100000)
      : limit_(limit), max_clients_(max_clients) {}

  // Takes one call from `client`'s bucket at `now`. Returns 0 when the call
  // may proceed, else the milliseconds after which one will be allowed.
  int64_t Acquire(const std::string& client,
                  TimePoint now = std::chrono::steady_clock::now());

 private:
  struct Bucket {
    double tokens;
    TimePoint last;
  };
  RateLimit limit_;
  size_t max_clients_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

// "ipv4:127.0.0.1:5000" -> "ipv4:127.0.0.1"; "ipv6:[::1]:5000" -> "ipv6:[::1]".
std::string ClientAddress(const std::string& peer);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_RATE_LIMITER_H_
