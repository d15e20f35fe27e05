// The same history gives the same audit log on both engines (issue #10):
// one scripted day of a certificate office — players registered, stock
// ordered and released, certificates issued (one under public notice, with
// an objection lodged and dismissed, the notice then settled), one revoked —
// runs on an SQLite file and on a PostgreSQL schema with the same fake
// clock. Every log entry, leaf hash, keyed row digest and entry link is
// byte-identical, and so is every table (RegistryFingerprint). Runs only in
// the "pg." runs.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "services/certificates/certification.h"
#include "services/common/clock.h"
#include "services/registry/player_registry.h"
#include "storage/database.h"
#include "storage/database_copy.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank {
namespace {

using certificates::Certification;
using registry::Rank;

// The office over one database, wired as rankd wires it.
struct Office {
  explicit Office(const std::string& address) {
    clock.SetDate(Date{2025, 6, 2});
    // Keyed as rankd keys them: digests and entry links are HMACs.
    storage::DatabaseOptions options;
    options.row_digest_key = std::string(32, 'k');
    auto opened = storage::Database::Open(address, options);
    EXPECT_TRUE(opened.ok()) << opened.status();
    if (!opened.ok()) return;
    db = std::move(*opened);
    registry_repo = std::make_unique<storage::SqlRegistryRepository>(db.get());
    cert_repo = std::make_unique<storage::SqlCertificateRepository>(db.get());
    registry =
        std::make_unique<registry::PlayerRegistry>(registry_repo.get(), &clock);
    office = std::make_unique<Certification>(cert_repo.get(),
                                             registry_repo.get(), &clock);
    Certification* o = office.get();
    registry->SetBeforeRead([o] { return o->SettleDueNotices(); });
  }

  // (seq, entry, leaf hash) of every log row.
  std::vector<std::tuple<int64_t, std::string, std::string>> Log() {
    std::vector<std::tuple<int64_t, std::string, std::string>> out;
    absl::Status s = db->Read([&](storage::Connection& c) -> absl::Status {
      auto st =
          c.Prepare("SELECT seq, entry, leaf_hash FROM audit_log ORDER BY seq");
      if (!st.ok()) return st.status();
      while (true) {
        auto row = (*st)->Step();
        if (!row.ok()) return row.status();
        if (!*row) return absl::OkStatus();
        out.emplace_back((*st)->Int(0), (*st)->Blob(1), (*st)->Blob(2));
      }
    });
    EXPECT_TRUE(s.ok()) << s;
    return out;
  }

  FakeClock clock;
  std::unique_ptr<storage::Database> db;
  std::unique_ptr<storage::SqlRegistryRepository> registry_repo;
  std::unique_ptr<storage::SqlCertificateRepository> cert_repo;
  std::unique_ptr<registry::PlayerRegistry> registry;
  std::unique_ptr<Certification> office;
};

// The scripted day; every step must succeed.
void RunHistory(Office& o) {
  const auth::Caller national{auth::Role::kNationalAdmin, "", 1};
  const auth::Caller op110{auth::Role::kAgencyOperator, "110", 2};
  const auth::Caller anyone = auth::Caller::Public();
  std::vector<registry::Player> players;
  for (const char* name : {"张三", "李四", "王五"}) {
    registry::PlayerDraft d;
    d.name = name;
    d.agency_prefix = "110";
    d.gender = registry::Gender::kMale;
    d.birth_date = Date{1990, 5, 1};
    d.initial_rank = Rank::FromString("3d");
    auto p = o.registry->Register(national, d);
    ASSERT_TRUE(p.ok()) << p.status();
    players.push_back(*p);
  }
  ASSERT_TRUE(o.office->OrderStock(national, "110", 2025, 10).ok());
  ASSERT_TRUE(o.office->ReleaseStock(national, "110", 2025).ok());
  std::vector<std::string> numbers;
  for (size_t i = 0; i < players.size(); ++i) {
    certificates::IssueRequest r;
    r.player_id = players[i].id;
    r.grade = Rank::FromString(i == 0 ? "4d" : "3d");  // 4d goes under notice
    r.basis = certificates::Basis::kTournament;
    r.basis_reference = "2025 city championship";
    r.agency_prefix = i == 0 ? "000" : "110";
    auto c = o.office->Issue(i == 0 ? national : op110, r);
    ASSERT_TRUE(c.ok()) << c.status();
    numbers.push_back(c->number.ToString());
  }
  auto objection = o.office->LodgeObjection(anyone, numbers[0],
                                            "not the winner", "a@b.example");
  ASSERT_TRUE(objection.ok()) << objection.status();
  ASSERT_TRUE(
      o.office->DecideObjection(national, objection->id, false, "he won").ok());
  ASSERT_TRUE(o.office->Revoke(national, numbers[2], "wrong player").ok());
  o.clock.Advance(30 * 86400);  // the notice ends; the next read settles it
  auto settled = o.registry->Get(national, players[0].id);
  ASSERT_TRUE(settled.ok()) << settled.status();
  EXPECT_EQ(settled->rank, Rank::FromString("4d"));
}

TEST(SameLogTest, TheSameHistoryGivesTheSameLogAndTablesOnBothEngines) {
  if (!testing::TestOnPostgres())
    GTEST_SKIP() << "needs the PostgreSQL test server";
  testing::TempDir dir;
  Office sqlite(dir.File("rankd.db"));
  Office pg(testing::TestDatabaseUrl(dir));
  ASSERT_TRUE(sqlite.db && pg.db);
  ASSERT_EQ(sqlite.db->engine(), storage::Engine::kSqlite);
  ASSERT_EQ(pg.db->engine(), storage::Engine::kPostgres);
  ASSERT_NO_FATAL_FAILURE(RunHistory(sqlite));
  ASSERT_NO_FATAL_FAILURE(RunHistory(pg));

  const auto a = sqlite.Log();
  const auto b = pg.Log();
  ASSERT_GT(a.size(), 10u);
  ASSERT_EQ(a.size(), b.size());
  // Written keyed, with the link to the entry before.
  EXPECT_NE(std::get<1>(a.back()).find(
                "\"audit_log:" + std::to_string(a.size() - 1) + "\":\"hmac:"),
            std::string::npos)
      << std::get<1>(a.back());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::get<0>(a[i]), std::get<0>(b[i]));
    EXPECT_EQ(std::get<1>(a[i]), std::get<1>(b[i])) << "entry " << i;
    EXPECT_EQ(std::get<2>(a[i]), std::get<2>(b[i])) << "leaf " << i;
  }
  auto fa = storage::RegistryFingerprint(*sqlite.db);
  auto fb = storage::RegistryFingerprint(*pg.db);
  ASSERT_TRUE(fa.ok() && fb.ok());
  EXPECT_EQ(*fa, *fb);
}

}  // namespace
}  // namespace gorank
