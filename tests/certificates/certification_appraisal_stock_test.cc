// Appraisals (the holder must be 18 on the approval date) and certificate
// stock (ordered 1..31 December for the next year, released by the national
// body, never amended once released).
#include <string>

#include "tests/certificates/certification_fixture.h"

namespace gorank::certificates {
namespace {

class AppraisalTest : public CertificationFixture {};

TEST_F(AppraisalTest, ApprovalNeedsTheHolderToBeEighteenOnTheApprovalDate) {
  GiveStock("110", 2025, 10);
  // 18 on 2025-06-03; the clock stands at 2025-06-02.
  const auto p = MustRegister("小明", "110", R("1d"), true, Date{2007, 6, 3});
  auto a =
      office_->RecommendAppraisal(op110_, p.id, R("2d"), "strong club player");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->state, AppraisalState::kPending);

  auto early =
      office_->DecideAppraisal(national_, a->id, /*approve=*/true, "approved");
  EXPECT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition)
      << early.status();
  EXPECT_NE(early.status().message().find("17"), std::string::npos)
      << early.status();
  EXPECT_EQ(LastSerial("110", 2025), 0);
  auto still = cert_repo_->GetAppraisal(a->id);
  ASSERT_TRUE(still.ok());
  EXPECT_EQ(still->state, AppraisalState::kPending);

  clock_.SetDate(Date{2025, 6, 3});
  auto approved = office_->DecideAppraisal(national_, a->id, true, "approved");
  ASSERT_TRUE(approved.ok()) << approved.status();
  EXPECT_EQ(approved->state, AppraisalState::kApproved);
  EXPECT_EQ(approved->certificate_number, "110250001");
  auto c = office_->Get(national_, approved->certificate_number);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->basis, Basis::kAppraisal);
  EXPECT_EQ(c->grade, R("2d"));
  EXPECT_EQ(RankOf(p.id), R("2d"));
  EXPECT_EQ(History(p.id).back().reason,
            registry::RankChangeReason::kAppraisal);
  auto stored = cert_repo_->GetAppraisal(a->id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->state, AppraisalState::kApproved);
  EXPECT_EQ(stored->certificate_number, "110250001");
  EXPECT_EQ(
      office_->DecideAppraisal(national_, a->id, true, "again").status().code(),
      absl::StatusCode::kFailedPrecondition);
}

TEST_F(AppraisalTest, FourDanAndAboveAreIssuedByTheNationalBodyUnderNotice) {
  const auto p = MustRegister("老李", "110", R("3d"));
  auto a = office_->RecommendAppraisal(op110_, p.id, R("4d"), "");
  ASSERT_TRUE(a.ok()) << a.status();
  auto approved = office_->DecideAppraisal(national_, a->id, true, "ok");
  ASSERT_TRUE(approved.ok()) << approved.status();
  EXPECT_EQ(approved->certificate_number, "000250001");
  auto c = office_->Get(national_, approved->certificate_number);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->basis, Basis::kAppraisal);
  EXPECT_EQ(office_->StateOf(*c), CertificateState::kUnderNotice);
  EXPECT_EQ(RankOf(p.id), R("3d"));
}

