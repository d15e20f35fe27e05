// Operational endpoints of a real in-process rankd: health follows the
// database file (grpc.health.v1 NOT_SERVING while it is gone, SERVING when
// it is back, writes UNAVAILABLE meanwhile), and the HTTP metrics endpoint
// (/metrics in Prometheus text format, /healthz), plus their config keys.
#include <cstdio>
#include <memory>
#include <string>

#include "gorank/v1/registry.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "services/server/metrics_endpoint.h"
#include "services/server/rankd_server.h"
#include "services/server/server_config.h"
#include "spdlog/spdlog.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::server {
namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

constexpr const char* kServices[] = {"",
                                     "gorank.v1.PlayerRegistry",
                                     "gorank.v1.AgencyService",
                                     "gorank.v1.TokenService",
                                     "gorank.v1.RankService",
                                     "gorank.v1.CertificateService",
                                     "gorank.v1.AuditService",
                                     "gorank.v1.RulesService",
                                     "gorank.v1.TournamentService",
                                     "gorank.v1.EligibilityService",
                                     "gorank.v1.RatingService"};

std::unique_ptr<grpc::ClientContext> Context(const std::string& bearer = "") {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  if (!bearer.empty()) ctx->AddMetadata("authorization", "Bearer " + bearer);
  return ctx;
}

// A started rankd on a temp database; the health probe runs only when the
// test asks (health_probe_ms = 0) unless `probe_ms` says otherwise.
struct Rankd {
  explicit Rankd(int probe_ms = 0, bool metrics = true) {
    spdlog::set_level(spdlog::level::off);
    config.db_path = dir.File("rankd.db");
    config.listen = "127.0.0.1:0";
    config.shutdown_grace_ms = 100;
    config.reader_connections = 2;
    config.health_probe_ms = probe_ms;
    if (metrics) config.metrics_listen = "127.0.0.1:0";
    auto started = RankdServer::Start(config, &clock);
    if (!started.ok()) {
      ADD_FAILURE() << started.status();
      return;
    }
    server = std::move(*started);
    channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port()),
                                  grpc::InsecureChannelCredentials());
  }

  HealthCheckResponse::ServingStatus Status(const std::string& service) {
    HealthCheckRequest req;
    req.set_service(service);
    HealthCheckResponse resp;
    grpc::Status s =
        Health::NewStub(channel)->Check(Context().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << service << ": " << s.error_message();
    return resp.status();
  }

  grpc::Status CreateToken(const std::string& label) {
    v1::CreateTokenRequest req;
    req.set_role(v1::ROLE_AUDITOR);
    req.set_label(label);
    v1::CreateTokenResponse resp;
    return v1::TokenService::NewStub(channel)->CreateToken(
        Context(server->bootstrap_secret()).get(), req, &resp);
  }

  httplib::Result Get(const std::string& path) {
    httplib::Client http("127.0.0.1", server->metrics_port());
    return http.Get(path);
  }

  testing::TempDir dir;
  FakeClock clock{1717214400};
  ServerConfig config;
  std::unique_ptr<RankdServer> server;
  std::shared_ptr<grpc::Channel> channel;
};

