#include "services/server/health_monitor.h"

#include <chrono>
#include <utility>

namespace gorank::server {

HealthMonitor::HealthMonitor(Probe probe, Listener listener)
    : probe_(std::move(probe)), listener_(std::move(listener)) {}

HealthMonitor::~HealthMonitor() { Stop(); }

void HealthMonitor::Start(int interval_ms) {
  if (interval_ms <= 0) return;
  thread_ = std::thread([this, interval_ms] { Loop(interval_ms); });
}

void HealthMonitor::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HealthMonitor::Loop(int interval_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_cv_.wait_for(lock, std::chrono::milliseconds(interval_ms),
                            [this] { return stopping_; })) {
    lock.unlock();
    ProbeNow();
    lock.lock();
  }
}

bool HealthMonitor::ProbeNow() {
  std::lock_guard<std::mutex> probing(probe_mu_);
  const absl::Status status = probe_();
  const bool now = status.ok();
  bool changed = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    changed = serving_ != now;
    serving_ = now;
  }
  if (changed && listener_) listener_(now, status);
  return now;
}

bool HealthMonitor::serving() const {
  std::lock_guard<std::mutex> lock(mu_);
  return serving_;
}

}  // namespace gorank::server
