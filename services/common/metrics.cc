#include "services/common/metrics.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gorank {
namespace {

bool ValidMetricName(const std::string& name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c == '_' || c == ':';
    const bool digit = c >= '0' && c <= '9';
    if (!alpha && !(digit && i > 0)) return false;
  }
  return true;
}

void Header(std::string& out, const std::string& name, const std::string& help,
            const char* type) {
  out += "# HELP " + name + " " + help + "\n";
  out += "# TYPE " + name + " " + type + "\n";
}

}  // namespace

std::string FormatMetricValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::trunc(value) == value && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char buf[64];
  // The shortest digits that read back exactly; plain decimals for the
  // usual magnitudes (0.0005 rather than 5e-04).
  const double magnitude = std::fabs(value);
  const auto format = magnitude >= 1e-4 && magnitude < 1e15
                          ? std::chars_format::fixed
                          : std::chars_format::scientific;
  const auto result = std::to_chars(buf, buf + sizeof buf, value, format);
  return std::string(buf, result.ptr);
}

std::string EscapeLabelValue(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void Metrics::RecordCall(const std::string& method, const std::string& code,
                         double seconds) {
  if (!(seconds > 0)) seconds = 0;
  size_t bucket = 0;
  while (bucket < kLatencyBuckets.size() && seconds > kLatencyBuckets[bucket]) {
    ++bucket;
  }
  std::lock_guard<std::mutex> lock(mu_);
  MethodStats& m = methods_[method];
  ++m.calls_by_code[code];
  ++m.buckets[bucket];
  m.sum_seconds += seconds;
  ++m.count;
}

void Metrics::AddSampled(const std::string& name, const std::string& help,
                         Type type, Sampler sample) {
  std::lock_guard<std::mutex> lock(mu_);
  bool taken = name == "rankd_rpc_calls_total" ||
               name.rfind("rankd_rpc_duration_seconds", 0) == 0;
  for (const SampledMetric& m : sampled_) taken = taken || m.name == name;
  if (!ValidMetricName(name) || taken) {
    std::fprintf(stderr,
                 "Metrics::AddSampled: invalid or duplicate name '%s'\n",
                 name.c_str());
    std::abort();
  }
  sampled_.push_back(SampledMetric{name, help, type, std::move(sample)});
}

std::string Metrics::Render() const {
  std::string out;
  std::vector<SampledMetric> sampled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    sampled = sampled_;
    Header(
        out, "rankd_rpc_calls_total",
        "gRPC calls finished, by method and status code (errors: code != OK).",
        "counter");
    for (const auto& [method, m] : methods_) {
      const std::string label = "method=\"" + EscapeLabelValue(method) + "\"";
      for (const auto& [code, n] : m.calls_by_code) {
        out += "rankd_rpc_calls_total{" + label + ",code=\"" +
               EscapeLabelValue(code) + "\"} " + std::to_string(n) + "\n";
      }
    }
    Header(out, "rankd_rpc_duration_seconds",
           "gRPC call duration in the handler layer (authentication included), "
           "by method.",
           "histogram");
    for (const auto& [method, m] : methods_) {
      const std::string label = "method=\"" + EscapeLabelValue(method) + "\"";
      uint64_t cumulative = 0;
      for (size_t i = 0; i < m.buckets.size(); ++i) {
        cumulative += m.buckets[i];
        const std::string le = i < kLatencyBuckets.size()
                                   ? FormatMetricValue(kLatencyBuckets[i])
                                   : "+Inf";
        out += "rankd_rpc_duration_seconds_bucket{" + label + ",le=\"" + le +
               "\"} " + std::to_string(cumulative) + "\n";
      }
      out += "rankd_rpc_duration_seconds_sum{" + label + "} " +
             FormatMetricValue(m.sum_seconds) + "\n";
      out += "rankd_rpc_duration_seconds_count{" + label + "} " +
             std::to_string(m.count) + "\n";
    }
  }
  // Samplers may read the database: run them without the lock.
  for (const SampledMetric& m : sampled) {
    Header(out, m.name, m.help, m.type == Type::kCounter ? "counter" : "gauge");
    if (std::optional<double> v = m.sample()) {
      out += m.name + " " + FormatMetricValue(*v) + "\n";
    }
  }
  return out;
}

}  // namespace gorank
