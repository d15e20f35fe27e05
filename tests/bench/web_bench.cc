// Requests a second of the public web page's JSON verification
// (/api/v1/verify) and of its HTML page, through real HTTP on 127.0.0.1,
// against an in-process rankd on a temp database (limits off). Each thread
// keeps one connection alive, like a browser or an API client would.
//   build-x/tests/web/web_bench --benchmark_min_time=2
#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "tests/testing/temp_dir.h"

namespace gorank {
namespace {

struct Served {
  testing::TempDir dir;
  std::unique_ptr<server::RankdServer> server;
  std::string number;
};

std::unique_ptr<grpc::ClientContext> AdminContext(const std::string& admin) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + admin);
  return ctx;
}

// One rankd for the whole run, with one issued certificate.
Served& Server() {
  static Served* served = [] {
    spdlog::set_level(spdlog::level::warn);
    auto* s = new Served;
    server::ServerConfig config;
    config.db_path = s->dir.File("rankd.db");
    config.listen = "127.0.0.1:0";
    config.http_listen = "127.0.0.1:0";
    config.http_rate = 0;
    config.public_rate = 0;
    auto started = server::RankdServer::Start(config);
    if (!started.ok()) {
      std::cerr << started.status() << "\n";
      std::abort();
    }
    s->server = std::move(*started);
    const std::string admin = s->server->bootstrap_secret();
    auto channel = s->server->InProcessChannel();
    auto players = v1::PlayerRegistry::NewStub(channel);
    v1::RegisterPlayerRequest reg;
    reg.set_name("张三");
    reg.set_gender(v1::GENDER_MALE);
    reg.mutable_birth_date()->set_year(1990);
    reg.mutable_birth_date()->set_month(5);
    reg.mutable_birth_date()->set_day(1);
    reg.set_agency_prefix("000");
    reg.mutable_initial_rank()->set_notation("1k");
    v1::RegisterPlayerResponse player;
    if (!players->RegisterPlayer(AdminContext(admin).get(), reg, &player).ok())
      std::abort();
    auto certs = v1::CertificateService::NewStub(channel);
    v1::IssueCertificateRequest issue;
    issue.set_player_id(player.player().id());
    issue.mutable_grade()->set_notation("1d");
    issue.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
    issue.set_basis_reference("benchmark");
    issue.set_agency_prefix("000");
    v1::IssueCertificateResponse issued;
    if (!certs->IssueCertificate(AdminContext(admin).get(), issue, &issued)
             .ok())
      std::abort();
    s->number = issued.certificate().number();
    return s;
  }();
  return *served;
}

void Fetch(benchmark::State& state, const std::string& path) {
  Served& s = Server();
  httplib::Client client("127.0.0.1", s.server->http_port());
  client.set_keep_alive(true);
  for (auto _ : state) {
    auto r = client.Get(path.c_str());
    if (!r || r->status != 200) {
      state.SkipWithError("request failed");
      break;
    }
    benchmark::DoNotOptimize(r->body.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_VerifyJson(benchmark::State& state) {
  Fetch(state, "/api/v1/verify?number=" + Server().number +
                   "&name=%E5%BC%A0%E4%B8%89");
}
BENCHMARK(BM_VerifyJson)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();

void BM_VerifyPage(benchmark::State& state) {
  Fetch(state,
        "/verify?number=" + Server().number + "&name=%E5%BC%A0%E4%B8%89");
}
BENCHMARK(BM_VerifyPage)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace gorank

BENCHMARK_MAIN();
