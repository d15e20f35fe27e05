// GetAnnualReport and GetNationalSummary through real gRPC: agency 110's
// 2024 (clock 2024-06-01) with two certificates issued within a released
// stock of 2, one revoked, and a third written straight into the table with
// a skipped serial in February — the report lists each anomaly once; the
// national body's 5d shows its notice outcome before and after the notice.
#include <cstdio>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/checkpoint.h"
#include "services/audit/signing_key.h"
#include "services/registry/rank.h"
#include "storage/database.h"
#include "tests/audit/audit_grpc_fixture.h"

namespace gorank::audit {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

class AnnualReportServiceTest : public AuditGrpcTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(OrderStock("110", 2024, 2).ok());
    const int64_t size = Checkpoint().checkpoint().tree_size();
    ASSERT_TRUE(
        RecordReview(s_.auditor, "110", 2023, v1::REVIEW_OUTCOME_PASS, size)
            .ok());
    ASSERT_TRUE(ReleaseStock("110", 2024).ok());
    p1_ = Register("赵一");
    p2_ = Register("赵二");
    ASSERT_EQ(Issue(s_.op110, p1_, "1d", "110"), "110240001");
    ASSERT_EQ(Issue(s_.op110, p2_, "2k", "110"), "110240002");
    v1::RevokeCertificateRequest rv;
    rv.set_number("110240001");
    rv.set_reason("result annulled by the referee");
    v1::RevokeCertificateResponse rv_resp;
    ASSERT_TRUE(
        certs_->RevokeCertificate(Server::Context(s_.op110).get(), rv, &rv_resp)
            .ok());
    // Serial 5 in February, written behind the server (serials 3, 4 skipped).
    const std::string sql =
        "INSERT INTO certificates(number, prefix, year, serial, player_id, "
        "grade_ordinal, "
        "issue_date, basis, basis_reference, issued_by, issued_unix) "
        "VALUES('110240005', "
        "'110', 2024, 5, " +
        std::to_string(p2_) + ", " +
        std::to_string(registry::Rank::FromString("3k").Ordinal()) +
        ", '2024-02-10', 1, 'unrecorded event', 'agency:110/token:2', " +
        std::to_string(ShanghaiMidnight(Date{2024, 2, 10})) + ")";
    ASSERT_TRUE(s_.server()
                    ->database()
                    ->Write([&](storage::Connection& c) { return c.Exec(sql); })
                    .ok());
  }

  grpc::Status Report(const std::string& token, const std::string& prefix,
                      int year, v1::GetAnnualReportResponse* resp) {
    v1::GetAnnualReportRequest req;
    req.set_agency_prefix(prefix);
    req.set_year(year);
    return audit_->GetAnnualReport(Server::Context(token).get(), req, resp);
  }

  int64_t p1_ = 0, p2_ = 0;
};

