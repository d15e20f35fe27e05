#include "tests/certificates/certification_fixture.h"

#include "tests/testing/test_database.h"

namespace gorank::certificates {

CertificationFixture::CertificationFixture() {
  clock_.SetDate(Date{2025, 6, 2});
  auto db = storage::Database::Open(testing::TestDatabaseUrl(dir_));
  if (!db.ok()) {
    ADD_FAILURE() << "cannot open the test database: " << db.status();
    std::abort();
  }
  db_ = std::move(*db);
  registry_repo_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
  cert_repo_ = std::make_unique<storage::SqlCertificateRepository>(db_.get());
  registry_ =
      std::make_unique<registry::PlayerRegistry>(registry_repo_.get(), &clock_);
  office_ = std::make_unique<Certification>(cert_repo_.get(),
                                            registry_repo_.get(), &clock_);
  Certification* office = office_.get();
  registry_->SetBeforeRead([office] { return office->SettleDueNotices(); });
}

registry::Player CertificationFixture::MustRegister(
    const std::string& name, const std::string& agency,
    std::optional<registry::Rank> rank, bool complete,
    std::optional<Date> birth) {
  registry::PlayerDraft d;
  d.name = name;
  d.agency_prefix = agency;
  if (complete) {
    d.gender = registry::Gender::kMale;
    d.birth_date = birth.value_or(Date{1990, 5, 1});
  } else {
    d.birth_date = birth;
  }
  d.initial_rank = rank;
  auto p = registry_->Register(national_, d);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : registry::Player{};
}

IssueRequest CertificationFixture::Request(const registry::Player& player,
                                           const char* grade,
                                           const std::string& prefix) {
  IssueRequest r;
  r.player_id = player.id;
  r.grade = R(grade);
  r.basis = R(grade) == R("8d") ? Basis::kHonoraryAward : Basis::kTournament;
  r.basis_reference = "2025 city championship, 1st place";
  r.agency_prefix = prefix;
  return r;
}

Certificate CertificationFixture::MustIssue(const auth::Caller& caller,
                                            const IssueRequest& request) {
  auto c = office_->Issue(caller, request);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : Certificate{};
}

void CertificationFixture::GiveStock(const std::string& prefix, int year,
                                     int quantity) {
  auto ordered = office_->OrderStock(national_, prefix, year, quantity);
  ASSERT_TRUE(ordered.ok()) << ordered.status();
  auto released = office_->ReleaseStock(national_, prefix, year);
  ASSERT_TRUE(released.ok()) << released.status();
}

std::optional<registry::Rank> CertificationFixture::RankOf(
    registry::PlayerId id) {
  auto p = registry_->Get(national_, id);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? p->rank : std::nullopt;
}

std::vector<registry::RankHistoryEntry> CertificationFixture::History(
    registry::PlayerId id) {
  auto h = registry_->History(national_, id);
  EXPECT_TRUE(h.ok()) << h.status();
  return h.ok() ? *h : std::vector<registry::RankHistoryEntry>{};
}

int64_t CertificationFixture::LastSerial(const std::string& prefix, int year) {
  int64_t last = 0;
  const absl::Status s = db_->Read([&](storage::Connection& c) -> absl::Status {
    auto st = c.Prepare(
        "SELECT last_serial FROM certificate_serials WHERE prefix = ?1 AND "
        "year = ?2");
    if (!st.ok()) return st.status();
    (*st)->Bind(1, prefix).Bind(2, int64_t{year});
    auto row = (*st)->Step();
    if (!row.ok()) return row.status();
    if (*row) last = (*st)->Int(0);
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  return last;
}

std::vector<int64_t> CertificationFixture::Serials(const std::string& prefix,
                                                   int year) {
  std::vector<int64_t> out;
  const absl::Status s = db_->Read([&](storage::Connection& c) -> absl::Status {
    auto st = c.Prepare(
        "SELECT serial FROM certificates WHERE prefix = ?1 AND year = ?2 ORDER "
        "BY serial");
    if (!st.ok()) return st.status();
    (*st)->Bind(1, prefix).Bind(2, int64_t{year});
    while (true) {
      auto row = (*st)->Step();
      if (!row.ok()) return row.status();
      if (!*row) return absl::OkStatus();
      out.push_back((*st)->Int(0));
    }
  });
  EXPECT_TRUE(s.ok()) << s;
  return out;
}

void CertificationFixture::ExecSql(const std::string& sql) {
  const absl::Status s =
      db_->Write([&](storage::Connection& c) { return c.Exec(sql); });
  ASSERT_TRUE(s.ok()) << s;
}

}  // namespace gorank::certificates
