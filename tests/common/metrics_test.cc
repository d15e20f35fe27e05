// Metrics: the Prometheus text format for known counts, value formatting,
// label escaping, and sampled metrics.
#include "services/common/metrics.h"

#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace gorank {
namespace {

TEST(MetricsTest, EmptyRegistryHasOnlyTheCallHeaders) {
  Metrics m;
  EXPECT_EQ(m.Render(),
            "# HELP rankd_rpc_calls_total gRPC calls finished, by method and "
            "status code "
            "(errors: code != OK).\n"
            "# TYPE rankd_rpc_calls_total counter\n"
            "# HELP rankd_rpc_duration_seconds gRPC call duration in the "
            "handler layer "
            "(authentication included), by method.\n"
            "# TYPE rankd_rpc_duration_seconds histogram\n");
}

TEST(MetricsTest, KnownCallsGiveExactCountersAndCumulativeBuckets) {
  Metrics m;
  m.RecordCall("/gorank.v1.RankService/ParseRank", "OK",
               0.0001220703125);  // 2^-13: exact in binary
  m.RecordCall("/gorank.v1.RankService/ParseRank", "OK", 0.00390625);
  m.RecordCall("/gorank.v1.RankService/ParseRank", "INVALID_ARGUMENT", 0.25);
  m.RecordCall("/gorank.v1.AgencyService/ListAgencies", "OK", 20);
  const std::string out = m.Render();
  const std::string ag = "method=\"/gorank.v1.AgencyService/ListAgencies\"";
  const std::string pr = "method=\"/gorank.v1.RankService/ParseRank\"";
  const std::string expected =
      "# HELP rankd_rpc_calls_total gRPC calls finished, by method and status "
      "code "
      "(errors: code != OK).\n"
      "# TYPE rankd_rpc_calls_total counter\n"
      "rankd_rpc_calls_total{" +
      ag +
      ",code=\"OK\"} 1\n"
      "rankd_rpc_calls_total{" +
      pr +
      ",code=\"INVALID_ARGUMENT\"} 1\n"
      "rankd_rpc_calls_total{" +
      pr +
      ",code=\"OK\"} 2\n"
      "# HELP rankd_rpc_duration_seconds gRPC call duration in the handler "
      "layer "
      "(authentication included), by method.\n"
      "# TYPE rankd_rpc_duration_seconds histogram\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.0005\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.001\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.0025\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.005\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.01\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.025\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.05\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.1\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.25\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"0.5\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"1\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"2.5\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"5\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"10\"} 0\n"
      "rankd_rpc_duration_seconds_bucket{" +
      ag +
      ",le=\"+Inf\"} 1\n"
      "rankd_rpc_duration_seconds_sum{" +
      ag +
      "} 20\n"
      "rankd_rpc_duration_seconds_count{" +
      ag +
      "} 1\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.0005\"} 1\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.001\"} 1\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.0025\"} 1\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.005\"} 2\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.01\"} 2\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.025\"} 2\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.05\"} 2\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.1\"} 2\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.25\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"0.5\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"1\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"2.5\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"5\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"10\"} 3\n"
      "rankd_rpc_duration_seconds_bucket{" +
      pr +
      ",le=\"+Inf\"} 3\n"
      "rankd_rpc_duration_seconds_sum{" +
      pr +
      "} 0.2540283203125\n"
      "rankd_rpc_duration_seconds_count{" +
      pr + "} 3\n";
  EXPECT_EQ(out, expected);
}

TEST(MetricsTest, SampledMetricsFollowInOrderAndMissingSamplesAreLeftOut) {
  Metrics m;
  double in_use = 3;
  m.AddSampled("rankd_db_reader_pool_in_use", "Connections lent.",
               Metrics::Type::kGauge,
               [&in_use]() -> std::optional<double> { return in_use; });
  m.AddSampled("rankd_certificates_issued_total", "Certificates.",
               Metrics::Type::kCounter,
               []() -> std::optional<double> { return std::nullopt; });
  m.AddSampled("process_start_time_seconds", "Start.", Metrics::Type::kGauge,
               []() -> std::optional<double> { return 1764441600.5; });
  const std::string out = m.Render();
  const std::string tail =
      "# HELP rankd_db_reader_pool_in_use Connections lent.\n"
      "# TYPE rankd_db_reader_pool_in_use gauge\n"
      "rankd_db_reader_pool_in_use 3\n"
      "# HELP rankd_certificates_issued_total Certificates.\n"
      "# TYPE rankd_certificates_issued_total counter\n"
      "# HELP process_start_time_seconds Start.\n"
      "# TYPE process_start_time_seconds gauge\n"
      "process_start_time_seconds 1764441600.5\n";
  ASSERT_GE(out.size(), tail.size());
  EXPECT_EQ(out.substr(out.size() - tail.size()), tail);
  in_use = 1;  // sampled again at every render
  EXPECT_NE(m.Render().find("\nrankd_db_reader_pool_in_use 1\n"),
            std::string::npos);
}

TEST(MetricsTest, ValuesAndLabelsAreFormattedForPrometheus) {
  EXPECT_EQ(FormatMetricValue(0), "0");
  EXPECT_EQ(FormatMetricValue(42), "42");
  EXPECT_EQ(FormatMetricValue(-7), "-7");
  EXPECT_EQ(FormatMetricValue(0.1), "0.1");
  EXPECT_EQ(FormatMetricValue(2.5e-7), "2.5e-07");
  EXPECT_EQ(FormatMetricValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatMetricValue(-std::numeric_limits<double>::infinity()),
            "-Inf");
  EXPECT_EQ(FormatMetricValue(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");

  Metrics m;
  m.RecordCall("/x/\"odd\"", "OK", -1);  // a negative duration counts as 0
  const std::string out = m.Render();
  EXPECT_NE(
      out.find(
          "rankd_rpc_calls_total{method=\"/x/\\\"odd\\\"\",code=\"OK\"} 1\n"),
      std::string::npos)
      << out;
  EXPECT_NE(
      out.find("rankd_rpc_duration_seconds_sum{method=\"/x/\\\"odd\\\"\"} 0\n"),
      std::string::npos)
      << out;
}

TEST(MetricsTest, ConcurrentCallsAreAllCounted) {
  Metrics m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&m] {
      for (int i = 0; i < 1000; ++i) m.RecordCall("/s/M", "OK", 0.001);
    });
  }
  for (auto& t : threads) t.join();
  const std::string out = m.Render();
  EXPECT_NE(
      out.find("rankd_rpc_calls_total{method=\"/s/M\",code=\"OK\"} 4000\n"),
      std::string::npos);
  EXPECT_NE(out.find("rankd_rpc_duration_seconds_bucket{method=\"/s/"
                     "M\",le=\"0.001\"} 4000\n"),
            std::string::npos);
}

TEST(MetricsDeathTest, DuplicateOrInvalidNamesAbort) {
  Metrics m;
  auto zero = []() -> std::optional<double> { return 0; };
  m.AddSampled("rankd_x", "x", Metrics::Type::kGauge, zero);
  EXPECT_DEATH(m.AddSampled("rankd_x", "x", Metrics::Type::kGauge, zero),
               "duplicate");
  EXPECT_DEATH(m.AddSampled("9bad", "x", Metrics::Type::kGauge, zero),
               "invalid");
  EXPECT_DEATH(
      m.AddSampled("rankd_rpc_calls_total", "x", Metrics::Type::kGauge, zero),
      "duplicate");
}

}  // namespace
}  // namespace gorank
