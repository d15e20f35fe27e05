// The public index (services/certificates/public_index.h): Verify and
// LookupRank from the index answer exactly as from the database through
// every kind of write (issue, notice, objection, revocation, rename, rank
// change), read no repository, and a rebuilt index equals the live one; the
// seqlock never shows a half-written entry; the name table grows.
#include "services/certificates/public_index.h"

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "services/certificates/certificate_rules.h"
#include "services/certificates/indexed_certificate_repository.h"
#include "tests/certificates/certification_fixture.h"
#include "tests/certificates/counting_repositories.h"

namespace gorank::certificates {
namespace {

// The fixture's office and registry, rewired as rankd wires them with the
// index on; db_office_ answers the same questions from the database.
class PublicIndexTest : public CertificationFixture {
 protected:
  PublicIndexTest() {
    index_ = std::make_unique<PublicIndex>();
    EXPECT_TRUE(index_->Build(cert_repo_.get(), registry_repo_.get()).ok());
    indexed_registry_ = std::make_unique<IndexedRegistryRepository>(
        registry_repo_.get(), index_.get());
    indexed_certs_ = std::make_unique<IndexedCertificateRepository>(
        cert_repo_.get(), registry_repo_.get(), index_.get());
    auto office = std::make_unique<Certification>(
        indexed_certs_.get(), indexed_registry_.get(), &clock_);
    office->SetPublicIndex(index_.get());
    registry_ = std::make_unique<registry::PlayerRegistry>(
        indexed_registry_.get(), &clock_);
    Certification* o = office.get();
    registry_->SetBeforeRead([o] { return o->SettleDueNotices(); });
    office_ = std::move(office);
    db_office_ = std::make_unique<Certification>(cert_repo_.get(),
                                                 registry_repo_.get(), &clock_);
  }

  void SetUp() override {
    GiveStock("110", 2025, 20);
    registry::PlayerDraft d;
    d.name = "张三";
    d.latin_name = "Zhang San";
    d.gender = registry::Gender::kMale;
    d.birth_date = Date{1980, 1, 2};
    d.agency_prefix = "110";
    d.initial_rank = R("1k");
    auto p = registry_->Register(national_, d);
    ASSERT_TRUE(p.ok()) << p.status();
    holder_ = *p;
    numbers_.push_back(MustIssue(op110_, Request(holder_, "2d")).number);
    numbers_.push_back(
        MustIssue(national_, Request(holder_, "5d", "000")).number);
    numbers_.push_back(MustIssue(op110_, Request(holder_, "3d")).number);
    ASSERT_TRUE(office_->Revoke(op110_, numbers_[2].ToString(), "error").ok());
    numbers_.push_back(CertificateNumber{"110", 25, 9999});  // unknown
  }

  // Verify of every number with every name: index and database agree.
  void ExpectSameVerify(const std::string& when) {
    for (const CertificateNumber& n : numbers_) {
      for (const char* name : {"张三", " Zhang San ", "张三丰", "", "李四"}) {
        auto a = office_->Verify(n.ToString(), name);
        auto b = db_office_->Verify(n.ToString(), name);
        ASSERT_TRUE(a.ok() && b.ok()) << a.status() << b.status();
        const std::string what = when + " " + n.ToString() + " " + name;
        EXPECT_EQ(a->outcome, b->outcome) << what;
        EXPECT_EQ(a->number, b->number) << what;
        EXPECT_EQ(a->grade, b->grade) << what;
        EXPECT_EQ(a->issue_date, b->issue_date) << what;
        EXPECT_EQ(a->agency_prefix, b->agency_prefix) << what;
        EXPECT_EQ(a->agency_name, b->agency_name) << what;
        EXPECT_EQ(a->masked_holder, b->masked_holder) << what;
        EXPECT_EQ(a->notice_until_unix, b->notice_until_unix) << what;
      }
    }
  }