TEST_F(AnnualReportServiceTest, EachAnomalyOfTheYearAppearsOnce) {
  v1::GetAnnualReportResponse resp;
  grpc::Status s = Report(s_.auditor, "110", 2024, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const v1::AnnualReport& r = resp.report();
  EXPECT_EQ(r.agency_prefix(), "110");
  EXPECT_FALSE(r.agency_name().empty());
  EXPECT_EQ(r.issued(), 3);
  EXPECT_THAT(r.by_grade(), UnorderedElementsAre(Pair("1d", 1), Pair("2k", 1),
                                                 Pair("3k", 1)));
  EXPECT_THAT(r.by_basis(), UnorderedElementsAre(Pair("tournament", 3)));
  EXPECT_EQ(r.max_serial(), 5);
  EXPECT_THAT(r.missing_serials(), ElementsAre(3, 4));
  EXPECT_TRUE(r.duplicate_serials().empty());
  EXPECT_EQ(r.stock_ordered(), 2);
  EXPECT_TRUE(r.stock_released());
  EXPECT_EQ(r.stock_used(), 3);
  EXPECT_TRUE(r.stock_exceeded());
  ASSERT_EQ(r.revocations_size(), 1);
  EXPECT_EQ(r.revocations(0).number(), "110240001");
  EXPECT_EQ(r.revocations(0).grade(), "1d");
  EXPECT_EQ(r.revocations(0).detail(), "result annulled by the referee");
  EXPECT_TRUE(r.high_grades().empty());
  EXPECT_TRUE(r.incomplete_holders().empty());
  EXPECT_TRUE(r.appraisals().empty());
  // Up to June: issued in February and June.
  EXPECT_THAT(r.inactive_months(), ElementsAre(1, 3, 4, 5));
  EXPECT_EQ(r.anomalies(), 2 + 1 + 1 + 4);

  // The report carries the checkpoint it was made at, signed.
  const v1::Checkpoint& cp = resp.checkpoint();
  const v1::GetCheckpointResponse now = Checkpoint();
  EXPECT_EQ(cp.tree_size(), now.checkpoint().tree_size());
  auto key = VerifyingKey::FromRaw(now.public_key()).value();
  EXPECT_TRUE(
      VerifyCheckpoint(audit::Checkpoint::FromJson(cp.json()).value(), key).ok);

  // Every anomaly is listed with its record, not only counted.
  ASSERT_EQ(r.anomaly_list_size(), r.anomalies());
  std::vector<std::string> listed;
  for (const auto& a : r.anomaly_list())
    listed.push_back(a.number() + "|" + a.detail());
  EXPECT_THAT(listed, ::testing::Contains(
                          ::testing::StartsWith("110240003|serial missing")));
  EXPECT_THAT(listed, ::testing::Contains(
                          ::testing::StartsWith("110240004|serial missing")));
  EXPECT_THAT(listed,
              ::testing::Contains("|stock exceeded: 3 issued, 2 released"));
  EXPECT_THAT(listed, ::testing::Contains(
                          "110240001|revoked: result annulled by the referee"));
  EXPECT_THAT(listed, ::testing::Contains("|no certificate issued in 2024-05"));

  // The agency itself sees the same report.
  v1::GetAnnualReportResponse own;
  ASSERT_TRUE(Report(s_.op110, "110", 2024, &own).ok());
  EXPECT_EQ(own.report().anomalies(), r.anomalies());
}

TEST_F(AnnualReportServiceTest, RefusalsHavePreciseCodes) {
  v1::GetAnnualReportResponse resp;
  EXPECT_EQ(Report(s_.op130, "110", 2024, &resp).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Report("", "110", 2024, &resp).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Report(s_.auditor, "999", 2024, &resp).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Report(s_.auditor, "110", 1999, &resp).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(AnnualReportServiceTest, TheNationalSummaryHoldsEveryAgency) {
  v1::GetNationalSummaryRequest req;
  req.set_year(2024);
  v1::GetNationalSummaryResponse resp;
  ASSERT_TRUE(
      audit_->GetNationalSummary(Server::Context(s_.admin).get(), req, &resp)
          .ok());
  int seen_110 = 0;
  for (const v1::AnnualReport& r : resp.reports()) {
    if (r.agency_prefix() != "110") continue;
    ++seen_110;
    EXPECT_EQ(r.issued(), 3);
    EXPECT_EQ(r.anomalies(), 8);
  }
  EXPECT_EQ(seen_110, 1);
  EXPECT_GT(resp.reports_size(), 30);  // the shipped region table
  EXPECT_EQ(resp.checkpoint().tree_size(),
            Checkpoint().checkpoint().tree_size());
}

TEST_F(AnnualReportServiceTest, HighGradesShowTheirNoticeOutcome) {
  const std::string number = Issue(s_.admin, p1_, "5d", "000");
  ASSERT_EQ(number, "000240001");
  v1::GetAnnualReportResponse during;
  ASSERT_TRUE(Report(s_.auditor, "000", 2024, &during).ok());
  ASSERT_EQ(during.report().high_grades_size(), 1);
  EXPECT_EQ(during.report().high_grades(0).number(), number);
  EXPECT_EQ(during.report().high_grades(0).grade(), "5d");
  EXPECT_EQ(during.report().high_grades(0).detail(), "under notice");
  EXPECT_FALSE(
      during.report().stock_exceeded());  // the national body needs no stock

  s_.clock().Advance(8 * 86400);  // the 7-day notice ends without objection
  v1::GetAnnualReportResponse after;
  ASSERT_TRUE(Report(s_.auditor, "000", 2024, &after).ok());
  ASSERT_EQ(after.report().high_grades_size(), 1);
  EXPECT_EQ(after.report().high_grades(0).detail(), "notice ended, effective");
}

TEST_F(AnnualReportServiceTest, AnEmptyYearNamesEachOfItsAnomalies) {
  v1::GetAnnualReportResponse resp;
  ASSERT_TRUE(Report(s_.auditor, "110", 2023, &resp).ok());
  const v1::AnnualReport& r = resp.report();
  EXPECT_EQ(r.issued(), 0);
  EXPECT_EQ(r.max_serial(), 0);
  EXPECT_EQ(r.anomalies(), 12);  // a whole past year without issuance
  ASSERT_EQ(r.anomaly_list_size(), 12);
  for (int m = 1; m <= 12; ++m) {
    char month[8];
    std::snprintf(month, sizeof month, "%02d", m);
    EXPECT_EQ(r.anomaly_list(m - 1).detail(),
              std::string("no certificate issued in 2023-") + month);
  }
}

TEST_F(AnnualReportServiceTest,
       GomokuAndHonoraryCertificatesAreReportedAsWhatTheyAre) {
  // A Go 8d honorary award: no public notice.
  v1::IssueCertificateRequest honorary;
  honorary.set_player_id(p1_);
  honorary.mutable_grade()->set_notation("8d");
  honorary.set_basis(v1::CERTIFICATE_BASIS_HONORARY_AWARD);
  honorary.set_basis_reference("lifetime service to Go");
  honorary.set_agency_prefix("000");
  v1::IssueCertificateResponse issued;
  grpc::Status s = certs_->IssueCertificate(Server::Context(s_.admin).get(),
                                            honorary, &issued);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // A Gomoku 2d: not a Go 4d+, whatever its place in the rank order.
  v1::IssueCertificateRequest gomoku;
  gomoku.set_player_id(p2_);
  gomoku.mutable_grade()->set_notation("2d");
  gomoku.mutable_grade()->set_discipline(v1::DISCIPLINE_GOMOKU);
  gomoku.set_discipline(v1::DISCIPLINE_GOMOKU);
  gomoku.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  gomoku.set_basis_reference("national gomoku open, 1st");
  gomoku.set_agency_prefix("000");
  s = certs_->IssueCertificate(Server::Context(s_.admin).get(), gomoku,
                               &issued);
  ASSERT_TRUE(s.ok()) << s.error_message();

  v1::GetAnnualReportResponse resp;
  ASSERT_TRUE(Report(s_.auditor, "000", 2024, &resp).ok());
  const v1::AnnualReport& r = resp.report();
  ASSERT_EQ(r.high_grades_size(), 1);  // the Gomoku 2d used to be listed too
  EXPECT_EQ(r.high_grades(0).grade(), "8d");
  EXPECT_EQ(r.high_grades(0).detail(),
            "effective (honorary award: no public notice)");
  EXPECT_THAT(r.by_grade(),
              UnorderedElementsAre(Pair("8d", 1), Pair("gomoku 2d", 1)));
}

}  // namespace
}  // namespace gorank::audit
