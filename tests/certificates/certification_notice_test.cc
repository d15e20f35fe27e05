// Public notice of 4d..7d certificates with a fake clock: the exact second
// the notice ends, the rank change it brings, objections that hold, dismiss
// or revoke, and the list of notices.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/certificates/certification_fixture.h"
#include "tests/certificates/counting_repositories.h"

namespace gorank::certificates {
namespace {

constexpr int64_t kDay = 86400;

class NoticeTest : public CertificationFixture {
 protected:
  void SetUp() override {
    player_ = MustRegister("王五", "110", R("3d"));
    t0_ = clock_.NowSeconds();
    cert_ = MustIssue(national_, Request(player_, "4d", "000"));
    number_ = cert_.number.ToString();
  }

  CertificateState StateNow() {
    auto c = office_->Get(national_, number_);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? office_->StateOf(*c) : CertificateState::kRevoked;
  }

  registry::Player player_;
  int64_t t0_ = 0;
  Certificate cert_;
  std::string number_;
};

TEST_F(NoticeTest, UnderNoticeUntilExactlySevenDaysThenTheRankChanges) {
  EXPECT_EQ(cert_.notice_until_unix, t0_ + 7 * kDay);
  EXPECT_FALSE(cert_.rank_applied);
  EXPECT_EQ(StateNow(), CertificateState::kUnderNotice);
  EXPECT_EQ(RankOf(player_.id), R("3d"));

  clock_.Set(t0_ + 7 * kDay - 1);
  EXPECT_EQ(StateNow(), CertificateState::kUnderNotice);
  EXPECT_EQ(RankOf(player_.id), R("3d"));
  EXPECT_EQ(History(player_.id).size(), 1u);
  auto verify = office_->Verify(number_, "王五");
  ASSERT_TRUE(verify.ok());
  EXPECT_EQ(verify->outcome, VerifyOutcome::kUnderNotice);

  clock_.Set(t0_ + 7 * kDay);
  EXPECT_EQ(RankOf(player_.id), R("4d"));
  EXPECT_EQ(StateNow(), CertificateState::kEffective);
  const auto history = History(player_.id);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[1].from_rank, R("3d"));
  EXPECT_EQ(history[1].to_rank, R("4d"));
  EXPECT_EQ(history[1].reason, registry::RankChangeReason::kCertificate);
  EXPECT_EQ(history[1].effective_date, ShanghaiDate(t0_ + 7 * kDay));
  EXPECT_NE(history[1].basis.find(number_), std::string::npos)
      << history[1].basis;
  verify = office_->Verify(number_, "王五");
  ASSERT_TRUE(verify.ok());
  EXPECT_EQ(verify->outcome, VerifyOutcome::kValid);
  auto stored = office_->Get(national_, number_);
  ASSERT_TRUE(stored.ok());
  EXPECT_TRUE(stored->rank_applied);
  EXPECT_EQ(stored->rank_before, R("3d"));
  // Settling happens once.
  clock_.Set(t0_ + 30 * kDay);
  EXPECT_EQ(History(player_.id).size(), 2u);
}

TEST_F(NoticeTest, AnOpenObjectionHoldsTheNoticeAndADismissalEndsIt) {
  clock_.Set(t0_ + 1 * kDay);
  auto o = office_->LodgeObjection(
      public_, number_, "the result was not recorded", "someone@example.org");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->state, ObjectionState::kOpen);

  clock_.Set(t0_ + 8 * kDay);
  EXPECT_EQ(StateNow(), CertificateState::kUnderNotice);
  EXPECT_EQ(RankOf(player_.id), R("3d"));
  auto notices = office_->ListNotices(auth::Caller::Public(), {});
  ASSERT_TRUE(notices.ok());
  ASSERT_EQ(notices->rows.size(), 1u);
  EXPECT_EQ(notices->rows[0].open_objections, 1);

  auto decided = office_->DecideObjection(national_, o->id, /*uphold=*/false,
                                          "the result is on record");
  ASSERT_TRUE(decided.ok()) << decided.status();
  EXPECT_EQ(decided->state, ObjectionState::kDismissed);
  EXPECT_EQ(RankOf(player_.id), R("4d"));
  EXPECT_EQ(StateNow(), CertificateState::kEffective);
  EXPECT_EQ(
      office_->DecideObjection(national_, o->id, true, "again").status().code(),
      absl::StatusCode::kFailedPrecondition);
}

TEST_F(NoticeTest, AnUpheldObjectionRevokesAndTheRankStays) {
  clock_.Set(t0_ + 2 * kDay);
  auto o = office_->LodgeObjection(public_, number_, "the player did not play",
                                   "tel 123");
  ASSERT_TRUE(o.ok()) << o.status();
  auto decided = office_->DecideObjection(national_, o->id, /*uphold=*/true,
                                          "the event was not held");
  ASSERT_TRUE(decided.ok()) << decided.status();
  EXPECT_EQ(StateNow(), CertificateState::kRevoked);
  auto stored = office_->Get(national_, number_);
  ASSERT_TRUE(stored.ok());
  EXPECT_NE(stored->revoke_reason.find("the event was not held"),
            std::string::npos);

  clock_.Set(t0_ + 8 * kDay);
  EXPECT_EQ(RankOf(player_.id), R("3d"));
  EXPECT_EQ(History(player_.id).size(), 1u);
  auto notices = office_->ListNotices(auth::Caller::Public(), {});
  ASSERT_TRUE(notices.ok());
  EXPECT_TRUE(notices->rows.empty());
  auto verify = office_->Verify(number_, "王五");
  ASSERT_TRUE(verify.ok());
  EXPECT_EQ(verify->outcome, VerifyOutcome::kRevoked);
}

