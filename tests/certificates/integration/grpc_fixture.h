// The fixture of the in-process gRPC tests of CertificateService: the one
// in-process server (testing::InProcessServer: a whole RankdServer on a temp
// database, 127.0.0.1:0) with the public index on, a fake clock at
// 2025-12-10 12:00 Asia/Shanghai, and helpers that call it through a real
// channel with a bearer token (or none, for the public).
#ifndef GORANK_TESTS_CERTIFICATES_INTEGRATION_GRPC_FIXTURE_H_
#define GORANK_TESTS_CERTIFICATES_INTEGRATION_GRPC_FIXTURE_H_

#include <functional>
#include <memory>
#include <string>

#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "services/common/clock.h"
#include "services/server/rankd_server.h"
#include "tests/testing/in_process_server.h"

namespace gorank::certificates {

class GrpcFixture : public ::testing::Test {
 protected:
  GrpcFixture();
  // The same, with `adjust` applied to the configuration before the start.
  explicit GrpcFixture(
      const std::function<void(server::ServerConfig&)>& adjust);
  ~GrpcFixture() override;

  // Stops the server and starts a new one on the same database and files
  // (stubs and channel renewed); aborts when it does not start.
  void Restart();
  // A channel to the server and the stubs over it.
  void Connect();

  // A context carrying `token` ("" = the public) and a 30 s deadline.
  static std::unique_ptr<grpc::ClientContext> Context(const std::string& token);

  // Creates a token (as the national admin); returns its secret.
  std::string MustCreateToken(v1::Role role, const std::string& agency);
  // Registers a player (as the national admin) with gender and birth date.
  v1::Player MustRegister(const std::string& name, const std::string& agency,
                          const std::string& rank,
                          const std::string& resident_id = "");
  // Records a passed annual review of year - 1 (as an auditor), then
  // orders and releases the stock of `year` (as the national admin).
  void MustGiveStock(const std::string& agency, int year, int quantity);
  static v1::IssueCertificateRequest IssueRequest(int64_t player_id,
                                                  const std::string& grade,
                                                  const std::string& agency);
  // Issues as `token`; returns the status and fills `out`.
  grpc::Status Issue(const std::string& token,
                     const v1::IssueCertificateRequest& request,
                     v1::Certificate* out);

  std::unique_ptr<testing::InProcessServer> rankd_;
  FakeClock& clock_;             // rankd_'s
  server::RankdServer* server_;  // rankd_'s, renewed by Restart()
  std::shared_ptr<grpc::Channel> channel_;
  std::string admin_;     // the bootstrap national-admin token
  std::string reviewer_;  // an auditor token, created on first use
  std::unique_ptr<v1::CertificateService::Stub> certs_;
  std::unique_ptr<v1::PlayerRegistry::Stub> players_;
  std::unique_ptr<v1::TokenService::Stub> tokens_;
  std::unique_ptr<v1::AuditService::Stub> audit_;
};

}  // namespace gorank::certificates

#endif  // GORANK_TESTS_CERTIFICATES_INTEGRATION_GRPC_FIXTURE_H_
