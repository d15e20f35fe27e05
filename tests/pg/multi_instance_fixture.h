// Several real rankd processes on one PostgreSQL database (issue #10): the
// fixture of tests/pg/multi_instance_test.cc and outage_test.cc. Each
// instance is the real binary (path compiled in), started with
//   rankd --db URL --listen 127.0.0.1:0 --admin-token-file T --config C
// where C names one audit key file (so every instance signs with the same
// key) and a health probe period; its port is read from its log. Instances
// are SIGKILLed when the fixture ends, even after a failed assertion.
#ifndef GORANK_TESTS_PG_MULTI_INSTANCE_FIXTURE_H_
#define GORANK_TESTS_PG_MULTI_INSTANCE_FIXTURE_H_

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::pg_test {

// A private throw-away PostgreSQL server in `dir`, driven by pg_server.sh
// (start|standby|pause|resume|stop); stop runs again on destruction, so the
// server goes away even after a failed assertion. (The shared fixture server
// must not be stopped: the other pg. tests use it.)
class PrivateServer {
 public:
  PrivateServer(std::string dir, std::string scratch)
      : dir_(std::move(dir)), scratch_(std::move(scratch)) {}
  ~PrivateServer() { Do("stop"); }
  PrivateServer(const PrivateServer&) = delete;
  PrivateServer& operator=(const PrivateServer&) = delete;

  // pg_server.sh ACTION DIR [ARG]: its exit code; its output goes to
  // `output()`. Do("standby", primary.dir()) makes this a hot standby of
  // `primary`.
  int Do(const std::string& action, const std::string& arg = "");
  std::string Url() const;
  const std::string& dir() const { return dir_; }
  const std::string& output() const { return output_; }

 private:
  std::string dir_;
  std::string scratch_;
  std::string output_;
  int calls_ = 0;
};

// One running rankd and stubs on a channel to it.
struct Instance {
  std::string name;
  std::string log;
  std::string address;  // 127.0.0.1:PORT
  std::unique_ptr<testing::RankdProcess> child;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::PlayerRegistry::Stub> players;
  std::unique_ptr<v1::CertificateService::Stub> certs;
  std::unique_ptr<grpc::health::v1::Health::Stub> health;
};

class MultiInstanceFixture : public ::testing::Test {
 protected:
  MultiInstanceFixture();

  // Writes the config file every instance reads: the shared audit key file
  // and health_probe_ms.
  void WriteConfig(int health_probe_ms);
  // Starts rankd on `url`, waits (bounded) for its "serving on port N" line
  // and until its health answers SERVING, and reads the admin token once it
  // exists.
  // `flags` go after the fixture's own. Use with ASSERT_NO_FATAL_FAILURE.
  void Start(Instance& inst, const std::string& url,
             const std::vector<std::string>& flags = {});
  // grpc.health.v1 Check("") of `inst`; UNKNOWN when the call fails.
  static grpc::health::v1::HealthCheckResponse::ServingStatus Health(
      Instance& inst);
  // A context with the admin token ("" for the public) and a deadline.
  std::unique_ptr<grpc::ClientContext> Context(
      bool admin = true,
      std::chrono::milliseconds deadline = std::chrono::seconds(20)) const;
  // rankctl --server ADDRESS --token-file T args...
  testing::RunResult Ctl(const Instance& inst,
                         const std::vector<std::string>& args);

  // Registers a player with `rank` through `inst`; the status of the call.
  grpc::Status Register(Instance& inst, const std::string& name,
                        const std::string& rank, v1::Player* out);
  // Issues a tournament certificate of `grade` under prefix 000.
  grpc::Status Issue(Instance& inst, int64_t player_id,
                     const std::string& grade, const std::string& request_id,
                     v1::Certificate* out);
  // Every certificate of prefix 000 in `year`, through `inst`, paged.
  grpc::Status ListNational(Instance& inst, int year,
                            std::vector<v1::Certificate>* out);

  testing::TempDir dir_;
  std::string token_file_;
  std::string config_file_;
  std::string admin_;  // the national-admin token, read after the first start
  int starts_ = 0;
  int calls_ = 0;
};

// Polls `done` every 50 ms until it returns true or `limit` passes; returns
// its last answer. For waiting on another process, never for timing.
template <typename F>
bool PollUntil(F done, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

}  // namespace gorank::pg_test

#endif  // GORANK_TESTS_PG_MULTI_INSTANCE_FIXTURE_H_
