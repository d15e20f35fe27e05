// HealthMonitor with an injected probe: transitions reported once each, in
// order, from ProbeNow() and from the background thread.
#include "services/server/health_monitor.h"

#include <future>
#include <mutex>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::server {
namespace {

// A probe whose answer the test sets, and a listener that records calls.
struct Harness {
  std::mutex mu;
  absl::Status answer;
  int probes = 0;
  std::vector<std::pair<bool, absl::Status>> reports;

  HealthMonitor::Probe probe() {
    return [this] {
      std::lock_guard<std::mutex> lock(mu);
      ++probes;
      return answer;
    };
  }
  HealthMonitor::Listener listener() {
    return [this](bool serving, const absl::Status& why) {
      std::lock_guard<std::mutex> lock(mu);
      reports.emplace_back(serving, why);
    };
  }
  void Answer(absl::Status s) {
    std::lock_guard<std::mutex> lock(mu);
    answer = std::move(s);
  }
};

TEST(HealthMonitorTest, StartsServingAndReportsEachTransitionOnce) {
  Harness h;
  HealthMonitor monitor(h.probe(), h.listener());
  EXPECT_TRUE(monitor.serving());

  EXPECT_TRUE(monitor.ProbeNow());  // still fine: nothing to report
  EXPECT_TRUE(h.reports.empty());

  const absl::Status down = absl::UnavailableError("database file moved");
  h.Answer(down);
  EXPECT_FALSE(monitor.ProbeNow());
  EXPECT_FALSE(monitor.ProbeNow());  // still down: no second report
  EXPECT_FALSE(monitor.serving());
  ASSERT_EQ(h.reports.size(), 1u);
  EXPECT_FALSE(h.reports[0].first);
  EXPECT_EQ(h.reports[0].second, down);

  h.Answer(absl::OkStatus());
  EXPECT_TRUE(monitor.ProbeNow());
  EXPECT_TRUE(monitor.serving());
  ASSERT_EQ(h.reports.size(), 2u);
  EXPECT_TRUE(h.reports[1].first);
  EXPECT_TRUE(h.reports[1].second.ok());
  EXPECT_EQ(h.probes, 4);
}

TEST(HealthMonitorTest, AnyErrorCodeMeansNotServing) {
  for (const absl::Status& s :
       {absl::DataLossError("corrupt"), absl::InternalError("sqlite: x"),
        absl::DeadlineExceededError("slow")}) {
    Harness h;
    h.Answer(s);
    HealthMonitor monitor(h.probe(), h.listener());
    EXPECT_FALSE(monitor.ProbeNow()) << s;
  }
}

TEST(HealthMonitorTest, IntervalZeroStartsNoThread) {
  Harness h;
  {
    HealthMonitor monitor(h.probe(), h.listener());
    monitor.Start(0);
    monitor.Stop();
    monitor.Stop();  // idempotent
  }
  EXPECT_EQ(h.probes, 0);
}

TEST(HealthMonitorTest, BackgroundThreadNoticesFailureAndRecovery) {
  // The listener hands each transition to the test through a promise; the
  // test waits for it (no sleeps, no timing asserts).
  std::mutex mu;
  absl::Status answer = absl::UnavailableError("disk gone");
  std::promise<bool> first, second;
  int reported = 0;
  HealthMonitor monitor(
      [&] {
        std::lock_guard<std::mutex> lock(mu);
        return answer;
      },
      [&](bool serving, const absl::Status&) {
        std::lock_guard<std::mutex> lock(mu);
        if (++reported == 1) {
          answer = absl::OkStatus();  // "the disk is back" for the next probe
          first.set_value(serving);
        } else if (reported == 2) {
          second.set_value(serving);
        }
      });
  monitor.Start(1);
  EXPECT_FALSE(first.get_future().get());
  EXPECT_TRUE(second.get_future().get());
  monitor.Stop();
  EXPECT_TRUE(monitor.serving());
  EXPECT_EQ(reported, 2);
}

}  // namespace
}  // namespace gorank::server
