// The fixture of the web page's integration tests: a whole RankdServer on a
// temp database with the public web page on 127.0.0.1:<free port>, a fake
// clock at 2025-12-10 12:00 Asia/Shanghai, a gRPC stub on a real channel for
// setting things up (as the national admin) and for the answers the web must
// repeat, and httplib clients for the page.
#ifndef GORANK_TESTS_WEB_WEB_FIXTURE_H_
#define GORANK_TESTS_WEB_WEB_FIXTURE_H_

#include <httplib.h>

#include <functional>
#include <memory>
#include <string>

#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "services/server/rankd_server.h"
#include "tests/testing/in_process_server.h"

namespace gorank::web {

// A resident ID (born 1949-12-31) that no page may show.
inline constexpr char kResidentId[] = "11010519491231002X";

class WebFixture : public ::testing::Test {
 protected:
  ~WebFixture() override;

  // Starts rankd with these overrides of the defaults; registers 张三 (1k,
  // resident ID above) and issues him a 1d certificate under 000 (number
  // 000250001, kept in `cert_`).
  void StartServer(double http_rate = 1000, double http_burst = 1000,
                   double public_rate = 1000, double public_burst = 1000);

  // A client of the web page whose connections come from `source_ip`
  // (any 127.x.y.z address reaches the server on 127.0.0.1).
  std::unique_ptr<httplib::Client> WebClient(
      const std::string& source_ip = "127.0.0.1");
  // GET through a fresh client; fails the test when no answer came.
  httplib::Result Get(const std::string& path_and_query);
  // The form_token of the first objection form on a /notices page ("" when
  // there is none): a post of the form must carry it.
  static std::string FormToken(const std::string& page);

  static std::unique_ptr<grpc::ClientContext> Context(const std::string& token);
  v1::Player MustRegister(const std::string& name, const std::string& rank,
                          const std::string& resident_id);
  v1::Certificate MustIssue(int64_t player_id, const std::string& grade);

  // The server (FakeClock at 2025-12-10, its own temp folder and database).
  std::unique_ptr<testing::InProcessServer> s_;
  server::RankdServer* server_ = nullptr;  // s_->server()
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::CertificateService::Stub> certs_;
  std::unique_ptr<v1::PlayerRegistry::Stub> players_;
  std::string admin_;
  v1::Certificate cert_;
  int http_port_ = 0;
  // Set before StartServer: notices shown on one page.
  int http_max_notices_ = 200;
  // Set before StartServer: ServerConfig::public_base_url ("" the default).
  std::string public_base_url_;
  // Set before StartServer: any further change of the server's config.
  std::function<void(server::ServerConfig&)> adjust_config_;
};

}  // namespace gorank::web

#endif  // GORANK_TESTS_WEB_WEB_FIXTURE_H_