TEST(OperationsTest, HealthIsNotServingWhileTheDatabaseFileIsGoneAndRecovers) {
  Rankd rankd;
  ASSERT_NE(rankd.server, nullptr);
  for (const char* service : kServices) {
    EXPECT_EQ(rankd.Status(service), HealthCheckResponse::SERVING) << service;
  }
  ASSERT_TRUE(rankd.CreateToken("before").ok());
  auto before = testing::TakeSnapshot(rankd.server->database());
  ASSERT_TRUE(before.ok()) << before.status();

  // What an operator's mistake looks like: the file is moved away while
  // rankd runs (SQLite keeps the old inode open; a restart would start on
  // an empty database).
  const std::string aside = rankd.dir.File("moved-away.db");
  ASSERT_EQ(std::rename(rankd.config.db_path.c_str(), aside.c_str()), 0);
  EXPECT_FALSE(rankd.server->ProbeHealthNow());
  for (const char* service : kServices) {
    EXPECT_EQ(rankd.Status(service), HealthCheckResponse::NOT_SERVING)
        << service;
  }
  const grpc::Status refused = rankd.CreateToken("while gone");
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::UNAVAILABLE)
      << refused.error_message();
  EXPECT_NE(refused.error_message().find("moved"), std::string::npos)
      << refused.error_message();
  EXPECT_EQ(refused.error_message().find(rankd.dir.path()), std::string::npos)
      << "a client learns the server's file paths: " << refused.error_message();
  httplib::Result healthz = rankd.Get("/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 503);
  EXPECT_EQ(healthz->body, "NOT_SERVING\n");
  httplib::Result metrics = rankd.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_NE(metrics->body.find("\nrankd_health_serving 0\n"),
            std::string::npos);

  ASSERT_EQ(std::rename(aside.c_str(), rankd.config.db_path.c_str()), 0);
  auto during = testing::TakeSnapshot(rankd.server->database());
  ASSERT_TRUE(during.ok()) << during.status();
  EXPECT_EQ(*during, *before) << "a refused call changed the database";
  EXPECT_TRUE(rankd.server->ProbeHealthNow());
  for (const char* service : kServices) {
    EXPECT_EQ(rankd.Status(service), HealthCheckResponse::SERVING) << service;
  }
  EXPECT_TRUE(rankd.CreateToken("after").ok());
  healthz = rankd.Get("/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 200);
}

TEST(OperationsTest, TheBackgroundProbeTurnsHealthWithoutHelp) {
  Rankd rankd(/*probe_ms=*/5, /*metrics=*/false);
  ASSERT_NE(rankd.server, nullptr);
  EXPECT_EQ(rankd.server->metrics_port(), 0);
  // Watch streams the current status, then every change.
  auto ctx = Context();
  HealthCheckRequest req;
  req.set_service("gorank.v1.CertificateService");
  auto watch = Health::NewStub(rankd.channel)->Watch(ctx.get(), req);
  HealthCheckResponse resp;
  ASSERT_TRUE(watch->Read(&resp));
  EXPECT_EQ(resp.status(), HealthCheckResponse::SERVING);

  const std::string aside = rankd.dir.File("moved-away.db");
  ASSERT_EQ(std::rename(rankd.config.db_path.c_str(), aside.c_str()), 0);
  ASSERT_TRUE(watch->Read(&resp));
  EXPECT_EQ(resp.status(), HealthCheckResponse::NOT_SERVING);

  ASSERT_EQ(std::rename(aside.c_str(), rankd.config.db_path.c_str()), 0);
  ASSERT_TRUE(watch->Read(&resp));
  EXPECT_EQ(resp.status(), HealthCheckResponse::SERVING);
  ctx->TryCancel();
}

// The value of the sample line `name` (with labels) in `body`, or "" when
// absent.
std::string Sample(const std::string& body, const std::string& name) {
  const std::string key = "\n" + name + " ";
  const size_t at = body.find(key);
  if (at == std::string::npos) return "";
  const size_t start = at + key.size();
  return body.substr(start, body.find('\n', start) - start);
}

TEST(OperationsTest, MetricsCountCallsErrorsAndLatencyPerMethod) {
  Rankd rankd;
  ASSERT_NE(rankd.server, nullptr);
  ASSERT_GT(rankd.server->metrics_port(), 0);
  auto ranks = v1::RankService::NewStub(rankd.channel);
  for (const char* text : {"3d", "5k", "nonsense"}) {
    v1::ParseRankRequest req;
    req.set_text(text);
    v1::ParseRankResponse resp;
    ranks->ParseRank(Context().get(), req, &resp).error_code();
  }
  v1::ListTokensResponse tokens;
  EXPECT_EQ(v1::TokenService::NewStub(rankd.channel)
                ->ListTokens(Context("rkd_not_a_token").get(),
                             v1::ListTokensRequest(), &tokens)
                .error_code(),
            grpc::StatusCode::UNAUTHENTICATED);

  httplib::Result res = rankd.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"),
            "text/plain; version=0.0.4; charset=utf-8");
  const std::string& body = res->body;
  const std::string parse = "method=\"/gorank.v1.RankService/ParseRank\"";
  EXPECT_EQ(Sample(body, "rankd_rpc_calls_total{" + parse + ",code=\"OK\"}"),
            "2")
      << body;
  EXPECT_EQ(Sample(body, "rankd_rpc_calls_total{" + parse +
                             ",code=\"INVALID_ARGUMENT\"}"),
            "1")
      << body;
  EXPECT_EQ(
      Sample(
          body,
          "rankd_rpc_calls_total{method=\"/gorank.v1.TokenService/ListTokens\","
          "code=\"UNAUTHENTICATED\"}"),
      "1")
      << body;
  EXPECT_EQ(Sample(body, "rankd_rpc_duration_seconds_count{" + parse + "}"),
            "3");
  EXPECT_EQ(Sample(body, "rankd_rpc_duration_seconds_bucket{" + parse +
                             ",le=\"+Inf\"}"),
            "3");
  EXPECT_NE(Sample(body, "rankd_rpc_duration_seconds_sum{" + parse + "}"), "");
  EXPECT_EQ(Sample(body, "rankd_db_reader_pool_size"), "2");
  EXPECT_EQ(Sample(body, "rankd_db_reader_pool_in_use"), "0");
  EXPECT_EQ(Sample(body, "rankd_certificates_issued_total"), "0");
  EXPECT_EQ(Sample(body, "rankd_health_serving"), "1");
  EXPECT_NE(Sample(body, "process_start_time_seconds"), "");
  EXPECT_NE(body.find("# TYPE rankd_rpc_duration_seconds histogram\n"),
            std::string::npos);

  httplib::Result other = rankd.Get("/players");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404) << "the metrics port serves nothing else";
}

