// The public answers: Verify (an unknown number and a wrong name look the
// same and cost the same work), LookupRank, and the national-backup export
// with each caller's redaction.
#include <map>
#include <string>

#include "tests/certificates/certification_fixture.h"
#include "tests/certificates/counting_repositories.h"

namespace gorank::certificates {
namespace {

class PublicTest : public CertificationFixture {
 protected:
  void SetUp() override {
    GiveStock("110", 2025, 20);
    registry::PlayerDraft d;
    d.name = "张三";
    d.latin_name = "Zhang San";
    d.gender = registry::Gender::kMale;
    d.resident_id = "11010519491231002X";
    d.agency_prefix = "110";
    d.initial_rank = R("1k");
    auto p = registry_->Register(national_, d);
    ASSERT_TRUE(p.ok()) << p.status();
    holder_ = *p;
    cert_ = MustIssue(op110_, Request(holder_, "2d"));
    number_ = cert_.number.ToString();
  }

  registry::Player holder_;
  Certificate cert_;
  std::string number_;
};

void ExpectNotValid(const absl::StatusOr<VerifyResult>& r) {
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->outcome, VerifyOutcome::kNotValid);
  EXPECT_EQ(r->number, "");
  EXPECT_FALSE(r->grade.has_value());
  EXPECT_FALSE(r->issue_date.has_value());
  EXPECT_EQ(r->agency_prefix, "");
  EXPECT_EQ(r->agency_name, "");
  EXPECT_EQ(r->masked_holder, "");
  EXPECT_EQ(r->notice_until_unix, 0);
}

TEST_F(PublicTest, VerifyShowsTheCertificateWithAMaskedName) {
  for (const char* name : {"张三", "  张三 ", "Zhang San"}) {
    auto r = office_->Verify(number_, name);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->outcome, VerifyOutcome::kValid) << name;
    EXPECT_EQ(r->number, number_);
    EXPECT_EQ(r->grade, R("2d"));
    EXPECT_EQ(r->issue_date, (Date{2025, 6, 2}));
    EXPECT_EQ(r->agency_prefix, "110");
    EXPECT_FALSE(r->agency_name.empty());
    EXPECT_EQ(r->masked_holder, "张*");
  }
  auto spaced = office_->Verify("110 25 0001", "张三");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ(spaced->outcome, VerifyOutcome::kValid);
  EXPECT_EQ(office_->Verify("11025", "张三").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(PublicTest, UnknownNumberAndWrongNameGiveTheSameAnswerAfterTheSameWork) {
  CallCounter counter;
  CountingCertificateRepository certs(cert_repo_.get(), &counter);
  CountingRegistryRepository registry(registry_repo_.get(), &counter);
  Certification office(&certs, &registry, &clock_);
  ASSERT_TRUE(office.SettleDueNotices().ok());  // the first pass may list
  counter.Take();

  const auto unknown = office.Verify("110259999", "张三");
  const std::map<std::string, int> unknown_work = counter.Take();
  const auto wrong_name = office.Verify(number_, "张四");
  const std::map<std::string, int> wrong_name_work = counter.Take();
  const auto empty_name = office.Verify(number_, "");
  const std::map<std::string, int> empty_name_work = counter.Take();

  ExpectNotValid(unknown);
  ExpectNotValid(wrong_name);
  ExpectNotValid(empty_name);
  EXPECT_EQ(unknown_work, wrong_name_work);
  EXPECT_EQ(unknown_work, empty_name_work);
  EXPECT_EQ(unknown_work, (std::map<std::string, int>{{"GetCertificate", 1},
                                                      {"GetPlayer", 1}}));
}

TEST_F(PublicTest, LookupRankShowsRanksAndCertificatesByExactName) {
  const auto other = MustRegister("张三丰", "110", R("5d"));
  const Certificate six = MustIssue(national_, Request(other, "6d", "000"));
  auto found = office_->LookupRank(auth::Caller::Public(), "张三");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 1u) << "exact names only, not prefixes";
  const PublicRankEntry& e = (*found)[0];
  EXPECT_EQ(e.name, "张三");
  EXPECT_EQ(e.latin_name, "Zhang San");
  EXPECT_EQ(e.agency_prefix, "110");
  EXPECT_FALSE(e.region.empty());
  EXPECT_EQ(e.rank, R("2d"));
  ASSERT_EQ(e.effective.size(), 1u);
  EXPECT_EQ(e.effective[0].number, cert_.number);
  EXPECT_TRUE(e.under_notice.empty());

  auto posted = office_->LookupRank(auth::Caller::Public(), "张三丰");
  ASSERT_TRUE(posted.ok());
  ASSERT_EQ(posted->size(), 1u);
  EXPECT_EQ((*posted)[0].rank, R("5d"));
  ASSERT_EQ((*posted)[0].under_notice.size(), 1u);
  EXPECT_EQ((*posted)[0].under_notice[0].number, six.number);
  EXPECT_EQ(office_->LookupRank(auth::Caller::Public(), " ").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(PublicTest, ExportHoldersRedactsForTheCaller) {
  MustIssue(op110_, Request(holder_, "3d"));
  auto national = office_->ExportHolders(national_, "110", 2025);
  ASSERT_TRUE(national.ok()) << national.status();
  ASSERT_EQ(national->size(), 2u);
  EXPECT_EQ((*national)[0].certificate.number, cert_.number);
  EXPECT_EQ((*national)[0].state, CertificateState::kEffective);
  EXPECT_EQ((*national)[0].holder.name, "张三");
  EXPECT_EQ((*national)[0].holder.resident_id, "11010519491231002X");
  EXPECT_EQ((*national)[0].holder.birth_date, (Date{1949, 12, 31}));

  auto own = office_->ExportHolders(op110_, "110", 2025);
  ASSERT_TRUE(own.ok());
  EXPECT_EQ((*own)[1].holder.resident_id, "11010519491231002X");
  auto audit = office_->ExportHolders(auditor_, "110", 2025);
  ASSERT_TRUE(audit.ok());
  ASSERT_EQ(audit->size(), 2u);
  EXPECT_EQ((*audit)[0].holder.resident_id, "");
  EXPECT_EQ((*audit)[0].holder.birth_date, (Date{1949, 12, 31}));

  EXPECT_EQ(office_->ExportHolders(op120_, "110", 2025).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(office_->ExportHolders(national_, "110", 1999).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(office_->ExportHolders(national_, "999", 2025).status().code(),
            absl::StatusCode::kNotFound);
  auto empty = office_->ExportHolders(national_, "110", 2024);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

}  // namespace
}  // namespace gorank::certificates
