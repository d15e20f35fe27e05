// grpc.health.v1 through the test-only health stub, and the in-process
// channel of RankdServer.
#include "gorank/v1/registry.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_server.h"

namespace gorank::integration {
namespace {

using testing::InProcessServer;

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

TEST(HealthTest, ServerAndEveryServiceAreServing) {
  InProcessServer server;
  auto stub = Health::NewStub(server.channel());
  for (const char* service :
       {"", "gorank.v1.PlayerRegistry", "gorank.v1.AgencyService",
        "gorank.v1.TokenService", "gorank.v1.RankService"}) {
    HealthCheckRequest req;
    req.set_service(service);
    HealthCheckResponse resp;
    grpc::Status s =
        stub->Check(InProcessServer::Context("").get(), req, &resp);
    ASSERT_TRUE(s.ok()) << service << ": " << s.error_message();
    EXPECT_EQ(resp.status(), HealthCheckResponse::SERVING) << service;
  }
  HealthCheckRequest unknown;
  unknown.set_service("gorank.v1.NoSuchService");
  HealthCheckResponse resp;
  EXPECT_EQ(stub->Check(InProcessServer::Context("").get(), unknown, &resp)
                .error_code(),
            grpc::StatusCode::NOT_FOUND);
}

TEST(HealthTest, InProcessChannelServesTheSameData) {
  InProcessServer server;
  auto stub = v1::AgencyService::NewStub(server.server()->InProcessChannel());
  v1::ListAgenciesResponse resp;
  grpc::Status s = stub->ListAgencies(InProcessServer::Context("").get(),
                                      v1::ListAgenciesRequest(), &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.agencies_size(), 35);
  EXPECT_EQ(resp.agencies(0).prefix(), "000");
  EXPECT_EQ(resp.agencies(0).level(), v1::AGENCY_LEVEL_NATIONAL);
}

TEST(HealthTest, ShutdownIsIdempotent) {
  InProcessServer server;
  server.server()->Shutdown();
  server.server()->Shutdown();  // and once more from ~InProcessServer
  auto stub = Health::NewStub(server.channel());
  HealthCheckResponse resp;
  grpc::Status s = stub->Check(InProcessServer::Context("").get(),
                               HealthCheckRequest(), &resp);
  EXPECT_FALSE(s.ok()) << "a stopped server answered";
}

}  // namespace
}  // namespace gorank::integration