// An unknown number, a notice that ended and a certificate that never had
// one get one and the same answer: the public cannot probe which numbers
// exist by lodging objections.
TEST_F(NoticeTest,
       ObjectionsOnlyDuringTheNoticeWithOneAnswerForEverythingElse) {
  EXPECT_EQ(office_->LodgeObjection(public_, number_, "", "c").status().code(),
            absl::StatusCode::kInvalidArgument);
  const absl::Status unknown =
      office_->LodgeObjection(public_, "000259999", "t", "c").status();
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  clock_.Set(t0_ + 7 * kDay);
  const absl::Status late =
      office_->LodgeObjection(public_, number_, "late", "c").status();
  GiveStock("110", 2025, 1);
  const auto kyu = MustRegister("赵六", "110");
  const Certificate k = MustIssue(op110_, Request(kyu, "5k"));
  const absl::Status never =
      office_->LodgeObjection(public_, k.number.ToString(), "t", "c").status();
  for (const absl::Status* s : {&late, &never}) {
    EXPECT_EQ(s->code(), absl::StatusCode::kNotFound) << *s;
  }
  // The same text but for the number itself.
  auto without_number = [](const absl::Status& s, const std::string& n) {
    std::string m(s.message());
    return m.replace(m.find(n), n.size(), "N");
  };
  EXPECT_EQ(without_number(late, number_),
            without_number(unknown, "000259999"));
  EXPECT_EQ(without_number(never, k.number.ToString()),
            without_number(unknown, "000259999"));
}

TEST_F(NoticeTest, ListNoticesShowsWhatIsPosted) {
  const auto other = MustRegister("钱七", "120", R("5d"));
  clock_.Set(t0_ + 3 * kDay);
  const Certificate six = MustIssue(national_, Request(other, "6d", "000"));
  GiveStock("110", 2025, 1);
  const auto kyu = MustRegister("赵六", "110");
  MustIssue(op110_, Request(kyu, "2d"));  // no notice below 4d

  auto notices = office_->ListNotices(auth::Caller::Public(), {});
  ASSERT_TRUE(notices.ok()) << notices.status();
  ASSERT_EQ(notices->rows.size(), 2u);
  EXPECT_EQ(notices->rows[0].certificate.number.ToString(), number_);
  EXPECT_EQ(notices->rows[0].holder_name, "王五");
  EXPECT_EQ(notices->rows[0].open_objections, 0);
  EXPECT_FALSE(notices->rows[0].agency_name.empty());
  EXPECT_EQ(notices->rows[1].certificate.number, six.number);
  EXPECT_EQ(notices->rows[1].certificate.notice_until_unix, t0_ + 10 * kDay);

  clock_.Set(t0_ + 7 * kDay);  // the first one ends, the second one runs
  notices = office_->ListNotices(auth::Caller::Public(), {});
  ASSERT_TRUE(notices.ok());
  ASSERT_EQ(notices->rows.size(), 1u);
  EXPECT_EQ(notices->rows[0].certificate.number, six.number);
  EXPECT_EQ(RankOf(player_.id), R("4d"));
  EXPECT_EQ(RankOf(other.id), R("5d"));
}

TEST_F(NoticeTest, TheNoticePeriodIsConfigurable) {
  CertificationOptions options;
  options.notice_days = 3;
  Certification office(cert_repo_.get(), registry_repo_.get(), &clock_,
                       options);
  const auto p = MustRegister("孙八", "000", R("4d"));
  auto c = office.Issue(national_, Request(p, "5d", "000"));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->notice_until_unix, clock_.NowSeconds() + 3 * kDay);
}

// Runs a hook once, right after the first list of pending notices was read.
class HookedCertificateRepository : public CountingCertificateRepository {
 public:
  using CountingCertificateRepository::CountingCertificateRepository;
  std::function<void()> after_pending_list;

  absl::StatusOr<std::vector<Certificate>> ListCertificates(
      const CertificateFilter& filter) override {
    auto list = CountingCertificateRepository::ListCertificates(filter);
    if (filter.only_pending_notice && after_pending_list) {
      std::exchange(after_pending_list, nullptr)();
    }
    return list;
  }
};

// Regression: a settle pass whose list was read just before another call
// issued a 5d stored "nothing due" and the 5d never took effect.
TEST_F(NoticeTest, ANoticeIssuedDuringASettlePassStillEnds) {
  CallCounter counter;
  HookedCertificateRepository certs(cert_repo_.get(), &counter);
  Certification office(&certs, registry_repo_.get(), &clock_);
  const auto other = MustRegister("周九", "000", R("4d"));
  ASSERT_TRUE(
      office.SettleDueNotices().ok());  // learns: the 4d ends at t0 + 7d
  clock_.Set(t0_ + 7 * kDay);
  Certificate five;
  certs.after_pending_list = [&] {
    auto c = office.Issue(national_, Request(other, "5d", "000"));
    ASSERT_TRUE(c.ok()) << c.status();
    five = *c;
  };
  ASSERT_TRUE(
      office.SettleDueNotices().ok());  // settles the 4d; its list lacks the 5d
  ASSERT_EQ(five.notice_until_unix, t0_ + 14 * kDay);
  EXPECT_EQ(registry_repo_->GetPlayer(player_.id)->rank, R("4d"));
  clock_.Set(t0_ + 14 * kDay);
  ASSERT_TRUE(office.SettleDueNotices().ok());
  EXPECT_EQ(registry_repo_->GetPlayer(other.id)->rank, R("5d"));
}

}  // namespace
}  // namespace gorank::certificates
