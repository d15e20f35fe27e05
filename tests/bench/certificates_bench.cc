// Certificate issuance and verification.
//
//   BM_IssueDomain    Certification::Issue over the SQLite repositories on a
//                     temp database file: WAL, synchronous=FULL, one durable
//                     transaction (serial, row, audit entry) per certificate.
//   BM_VerifyDomain   Certification::Verify of a known number and name.
//   BM_IssueGrpc      IssueCertificate through gRPC to an in-process
//                     RankdServer (InProcessChannel: no TCP), same storage.
//   BM_VerifyGrpc     VerifyCertificate the same way (public, no token;
//                     rate limits off).
//
// Run: build-*/tests/certificates/certificates_bench
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "services/certificates/certification.h"
#include "services/common/clock.h"
#include "services/registry/player_registry.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/temp_dir.h"

namespace gorank::certificates {
namespace {

const auth::Caller kNational{auth::Role::kNationalAdmin, "", 1};

// One database for the domain benchmarks, created on first use.
struct DomainEnv {
  DomainEnv() {
    clock.SetDate(Date{2030, 6, 1});
    db = *storage::Database::Open(dir.File("bench.db"));
    registry_repo = std::make_unique<storage::SqlRegistryRepository>(db.get());
    cert_repo = std::make_unique<storage::SqlCertificateRepository>(db.get());
    registry =
        std::make_unique<registry::PlayerRegistry>(registry_repo.get(), &clock);
    office = std::make_unique<Certification>(cert_repo.get(),
                                             registry_repo.get(), &clock);
    registry::PlayerDraft d;
    d.name = "基准";
    d.agency_prefix = "000";
    d.initial_rank = registry::Rank::FromString("5k");
    player = registry->Register(kNational, d)->id;
  }

  // Issues one 5k certificate under 000; moves to the next year after 9999.
  absl::StatusOr<Certificate> IssueOne() {
    IssueRequest r;
    r.player_id = player;
    r.grade = registry::Rank::FromString("5k");
    r.basis_reference = "benchmark";
    auto c = office->Issue(kNational, r);
    if (c.ok() && c->number.serial == kMaxSerial) {
      clock.SetDate(Date{clock.Today().year + 1, 6, 1});
    }
    return c;
  }

  testing::TempDir dir;
  FakeClock clock;
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<storage::SqlRegistryRepository> registry_repo;
  std::unique_ptr<storage::SqlCertificateRepository> cert_repo;
  std::unique_ptr<registry::PlayerRegistry> registry;
  std::unique_ptr<Certification> office;
  registry::PlayerId player;
};

DomainEnv& Domain() {
  static DomainEnv* env = new DomainEnv();
  return *env;
}

void BM_IssueDomain(benchmark::State& state) {
  DomainEnv& env = Domain();
  for (auto _ : state) {
    auto c = env.IssueOne();
    if (!c.ok()) state.SkipWithError(std::string(c.status().message()).c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IssueDomain)->UseRealTime();

void BM_VerifyDomain(benchmark::State& state) {
  DomainEnv& env = Domain();
  std::vector<std::string> numbers;
  for (int i = 0; i < 200; ++i)
    numbers.push_back(env.IssueOne()->number.ToString());
  size_t i = 0;
  for (auto _ : state) {
    auto r = env.office->Verify(numbers[i++ % numbers.size()], "基准");
    if (!r.ok() || r->outcome != VerifyOutcome::kValid)
      state.SkipWithError("not valid");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VerifyDomain)->UseRealTime()->Threads(1)->Threads(2);

// One in-process server for the gRPC benchmarks.
struct GrpcEnv {
  GrpcEnv() {
    spdlog::set_level(spdlog::level::warn);
    clock.SetDate(Date{2030, 6, 1});
    server::ServerConfig config;
    config.db_path = dir.File("bench.db");
    config.listen = "127.0.0.1:0";
    config.public_rate = 0;  // measure the service, not the rate limiter
    config.token_rate = 0;
    server = std::move(*server::RankdServer::Start(config, &clock));
    admin = server->bootstrap_secret();
    auto channel = server->InProcessChannel();
    certs = v1::CertificateService::NewStub(channel);
    auto players = v1::PlayerRegistry::NewStub(channel);
    v1::RegisterPlayerRequest reg;
    reg.set_name("基准");
    reg.set_agency_prefix("000");
    reg.mutable_initial_rank()->set_notation("5k");
    v1::RegisterPlayerResponse resp;
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + admin);
    players->RegisterPlayer(&ctx, reg, &resp);
    player = resp.player().id();
  }

  grpc::Status IssueOne(v1::Certificate* out) {
    v1::IssueCertificateRequest req;
    req.set_player_id(player);
    req.mutable_grade()->set_notation("5k");
    req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
    req.set_basis_reference("benchmark");
    v1::IssueCertificateResponse resp;
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + admin);
    grpc::Status s = certs->IssueCertificate(&ctx, req, &resp);
    *out = resp.certificate();
    if (s.ok() && out->number().substr(5) == "9999") {
      clock.SetDate(Date{clock.Today().year + 1, 6, 1});
    }
    return s;
  }

  testing::TempDir dir;
  FakeClock clock;
  std::unique_ptr<server::RankdServer> server;
  std::string admin;
  std::unique_ptr<v1::CertificateService::Stub> certs;
  int64_t player = 0;
};

GrpcEnv& Grpc() {
  static GrpcEnv* env = new GrpcEnv();
  return *env;
}

void BM_IssueGrpc(benchmark::State& state) {
  GrpcEnv& env = Grpc();
  v1::Certificate c;
  for (auto _ : state) {
    const grpc::Status s = env.IssueOne(&c);
    if (!s.ok()) state.SkipWithError(s.error_message().c_str());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IssueGrpc)->UseRealTime();

void BM_VerifyGrpc(benchmark::State& state) {
  GrpcEnv& env = Grpc();
  std::vector<std::string> numbers;
  v1::Certificate c;
  for (int i = 0; i < 200; ++i) {
    env.IssueOne(&c);
    numbers.push_back(c.number());
  }
  size_t i = 0;
  for (auto _ : state) {
    v1::VerifyCertificateRequest req;
    req.set_number(numbers[i++ % numbers.size()]);
    req.set_holder_name("基准");
    v1::VerifyCertificateResponse resp;
    grpc::ClientContext ctx;
    const grpc::Status s = env.certs->VerifyCertificate(&ctx, req, &resp);
    if (!s.ok() || resp.outcome() != v1::VERIFY_OUTCOME_VALID)
      state.SkipWithError("not valid");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VerifyGrpc)->UseRealTime()->Threads(1)->Threads(2);

}  // namespace
}  // namespace gorank::certificates

BENCHMARK_MAIN();