TEST(OperationsTest, MetricsAddressErrorsStopTheStart) {
  testing::TempDir dir;
  FakeClock clock(1717214400);
  ServerConfig config;
  config.db_path = dir.File("rankd.db");
  config.listen = "127.0.0.1:0";
  config.shutdown_grace_ms = 100;
  config.metrics_listen = "localhost";
  auto bad = RankdServer::Start(config, &clock);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument)
      << bad.status();

  Rankd first;
  ASSERT_NE(first.server, nullptr);
  config.metrics_listen =
      "127.0.0.1:" + std::to_string(first.server->metrics_port());
  auto busy = RankdServer::Start(config, &clock);
  EXPECT_EQ(busy.status().code(), absl::StatusCode::kUnavailable)
      << busy.status();
}

TEST(OperationsTest, SplitHostPortAcceptsV4V6AndNames) {
  EXPECT_EQ(*SplitHostPort("127.0.0.1:9464"),
            std::make_pair(std::string("127.0.0.1"), 9464));
  EXPECT_EQ(*SplitHostPort("[::1]:0"), std::make_pair(std::string("::1"), 0));
  EXPECT_EQ(*SplitHostPort("localhost:80"),
            std::make_pair(std::string("localhost"), 80));
  for (const char* bad :
       {"", ":9464", "host:", "host:port", "host:70000", "host:-1", "9464"}) {
    EXPECT_EQ(SplitHostPort(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(OperationsTest, ConfigKeysForProbeAndMetrics) {
  ServerConfig c;
  EXPECT_EQ(c.health_probe_ms, 2000);
  EXPECT_EQ(c.metrics_listen, "");
  ASSERT_TRUE(
      ParseConfigText(
          "health_probe_ms = 0\nmetrics_listen = \"127.0.0.1:9464\"\n", &c)
          .ok());
  EXPECT_EQ(c.health_probe_ms, 0);
  EXPECT_EQ(c.metrics_listen, "127.0.0.1:9464");
  for (const char* bad :
       {"health_probe_ms = -1", "health_probe_ms = \"2s\"",
        "health_probe_ms = 3600001", "metrics_listen = 9464"}) {
    const absl::Status s = ParseConfigText(bad, &c);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find(
                  std::string(bad).substr(0, std::string(bad).find(' '))),
              std::string::npos)
        << s;
  }
}

}  // namespace
}  // namespace gorank::server