  void ExpectSameLookup(const std::string& name, const std::string& when) {
    for (const auth::Caller* caller : {&public_, &national_}) {
      auto a = office_->LookupRank(*caller, name);
      auto b = db_office_->LookupRank(*caller, name);
      ASSERT_TRUE(a.ok() && b.ok()) << a.status() << b.status();
      ASSERT_EQ(a->size(), b->size()) << when;
      for (size_t i = 0; i < a->size(); ++i) {
        const PublicRankEntry& x = (*a)[i];
        const PublicRankEntry& y = (*b)[i];
        EXPECT_EQ(x.name, y.name) << when;
        EXPECT_EQ(x.latin_name, y.latin_name) << when;
        EXPECT_EQ(x.agency_prefix, y.agency_prefix) << when;
        EXPECT_EQ(x.region, y.region) << when;
        EXPECT_EQ(x.rank, y.rank) << when;
        EXPECT_EQ(x.gomoku_rank, y.gomoku_rank) << when;
        EXPECT_EQ(x.numbers_masked, y.numbers_masked) << when;
        for (auto [xs, ys] : {std::pair{&x.effective, &y.effective},
                              std::pair{&x.under_notice, &y.under_notice}}) {
          ASSERT_EQ(xs->size(), ys->size()) << when;
          for (size_t j = 0; j < xs->size(); ++j) {
            EXPECT_EQ((*xs)[j].number, (*ys)[j].number) << when;
            EXPECT_EQ((*xs)[j].grade, (*ys)[j].grade) << when;
            EXPECT_EQ((*xs)[j].issue_date, (*ys)[j].issue_date) << when;
            EXPECT_EQ((*xs)[j].notice_until_unix, (*ys)[j].notice_until_unix)
                << when;
          }
        }
      }
    }
  }

  std::unique_ptr<PublicIndex> index_;
  std::unique_ptr<IndexedRegistryRepository> indexed_registry_;
  std::unique_ptr<IndexedCertificateRepository> indexed_certs_;
  std::unique_ptr<Certification> db_office_;
  registry::Player holder_;
  std::vector<CertificateNumber> numbers_;  // 2d, 5d (notice), revoked, unknown
};

TEST_F(PublicIndexTest, VerifyAnswersAsTheDatabaseThroughEveryWrite) {
  ASSERT_TRUE(index_->usable());
  ExpectSameVerify("issued");
  auto notice = office_->Verify(numbers_[1].ToString(), "张三");
  ASSERT_TRUE(notice.ok());
  EXPECT_EQ(notice->outcome, VerifyOutcome::kUnderNotice);
  // An objection holds the 5d under notice past its end ...
  auto o = office_->LodgeObjection(public_, numbers_[1].ToString(),
                                   "he lost that game", "a@b.cn");
  ASSERT_TRUE(o.ok()) << o.status();
  clock_.Advance(8 * 86400);
  ExpectSameVerify("objection open, notice over");
  EXPECT_EQ(office_->Verify(numbers_[1].ToString(), "张三")->outcome,
            VerifyOutcome::kUnderNotice);
  // ... until dismissed.
  ASSERT_TRUE(office_->DecideObjection(national_, o->id, false, "no").ok());
  ExpectSameVerify("objection dismissed");
  EXPECT_EQ(office_->Verify(numbers_[1].ToString(), "张三")->outcome,
            VerifyOutcome::kValid);
  // A rename: the new name verifies, the old one no longer.
  registry::PlayerPatch patch;
  patch.name = "张三丰";
  ASSERT_TRUE(registry_->Update(national_, holder_.id, patch).ok());
  ExpectSameVerify("renamed");
  EXPECT_EQ(office_->Verify(numbers_[0].ToString(), "张三丰")->outcome,
            VerifyOutcome::kValid);
  EXPECT_EQ(office_->Verify(numbers_[0].ToString(), "张三")->outcome,
            VerifyOutcome::kNotValid);
  ASSERT_TRUE(office_->Revoke(national_, numbers_[1].ToString(), "x").ok());
  ExpectSameVerify("5d revoked");
}

TEST_F(PublicIndexTest, LookupRankAnswersAsTheDatabaseThroughEveryWrite) {
  MustRegister("张三", "120", R("3k"));  // a namesake in another agency
  ExpectSameLookup("张三", "issued");
  ExpectSameLookup("Zhang San", "issued");
  clock_.Advance(8 * 86400);  // the 5d's notice ends: the rank moves to 5d
  ExpectSameLookup("张三", "notice over");
  auto found = office_->LookupRank(public_, "张三");
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0].rank, R("5d"));
  ASSERT_TRUE(office_->Revoke(national_, numbers_[1].ToString(), "x").ok());
  ExpectSameLookup("张三", "5d revoked");
  found = office_->LookupRank(public_, "张三");
  EXPECT_EQ((*found)[0].rank, R("2d")) << "back to the rank before the 5d";
  registry::PlayerPatch patch;
  patch.latin_name = "Chang San";
  ASSERT_TRUE(registry_->Update(national_, holder_.id, patch).ok());
  ExpectSameLookup("Zhang San", "latin renamed");
  ExpectSameLookup("Chang San", "latin renamed");
  EXPECT_EQ(office_->LookupRank(public_, "Chang San")->size(), 1u);
}

