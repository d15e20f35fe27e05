// Metrics: the counters rankd exposes to Prometheus. Calls are recorded by
// the call gate (count per method and status code, latency histogram per
// method with fixed buckets); other figures (database pool, health,
// certificates on record, start time) are sampled at scrape time through
// functions registered once at start. Render() writes the Prometheus text
// exposition format 0.0.4. No gRPC, no SQLite: the server wires the
// samplers. One instance per server, owned by it (no global registry).
#ifndef GORANK_SERVICES_COMMON_METRICS_H_
#define GORANK_SERVICES_COMMON_METRICS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gorank {

class Metrics {
 public:
  // Upper bounds of the latency buckets, seconds; "+Inf" follows.
  static constexpr std::array<double, 14> kLatencyBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1,    0.25,  0.5,    1,     2.5,  5,     10};

  enum class Type { kCounter, kGauge };
  // A value read at scrape time; nullopt leaves the sample out (for
  // example while the database cannot be read).
  using Sampler = std::function<std::optional<double>()>;

  Metrics() = default;
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // Records one finished call: `method` is the full gRPC name
  // ("/gorank.v1.PlayerRegistry/GetPlayer"), `code` the gRPC status code
  // name ("OK", "NOT_FOUND"), `seconds` its duration (negative counts as 0).
  // Thread-safe.
  void RecordCall(const std::string& method, const std::string& code,
                  double seconds);

  // Adds a sampled metric without labels. `name` must be a valid Prometheus
  // metric name not used before (REQUIRES; aborts otherwise). Thread-safe;
  // `sample` runs on the scraping thread, without this object's lock held.
  void AddSampled(const std::string& name, const std::string& help, Type type,
                  Sampler sample);

  // The text format: rankd_rpc_calls_total{method,code},
  // rankd_rpc_duration_seconds{method} (histogram), then the sampled metrics
  // in the order they were added. Methods and codes sort by name.
  // Thread-safe.
  std::string Render() const;

 private:
  struct MethodStats {
    std::map<std::string, uint64_t> calls_by_code;
    // Non-cumulative counts per bucket; the last one is +Inf.
    std::array<uint64_t, kLatencyBuckets.size() + 1> buckets{};
    double sum_seconds = 0;
    uint64_t count = 0;
  };
  struct SampledMetric {
    std::string name;
    std::string help;
    Type type;
    Sampler sample;
  };

  mutable std::mutex mu_;
  std::map<std::string, MethodStats> methods_;
  std::vector<SampledMetric> sampled_;
};

// A sample value for the text format: integers without a fraction, others
// in the shortest digits that read back exactly (plain decimal from 1e-4 to
// 1e15, scientific outside); "+Inf", "-Inf", "NaN".
std::string FormatMetricValue(double value);

// Escapes a label value (backslash, double quote, newline).
std::string EscapeLabelValue(const std::string& value);

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_METRICS_H_
