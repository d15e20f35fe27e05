#include "tests/web/web_fixture.h"

#include <chrono>
#include <cstdlib>

#include "spdlog/spdlog.h"

namespace gorank::web {

WebFixture::~WebFixture() {
  if (server_) server_->Shutdown();
}

void WebFixture::StartServer(double http_rate, double http_burst,
                             double public_rate, double public_burst) {
  testing::InProcessOptions options;
  options.date = Date{2025, 12, 10};
  options.tokens = false;
  options.reader_connections = std::nullopt;
  options.quiet = false;
  options.die_on_error = false;
  options.adjust = [&](server::ServerConfig& config, const std::string&) {
    config.http_listen = "127.0.0.1:0";
    config.http_rate = http_rate;
    config.http_burst = http_burst;
    config.http_max_notices = http_max_notices_;
    if (!public_base_url_.empty()) config.public_base_url = public_base_url_;
    config.public_rate = public_rate;
    config.public_burst = public_burst;
    if (adjust_config_) adjust_config_(config);
  };
  spdlog::set_level(std::getenv("WEB_DEBUG") ? spdlog::level::info
                                             : spdlog::level::warn);
  s_ = std::make_unique<testing::InProcessServer>(options);
  ASSERT_TRUE(s_->status().ok()) << s_->status();
  server_ = s_->server();
  http_port_ = server_->http_port();
  ASSERT_GT(http_port_, 0);
  admin_ = s_->admin;
  channel_ = s_->channel();
  certs_ = v1::CertificateService::NewStub(channel_);
  players_ = v1::PlayerRegistry::NewStub(channel_);
  const v1::Player holder = MustRegister("张三", "1k", kResidentId);
  cert_ = MustIssue(holder.id(), "1d");
  ASSERT_EQ(cert_.number(), "000250001");
}

std::unique_ptr<httplib::Client> WebFixture::WebClient(
    const std::string& source_ip) {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", http_port_);
  client->set_connection_timeout(10);
  client->set_read_timeout(30);
  if (source_ip != "127.0.0.1") client->set_interface(source_ip);
  return client;
}

httplib::Result WebFixture::Get(const std::string& path_and_query) {
  auto client = WebClient();
  httplib::Result r = client->Get(path_and_query.c_str());
  EXPECT_TRUE(r) << "no answer to GET " << path_and_query << ": "
                 << httplib::to_string(r.error());
  return r;
}

std::string WebFixture::FormToken(const std::string& page) {
  const std::string marker = "name=\"form_token\" value=\"";
  const size_t at = page.find(marker);
  if (at == std::string::npos) return "";
  const size_t from = at + marker.size();
  return page.substr(from, page.find('"', from) - from);
}

std::unique_ptr<grpc::ClientContext> WebFixture::Context(
    const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(30));
  return ctx;
}

v1::Player WebFixture::MustRegister(const std::string& name,
                                    const std::string& rank,
                                    const std::string& resident_id) {
  v1::RegisterPlayerRequest req;
  req.set_name(name);
  req.set_gender(v1::GENDER_MALE);
  if (resident_id.empty()) {
    req.mutable_birth_date()->set_year(1990);
    req.mutable_birth_date()->set_month(5);
    req.mutable_birth_date()->set_day(1);
  }
  req.set_resident_id(resident_id);
  req.set_agency_prefix("000");
  req.mutable_initial_rank()->set_notation(rank);
  v1::RegisterPlayerResponse resp;
  const grpc::Status s =
      players_->RegisterPlayer(Context(admin_).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.player();
}

v1::Certificate WebFixture::MustIssue(int64_t player_id,
                                      const std::string& grade) {
  v1::IssueCertificateRequest req;
  req.set_player_id(player_id);
  req.mutable_grade()->set_notation(grade);
  req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  req.set_basis_reference("2025 national championship");
  req.set_agency_prefix("000");
  v1::IssueCertificateResponse resp;
  const grpc::Status s =
      certs_->IssueCertificate(Context(admin_).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.certificate();
}

}  // namespace gorank::web
