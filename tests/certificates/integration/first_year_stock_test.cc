// The stock gate's first-year rule through a real gRPC channel to an
// in-process rankd: no annual review is demanded of a year before the
// installation (rankd's first start, here 2025-12-10), so the installation
// year's stock is released without one; the year after needs the review of
// the installation year as before.
#include <string>

#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

class FirstYearStockTest : public GrpcFixture {
 protected:
  grpc::Status Order(const std::string& agency, int year, int quantity) {
    v1::OrderStockRequest req;
    req.set_agency_prefix(agency);
    req.set_year(year);
    req.set_quantity(quantity);
    v1::OrderStockResponse resp;
    return certs_->OrderStock(Context(admin_).get(), req, &resp);
  }
  grpc::Status Release(const std::string& agency, int year) {
    v1::ReleaseStockRequest req;
    req.set_agency_prefix(agency);
    req.set_year(year);
    v1::ReleaseStockResponse resp;
    return certs_->ReleaseStock(Context(admin_).get(), req, &resp);
  }
  v1::StockOrder Stock(const std::string& agency, int year) {
    v1::GetStockRequest req;
    req.set_agency_prefix(agency);
    req.set_year(year);
    v1::GetStockResponse resp;
    const grpc::Status s = certs_->GetStock(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.order();
  }
};

TEST_F(FirstYearStockTest, TheInstallationYearsStockIsReleasedWithoutAReview) {
  ASSERT_TRUE(Order("110", 2025, 20).ok());
  const grpc::Status released = Release("110", 2025);
  ASSERT_TRUE(released.ok()) << released.error_message();
  EXPECT_NE(Stock("110", 2025).released_unix(), 0);

  // The agency's operator issues against it at once.
  const std::string operator_token =
      MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
  const v1::Player holder = MustRegister("李四", "110", "1k");
  v1::Certificate cert;
  const grpc::Status issued =
      Issue(operator_token, IssueRequest(holder.id(), "1d", "110"), &cert);
  ASSERT_TRUE(issued.ok()) << issued.error_message();
  EXPECT_EQ(cert.number(), "110250001");
  EXPECT_EQ(Stock("110", 2025).used(), 1);

  // A year before the installation needs no review either.
  ASSERT_TRUE(Order("120", 2024, 5).ok());
  EXPECT_TRUE(Release("120", 2024).ok());
}

TEST_F(FirstYearStockTest,
       TheYearAfterTheInstallationNeedsTheReviewOfTheInstallationYear) {
  ASSERT_TRUE(Order("110", 2026, 20).ok());
  grpc::Status s = Release("110", 2026);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find(
                "rule: stock for 2026 is released only after agency 110 "
                "passed the annual review of 2025; no review is recorded"),
            std::string::npos)
      << s.error_message();
  EXPECT_EQ(Stock("110", 2026).released_unix(), 0);

  // Later on the clock the installation year stays 2025.
  clock_.SetDate(Date{2026, 3, 1});
  s = Release("110", 2026);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << s.error_message();
  EXPECT_EQ(Stock("110", 2026).released_unix(), 0);

  // With the review of 2025 passed it is released.
  MustGiveStock("130", 2026, 10);
  EXPECT_NE(Stock("130", 2026).released_unix(), 0);
}

}  // namespace
}  // namespace gorank::certificates
