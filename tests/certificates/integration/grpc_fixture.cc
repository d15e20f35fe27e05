#include "tests/certificates/integration/grpc_fixture.h"

#include <chrono>
#include <cstdlib>

namespace gorank::certificates {

namespace {

std::unique_ptr<testing::InProcessServer> StartRankd(
    const std::function<void(server::ServerConfig&)>& adjust) {
  testing::InProcessOptions options;
  options.date = Date{2025, 12, 10};
  options.tokens = false;  // the fixture makes the ones a test needs
  options.shutdown_grace_ms.reset();
  options.reader_connections.reset();
  options.adjust = [adjust](server::ServerConfig& config, const std::string&) {
    // One rankd on the database: the public index answers verify and lookup
    // on PostgreSQL too.
    config.public_index = "on";
    adjust(config);
  };
  return std::make_unique<testing::InProcessServer>(options);
}

}  // namespace

GrpcFixture::GrpcFixture() : GrpcFixture([](server::ServerConfig&) {}) {}

GrpcFixture::GrpcFixture(
    const std::function<void(server::ServerConfig&)>& adjust)
    : rankd_(StartRankd(adjust)),
      clock_(rankd_->clock()),
      server_(rankd_->server()),
      admin_(rankd_->admin) {
  Connect();
}

void GrpcFixture::Restart() {
  certs_.reset();
  players_.reset();
  tokens_.reset();
  audit_.reset();
  channel_.reset();
  const absl::Status restarted = rankd_->Restart();
  if (!restarted.ok()) {
    ADD_FAILURE() << restarted;
    std::abort();
  }
  server_ = rankd_->server();
  Connect();
}

void GrpcFixture::Connect() {
  channel_ = rankd_->channel();
  certs_ = v1::CertificateService::NewStub(channel_);
  players_ = v1::PlayerRegistry::NewStub(channel_);
  tokens_ = v1::TokenService::NewStub(channel_);
  audit_ = v1::AuditService::NewStub(channel_);
}

GrpcFixture::~GrpcFixture() = default;

std::unique_ptr<grpc::ClientContext> GrpcFixture::Context(
    const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(30));
  return ctx;
}

std::string GrpcFixture::MustCreateToken(v1::Role role,
                                         const std::string& agency) {
  v1::CreateTokenRequest req;
  req.set_role(role);
  req.set_agency_prefix(agency);
  req.set_label("test " + agency);
  v1::CreateTokenResponse resp;
  const grpc::Status s =
      tokens_->CreateToken(Context(admin_).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.secret();
}

v1::Player GrpcFixture::MustRegister(const std::string& name,
                                     const std::string& agency,
                                     const std::string& rank,
                                     const std::string& resident_id) {
  v1::RegisterPlayerRequest req;
  req.set_name(name);
  req.set_gender(v1::GENDER_FEMALE);
  if (resident_id.empty()) {
    req.mutable_birth_date()->set_year(1990);
    req.mutable_birth_date()->set_month(5);
    req.mutable_birth_date()->set_day(1);
  }
  req.set_resident_id(resident_id);
  req.set_agency_prefix(agency);
  if (!rank.empty()) req.mutable_initial_rank()->set_notation(rank);
  v1::RegisterPlayerResponse resp;
  const grpc::Status s =
      players_->RegisterPlayer(Context(admin_).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.player();
}

void GrpcFixture::MustGiveStock(const std::string& agency, int year,
                                int quantity) {
  v1::RecordReviewRequest review;
  review.set_agency_prefix(agency);
  review.set_year(year - 1);
  review.set_outcome(v1::REVIEW_OUTCOME_PASS);
  review.set_findings("records complete, no irregular issuance");
  review.set_checkpoint_size(1);
  v1::RecordReviewResponse reviewed;
  if (reviewer_.empty()) reviewer_ = MustCreateToken(v1::ROLE_AUDITOR, "");
  grpc::Status s =
      audit_->RecordReview(Context(reviewer_).get(), review, &reviewed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::OrderStockRequest order;
  order.set_agency_prefix(agency);
  order.set_year(year);
  order.set_quantity(quantity);
  v1::OrderStockResponse ordered;
  s = certs_->OrderStock(Context(admin_).get(), order, &ordered);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::ReleaseStockRequest release;
  release.set_agency_prefix(agency);
  release.set_year(year);
  v1::ReleaseStockResponse released;
  s = certs_->ReleaseStock(Context(admin_).get(), release, &released);
  ASSERT_TRUE(s.ok()) << s.error_message();
}

v1::IssueCertificateRequest GrpcFixture::IssueRequest(
    int64_t player_id, const std::string& grade, const std::string& agency) {
  v1::IssueCertificateRequest req;
  req.set_player_id(player_id);
  req.mutable_grade()->set_notation(grade);
  req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  req.set_basis_reference("2025 provincial championship, 3rd place");
  req.set_agency_prefix(agency);
  return req;
}

grpc::Status GrpcFixture::Issue(const std::string& token,
                                const v1::IssueCertificateRequest& request,
                                v1::Certificate* out) {
  v1::IssueCertificateResponse resp;
  const grpc::Status s =
      certs_->IssueCertificate(Context(token).get(), request, &resp);
  if (s.ok()) *out = resp.certificate();
  return s;
}

}  // namespace gorank::certificates
