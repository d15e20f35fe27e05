// AuditGrpcTest: a real RankdServer (gorank::testing::InProcessServer:
// 127.0.0.1:0, temp database, FakeClock at 2024-06-01 12:00 Asia/Shanghai,
// tokens of every role) with stubs and one-line helpers for the audit service
// tests: registering players, issuing certificates, stock, reviews and
// checkpoints.
#ifndef GORANK_TESTS_AUDIT_AUDIT_GRPC_FIXTURE_H_
#define GORANK_TESTS_AUDIT_AUDIT_GRPC_FIXTURE_H_

#include <memory>
#include <string>

#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_server.h"

namespace gorank::audit {

class AuditGrpcTest : public ::testing::Test {
 protected:
  using Server = gorank::testing::InProcessServer;

  AuditGrpcTest()
      : audit_(v1::AuditService::NewStub(s_.channel())),
        certs_(v1::CertificateService::NewStub(s_.channel())),
        players_(v1::PlayerRegistry::NewStub(s_.channel())) {}

  // A complete holder record (1d+ certificates need one), home agency `agency`.
  int64_t Register(const std::string& name, const std::string& agency = "110",
                   int birth_year = 1990) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_gender(v1::GENDER_MALE);
    req.mutable_birth_date()->set_year(birth_year);
    req.mutable_birth_date()->set_month(3);
    req.mutable_birth_date()->set_day(4);
    req.set_agency_prefix(agency);
    v1::RegisterPlayerResponse resp;
    grpc::Status s =
        players_->RegisterPlayer(Server::Context(s_.admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }

  // Issues `grade` to `player` under `prefix` with `token`; the number, or
  // "" (with a test failure) when refused.
  std::string Issue(const std::string& token, int64_t player,
                    const std::string& grade, const std::string& prefix) {
    v1::IssueCertificateRequest req;
    req.set_player_id(player);
    req.mutable_grade()->set_notation(grade);
    req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
    req.set_basis_reference("city championship, 2nd place");
    req.set_agency_prefix(prefix);
    v1::IssueCertificateResponse resp;
    grpc::Status s =
        certs_->IssueCertificate(Server::Context(token).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.certificate().number();
  }

  grpc::Status OrderStock(const std::string& prefix, int year, int quantity) {
    v1::OrderStockRequest req;
    req.set_agency_prefix(prefix);
    req.set_year(year);
    req.set_quantity(quantity);
    v1::OrderStockResponse resp;
    return certs_->OrderStock(Server::Context(s_.admin).get(), req, &resp);
  }
  grpc::Status ReleaseStock(const std::string& prefix, int year,
                            v1::StockOrder* order = nullptr) {
    v1::ReleaseStockRequest req;
    req.set_agency_prefix(prefix);
    req.set_year(year);
    v1::ReleaseStockResponse resp;
    grpc::Status s =
        certs_->ReleaseStock(Server::Context(s_.admin).get(), req, &resp);
    if (order) *order = resp.order();
    return s;
  }
  grpc::Status RecordReview(const std::string& token, const std::string& prefix,
                            int year, v1::ReviewOutcome outcome,
                            int64_t checkpoint_size,
                            v1::Review* review = nullptr) {
    v1::RecordReviewRequest req;
    req.set_agency_prefix(prefix);
    req.set_year(year);
    req.set_outcome(outcome);
    req.set_findings("serials continuous; holder records checked");
    req.set_checkpoint_size(checkpoint_size);
    v1::RecordReviewResponse resp;
    grpc::Status s =
        audit_->RecordReview(Server::Context(token).get(), req, &resp);
    if (review) *review = resp.review();
    return s;
  }
  // GetCheckpoint as `token` ("" = the public).
  v1::GetCheckpointResponse Checkpoint(const std::string& token = "") {
    v1::GetCheckpointResponse resp;
    grpc::Status s = audit_->GetCheckpoint(Server::Context(token).get(),
                                           v1::GetCheckpointRequest(), &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  Server s_;
  std::unique_ptr<v1::AuditService::Stub> audit_;
  std::unique_ptr<v1::CertificateService::Stub> certs_;
  std::unique_ptr<v1::PlayerRegistry::Stub> players_;
};

}  // namespace gorank::audit

#endif  // GORANK_TESTS_AUDIT_AUDIT_GRPC_FIXTURE_H_
