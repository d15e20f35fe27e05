#include "tests/pg/multi_instance_fixture.h"

#include <fstream>

#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"

namespace gorank::pg_test {

namespace hv1 = grpc::health::v1;

MultiInstanceFixture::MultiInstanceFixture()
    : token_file_(dir_.File("admin.token")),
      config_file_(dir_.File("rankd.toml")) {
  WriteConfig(200);
}

void MultiInstanceFixture::WriteConfig(int health_probe_ms) {
  std::ofstream(config_file_)
      << "audit_key_file = \"" << dir_.File("audit_ed25519.pem") << "\"\n"
      << "health_probe_ms = " << health_probe_ms << "\n";
}

int PrivateServer::Do(const std::string& action, const std::string& arg) {
  std::vector<std::string> argv = {"/bin/bash", PG_SERVER_SCRIPT, action, dir_};
  if (!arg.empty()) argv.push_back(arg);
  const testing::RunResult r = testing::RunProgram(
      argv, scratch_ + "." + action + std::to_string(++calls_));
  output_ = r.out + r.err;
  return r.exit_code;
}

std::string PrivateServer::Url() const {
  std::string url = testing::ReadFile(dir_ + "/url");
  while (!url.empty() && url.back() == '\n') url.pop_back();
  return url;
}

void MultiInstanceFixture::Start(Instance& inst, const std::string& url,
                                 const std::vector<std::string>& flags) {
  inst.log = dir_.File(inst.name + "." + std::to_string(++starts_) + ".log");
  inst.child = std::make_unique<testing::RankdProcess>();
  testing::RankdOptions options;
  options.db = url;
  options.flags = {"--admin-token-file", token_file_, "--config", config_file_};
  options.flags.insert(options.flags.end(), flags.begin(), flags.end());
  options.log_path = inst.log;
  const std::string error = inst.child->Start(RANKD_PATH, options);
  ASSERT_EQ(error, "") << inst.name;
  const int port = inst.child->port();
  ASSERT_GT(port, 0) << "rankd " << inst.name << " never logged its port:\n"
                     << testing::ReadFile(inst.log);
  inst.address = "127.0.0.1:" + std::to_string(port);
  inst.channel =
      grpc::CreateChannel(inst.address, grpc::InsecureChannelCredentials());
  inst.players = v1::PlayerRegistry::NewStub(inst.channel);
  inst.certs = v1::CertificateService::NewStub(inst.channel);
  inst.health = hv1::Health::NewStub(inst.channel);
  ASSERT_TRUE(PollUntil(
      [&] { return Health(inst) == hv1::HealthCheckResponse::SERVING; },
      std::chrono::seconds(30)))
      << "rankd " << inst.name << " does not serve:\n"
      << testing::ReadFile(inst.log);
  if (admin_.empty()) {
    admin_ = testing::ReadFile(token_file_);
    while (!admin_.empty() && (admin_.back() == '\n' || admin_.back() == '\r'))
      admin_.pop_back();
    ASSERT_EQ(admin_.rfind("rkd_", 0), 0u) << "no admin token written";
  }
}

hv1::HealthCheckResponse::ServingStatus MultiInstanceFixture::Health(
    Instance& inst) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  hv1::HealthCheckResponse resp;
  if (!inst.health->Check(&ctx, hv1::HealthCheckRequest(), &resp).ok())
    return hv1::HealthCheckResponse::UNKNOWN;
  return resp.status();
}

std::unique_ptr<grpc::ClientContext> MultiInstanceFixture::Context(
    bool admin, std::chrono::milliseconds deadline) const {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (admin) ctx->AddMetadata("authorization", "Bearer " + admin_);
  ctx->set_deadline(std::chrono::system_clock::now() + deadline);
  return ctx;
}

testing::RunResult MultiInstanceFixture::Ctl(
    const Instance& inst, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {RANKCTL_PATH, "--server", inst.address,
                                   "--token-file", token_file_};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::RunProgram(argv,
                             dir_.File("rankctl" + std::to_string(++calls_)));
}

grpc::Status MultiInstanceFixture::Register(Instance& inst,
                                            const std::string& name,
                                            const std::string& rank,
                                            v1::Player* out) {
  v1::RegisterPlayerRequest req;
  req.set_name(name);
  req.set_gender(v1::GENDER_FEMALE);
  req.mutable_birth_date()->set_year(1990);
  req.mutable_birth_date()->set_month(5);
  req.mutable_birth_date()->set_day(1);
  req.set_agency_prefix("000");
  req.mutable_initial_rank()->set_notation(rank);
  v1::RegisterPlayerResponse resp;
  const grpc::Status s =
      inst.players->RegisterPlayer(Context().get(), req, &resp);
  if (s.ok()) *out = resp.player();
  return s;
}

grpc::Status MultiInstanceFixture::Issue(Instance& inst, int64_t player_id,
                                         const std::string& grade,
                                         const std::string& request_id,
                                         v1::Certificate* out) {
  v1::IssueCertificateRequest req;
  req.set_request_id(request_id);
  req.set_player_id(player_id);
  req.mutable_grade()->set_notation(grade);
  req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  req.set_basis_reference("national championship, multi-instance test");
  req.set_agency_prefix("000");
  v1::IssueCertificateResponse resp;
  const grpc::Status s =
      inst.certs->IssueCertificate(Context().get(), req, &resp);
  if (s.ok()) *out = resp.certificate();
  return s;
}

grpc::Status MultiInstanceFixture::ListNational(
    Instance& inst, int year, std::vector<v1::Certificate>* out) {
  out->clear();
  std::string page;
  do {
    v1::ListCertificatesRequest req;
    req.set_agency_prefix("000");
    req.set_year(year);
    req.set_page_token(page);
    req.set_page_size(1000);
    v1::ListCertificatesResponse resp;
    const grpc::Status s =
        inst.certs->ListCertificates(Context().get(), req, &resp);
    if (!s.ok()) return s;
    out->insert(out->end(), resp.certificates().begin(),
                resp.certificates().end());
    page = resp.next_page_token();
  } while (!page.empty());
  return grpc::Status::OK;
}

}  // namespace gorank::pg_test
