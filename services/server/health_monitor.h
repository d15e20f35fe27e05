// HealthMonitor: runs a storage probe on a background thread every few
// seconds and reports each change between serving and not serving (rankd
// turns that into grpc.health.v1 NOT_SERVING / SERVING for every service).
// The probe is a function so that any storage engine plugs in (SQLite's
// Database::Probe today) and tests can inject failures. No gRPC here.
#ifndef GORANK_SERVICES_SERVER_HEALTH_MONITOR_H_
#define GORANK_SERVICES_SERVER_HEALTH_MONITOR_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/status/status.h"

namespace gorank::server {

// Thread-safe.
class HealthMonitor {
 public:
  // OK while the storage answers; any error means "not serving".
  using Probe = std::function<absl::Status()>;
  // Called on every transition (never twice in a row with the same value),
  // with the probe's status (OK when serving again). Runs on the thread
  // that probed, one call at a time, in order.
  using Listener = std::function<void(bool serving, const absl::Status& why)>;

  // Starts out serving (the database was open when rankd started).
  HealthMonitor(Probe probe, Listener listener);
  ~HealthMonitor();  // Stop()s.
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  // Probes every `interval_ms` on a background thread until Stop();
  // `interval_ms` <= 0 starts nothing (ProbeNow() still works).
  // REQUIRES: called at most once.
  void Start(int interval_ms);
  // Stops and joins the background thread; idempotent.
  void Stop();

  // Runs the probe once on the calling thread, reports a transition, and
  // returns whether the storage is serving now.
  bool ProbeNow();
  bool serving() const;

 private:
  void Loop(int interval_ms);

  Probe probe_;
  Listener listener_;
  std::mutex probe_mu_;  // one probe and its report at a time
  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool serving_ = true;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace gorank::server

#endif  // GORANK_SERVICES_SERVER_HEALTH_MONITOR_H_