TEST_F(AppraisalTest, RecommendationRules) {
  const auto p110 = MustRegister("张三", "110", R("1d"));
  const auto p120 = MustRegister("李四", "120", R("1d"));
  EXPECT_EQ(
      office_->RecommendAppraisal(op110_, p120.id, R("2d"), "").status().code(),
      absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(
      office_->RecommendAppraisal(op110_, p110.id, R("8d"), "").status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      office_->RecommendAppraisal(op110_, p110.id, R("1d"), "").status().code(),
      absl::StatusCode::kFailedPrecondition);
  auto a = office_->RecommendAppraisal(op110_, p110.id, R("2d"), "");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(
      office_->RecommendAppraisal(op110_, p110.id, R("3d"), "").status().code(),
      absl::StatusCode::kAlreadyExists);
  auto rejected =
      office_->DecideAppraisal(national_, a->id, false, "not enough evidence");
  ASSERT_TRUE(rejected.ok()) << rejected.status();
  EXPECT_EQ(rejected->state, AppraisalState::kRejected);
  EXPECT_EQ(RankOf(p110.id), R("1d"));
  auto pending = office_->ListAppraisals(op110_, "110", /*pending_only=*/true);
  ASSERT_TRUE(pending.ok());
  EXPECT_TRUE(pending->rows.empty());
}

TEST_F(AppraisalTest, AppraisalCertificatesAreNotIssuedDirectly) {
  GiveStock("110", 2025, 10);
  const auto p = MustRegister("小红", "110", R("1d"));
  IssueRequest r = Request(p, "2d");
  r.basis = Basis::kAppraisal;
  for (const auth::Caller& caller : {national_, op110_}) {
    auto issued = office_->Issue(caller, r);
    EXPECT_EQ(issued.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(issued.status().message().find("DecideAppraisal"),
              std::string::npos)
        << issued.status();
  }
  EXPECT_EQ(LastSerial("110", 2025), 0);
  EXPECT_EQ(RankOf(p.id), R("1d"));
}

TEST_F(AppraisalTest, AnAgencyListsOnlyItsOwnAppraisals) {
  const auto p110 = MustRegister("张三", "110", R("1d"));
  const auto p120 = MustRegister("李四", "120", R("1d"));
  ASSERT_TRUE(office_->RecommendAppraisal(op110_, p110.id, R("2d"), "").ok());
  ASSERT_TRUE(office_->RecommendAppraisal(op120_, p120.id, R("2d"), "").ok());
  auto holders = [](const Page<Appraisal>& page) {
    std::vector<int64_t> out;
    for (const Appraisal& a : page.rows) out.push_back(a.player_id.value);
    return out;
  };
  // "" is the operator's own agency.
  auto own = office_->ListAppraisals(op110_, "", false);
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(holders(*own), std::vector<int64_t>{p110.id.value});
  EXPECT_EQ(holders(*office_->ListAppraisals(op110_, "110", true)),
            std::vector<int64_t>{p110.id.value});
  EXPECT_EQ(office_->ListAppraisals(op110_, "120", false).status().code(),
            absl::StatusCode::kPermissionDenied);
  // The national admin and auditors: "" is every agency.
  EXPECT_EQ(holders(*office_->ListAppraisals(national_, "", false)),
            (std::vector<int64_t>{p110.id.value, p120.id.value}));
  EXPECT_EQ(holders(*office_->ListAppraisals(auditor_, "120", false)),
            std::vector<int64_t>{p120.id.value});
}

class StockTest : public CertificationFixture {
 protected:
  absl::Status OrderAt(int64_t unix, int quantity,
                       const auth::Caller* caller = nullptr) {
    clock_.Set(unix);
    return office_->OrderStock(caller ? *caller : op110_, "110", 2026, quantity)
        .status();
  }
};

TEST_F(StockTest, OperatorsOrderFromTheFirstToTheThirtyFirstOfDecember) {
  const int64_t dec1 = ShanghaiMidnight(Date{2025, 12, 1});
  const int64_t jan1 = ShanghaiMidnight(Date{2026, 1, 1});
  EXPECT_EQ(OrderAt(dec1 - 1, 100).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(OrderAt(ShanghaiMidnight(Date{2025, 11, 30}) + 43200, 100).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(OrderAt(dec1, 100).ok());
  EXPECT_TRUE(OrderAt(jan1 - 1, 150).ok()) << "amending inside the window";
  const absl::Status late = OrderAt(jan1, 200);
  EXPECT_EQ(late.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(late.message().find("2025-12-01"), std::string::npos) << late;
  auto order = office_->GetStock(op110_, "110", 2026);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order->quantity, 150);
  EXPECT_EQ(order->released_unix, 0);
}

TEST_F(StockTest, AReleasedOrderCannotBeAmended) {
  ASSERT_TRUE(OrderAt(ShanghaiMidnight(Date{2025, 12, 5}), 100).ok());
  clock_.SetDate(Date{2025, 12, 10});
  auto released = office_->ReleaseStock(national_, "110", 2026);
  ASSERT_TRUE(released.ok()) << released.status();
  EXPECT_EQ(released->released_unix, clock_.NowSeconds());
  EXPECT_EQ(office_->ReleaseStock(national_, "110", 2026).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(OrderAt(ShanghaiMidnight(Date{2025, 12, 15}), 120).code(),
            absl::StatusCode::kFailedPrecondition);
  auto order = office_->GetStock(op110_, "110", 2026);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order->quantity, 100);
}

TEST_F(StockTest, TheNationalAdminOrdersAtAnyTimeAndReleaseHasAPrecondition) {
  EXPECT_TRUE(OrderAt(ShanghaiMidnight(Date{2025, 6, 2}), 30, &national_).ok());
  office_->SetReleasePrecondition([](const std::string& prefix, int year) {
    return absl::FailedPreconditionError(
        "agency " + prefix + " has not passed the " + std::to_string(year - 1) +
        " annual review");
  });
  const absl::Status s = office_->ReleaseStock(national_, "110", 2026).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("annual review"), std::string::npos);
  EXPECT_EQ(office_->ReleaseStock(national_, "120", 2026).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(StockTest, OrderRules) {
  clock_.SetDate(Date{2025, 12, 5});
  EXPECT_EQ(office_->OrderStock(op110_, "120", 2026, 10).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(office_->OrderStock(op110_, "110", 2026, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(office_->OrderStock(op110_, "110", 2026, 10000).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(office_->OrderStock(national_, "000", 2026, 10).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(registry_
                  ->SetAgencyStatus(national_, "110",
                                    registry::AgencyStatus::kSuspended,
                                    "fraud under investigation")
                  .ok());
  EXPECT_EQ(office_->OrderStock(op110_, "110", 2026, 10).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(office_->GetStock(op110_, "110", 2026).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace gorank::certificates