TEST_F(PublicIndexTest, VerifyAndLookupReadNoRepository) {
  CallCounter counter;
  CountingCertificateRepository certs(cert_repo_.get(), &counter);
  CountingRegistryRepository players(registry_repo_.get(), &counter);
  PublicIndex index;
  ASSERT_TRUE(index.Build(&certs, &players).ok());
  IndexedCertificateRepository indexed(&certs, &players, &index);
  IndexedRegistryRepository indexed_players(&players, &index);
  Certification office(&indexed, &indexed_players, &clock_);
  office.SetPublicIndex(&index);
  ASSERT_TRUE(office.SettleDueNotices().ok());  // the first pass lists
  counter.Take();
  for (const CertificateNumber& n : numbers_) {
    ASSERT_TRUE(office.Verify(n.ToString(), "张三").ok());
    ASSERT_TRUE(office.Verify(n.ToString(), "李四").ok());
  }
  ASSERT_TRUE(office.LookupRank(public_, "张三").ok());
  EXPECT_EQ(counter.Take(), (std::map<std::string, int>{}));
}

TEST_F(PublicIndexTest, ARebuiltIndexEqualsTheLiveOne) {
  registry::PlayerPatch patch;
  patch.name = "张三丰";
  ASSERT_TRUE(registry_->Update(national_, holder_.id, patch).ok());
  const registry::Player other = MustRegister("李四", "110", R("2k"));
  numbers_.push_back(MustIssue(op110_, Request(other, "1k")).number);
  clock_.Advance(8 * 86400);
  ASSERT_TRUE(office_->SettleDueNotices().ok());
  PublicIndex rebuilt;
  ASSERT_TRUE(rebuilt.Build(cert_repo_.get(), registry_repo_.get()).ok());
  EXPECT_EQ(rebuilt.certificate_count(), index_->certificate_count());
  EXPECT_EQ(rebuilt.player_count(), index_->player_count());
  for (const CertificateNumber& n : numbers_) {
    PublicCertificate a, b;
    ASSERT_EQ(index_->FindCertificate(n, &a), rebuilt.FindCertificate(n, &b));
    EXPECT_EQ(a.player_id, b.player_id);
    EXPECT_EQ(a.grade, b.grade);
    EXPECT_EQ(a.issue_date, b.issue_date);
    EXPECT_EQ(a.revoked_unix, b.revoked_unix);
    EXPECT_EQ(a.notice_until_unix, b.notice_until_unix);
    EXPECT_EQ(a.has_open_objection, b.has_open_objection);
  }
  for (registry::PlayerId id : {holder_.id, other.id}) {
    PublicHolder a, b;
    ASSERT_TRUE(index_->FindHolder(id, &a) && rebuilt.FindHolder(id, &b));
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.latin_name, b.latin_name);
    EXPECT_EQ(a.agency_prefix, b.agency_prefix);
    EXPECT_EQ(a.rank, b.rank);
  }
  EXPECT_EQ(index_->AgencyName("110"), rebuilt.AgencyName("110"));
  EXPECT_FALSE(index_->AgencyName("110").empty());
}

Certificate Cert(int serial, int64_t player, const char* grade, int64_t until,
                 int64_t revoked) {
  Certificate c;
  c.number = CertificateNumber{"610", 25, serial};
  c.player_id = registry::PlayerId{player};
  c.grade = R(grade);
  c.issue_date = Date{2025, 3, 4};
  c.notice_until_unix = until;
  c.revoked_unix = revoked;
  return c;
}

