// A real rankd for the rankctl end-to-end tests: started on a database in a
// test's directory with gRPC and the public web page on ports it picks
// itself (read from its log), stopped with SIGTERM.
#ifndef GORANK_TESTS_E2E_RANKD_INSTANCE_H_
#define GORANK_TESTS_E2E_RANKD_INSTANCE_H_

#include <memory>
#include <string>

#include "tests/e2e/process.h"

namespace gorank::e2e {

class RankdInstance {
 public:
  // Starts `rankd_path --db <db> --listen 127.0.0.1:0 --http-listen
  // 127.0.0.1:0` (the admin token goes beside the database, as in
  // `deploy/setup.sh run`), logging to `log`. Returns "" once both ports are
  // logged (bounded wait), else what went wrong with the log.
  std::string Start(const std::string& rankd_path, const std::string& db,
                    const std::string& log);
  // SIGTERM; returns rankd's exit code.
  int Stop();

  int grpc_port() const { return grpc_port_; }
  int http_port() const { return http_port_; }
  std::string server() const {
    return "127.0.0.1:" + std::to_string(grpc_port_);
  }

 private:
  std::unique_ptr<Child> child_;
  int grpc_port_ = 0;
  int http_port_ = 0;
};

}  // namespace gorank::e2e

#endif  // GORANK_TESTS_E2E_RANKD_INSTANCE_H_