TEST(PublicIndexUnitTest, ReadersNeverSeeAHalfWrittenEntry) {
  PublicIndex index;
  const Certificate a = Cert(7, 11, "3d", 1000, 0);
  const Certificate b = Cert(7, 22, "5k", 2000, 3000);
  ASSERT_TRUE(index.RefreshCertificate(a.number, &a, nullptr).ok());
  std::atomic<bool> stop{false};
  std::atomic<int> mixed{0}, reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        PublicCertificate c;
        if (!index.FindCertificate(a.number, &c)) ++mixed;
        const bool is_a = c.player_id.value == 11 && c.grade == R("3d") &&
                          c.notice_until_unix == 1000 && c.revoked_unix == 0;
        const bool is_b = c.player_id.value == 22 && c.grade == R("5k") &&
                          c.notice_until_unix == 2000 && c.revoked_unix == 3000;
        if (!is_a && !is_b) ++mixed;
        ++reads;
      }
    });
  }
  for (int i = 0; i < 20000 || reads.load() < 1000; ++i) {
    const Certificate& next = i % 2 ? a : b;
    ASSERT_TRUE(index
                    .RefreshCertificate(
                        next.number, nullptr,
                        [&]() -> absl::StatusOr<Certificate> { return next; })
                    .ok());
  }
  stop = true;
  for (auto& r : readers) r.join();
  EXPECT_EQ(mixed.load(), 0) << "of " << reads.load() << " reads";
}

TEST(PublicIndexUnitTest, FindsManyPlayersByNameAfterTheTableGrew) {
  PublicIndex index;
  for (int i = 1; i <= 20000; ++i) {
    registry::Player p;
    p.id = registry::PlayerId{i};
    p.name = "棋手" + std::to_string(i);
    p.latin_name = "Player " + std::to_string(i % 1000);  // 20 share each
    p.agency_prefix = "110";
    p.rank = R("1d");
    ASSERT_TRUE(index.RefreshPlayer(p.id, &p, nullptr).ok());
  }
  EXPECT_EQ(index.player_count(), 20000u);
  for (int i : {1, 777, 19999, 20000}) {
    auto found = index.FindByName("棋手" + std::to_string(i), 20);
    ASSERT_EQ(found.size(), 1u) << i;
    EXPECT_EQ(found[0].id.value, i);
    EXPECT_EQ(found[0].rank, R("1d"));
  }
  auto shared = index.FindByName("Player 7", 5);
  ASSERT_EQ(shared.size(), 5u);
  EXPECT_EQ(shared[0].id.value, 7);
  EXPECT_EQ(shared[4].id.value, 4007);
  EXPECT_TRUE(index.FindByName("棋手20001", 20).empty());
  // A rename leaves the old name's entry behind; only current names match,
  // once each, also after renaming back.
  registry::Player p;
  p.id = registry::PlayerId{5};
  p.name = "棋手6";
  p.agency_prefix = "110";
  ASSERT_TRUE(index
                  .RefreshPlayer(
                      p.id, nullptr,
                      [&]() -> absl::StatusOr<registry::Player> { return p; })
                  .ok());
  EXPECT_TRUE(index.FindByName("棋手5", 20).empty());
  EXPECT_EQ(index.FindByName("棋手6", 20).size(), 2u);
  p.name = "棋手5";
  ASSERT_TRUE(index
                  .RefreshPlayer(
                      p.id, nullptr,
                      [&]() -> absl::StatusOr<registry::Player> { return p; })
                  .ok());
  EXPECT_EQ(index.FindByName("棋手5", 20).size(), 1u);
  EXPECT_EQ(index.FindByName("棋手6", 20).size(), 1u);
}

TEST(PublicIndexUnitTest, StateIsStateAtOfTheCertificate) {
  for (int64_t revoked : {0, 5}) {
    for (int64_t until : {0, 100, 200}) {
      for (bool objection : {false, true}) {
        Certificate c = Cert(1, 1, "5d", until, revoked);
        c.has_open_objection = objection;
        PublicIndex index;
        ASSERT_TRUE(index.RefreshCertificate(c.number, &c, nullptr).ok());
        PublicCertificate p;
        ASSERT_TRUE(index.FindCertificate(c.number, &p));
        EXPECT_EQ(p.has_open_objection, objection);
        for (int64_t now : {50, 150, 250}) {
          EXPECT_EQ(p.StateAt(now), StateAt(c, now));
          EXPECT_EQ(StateAt(p.ToCertificate(), now), StateAt(c, now));
        }
      }
    }
  }
}

}  // namespace
}  // namespace gorank::certificates
