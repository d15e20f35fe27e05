// The contract of CertificateRepository (services/certificates/
// certificate_repository.h), run against every implementation: the SQL
// repository on SQLite and on PostgreSQL. (No in-memory fake: the domain's
// rules are tested without I/O in certificate_rules_test, and the
// Certification tests check serial rows with SQL on both engines.)
//
// Issuance reads and judges what it depends on, allocates serials and
// applies ranks inside one transaction: the stock limit, serial 9999, an
// agency suspended after the plan was made, the holder's stored record, two
// writers racing for one player's rank or for serials (two Database
// instances on one database, each on its own thread), request-id replay,
// imports stored whole or not at all, and the one audit entry per successful
// write (none for a refused one) of the notice, revocation, objection,
// appraisal and stock calls.
#include <chrono>
#include <future>
#include <latch>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/keyed_digest.h"
#include "services/certificates/certificate_repository.h"
#include "storage/database.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/storage/repository_backends.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {
namespace {

using absl::StatusCode;
using certificates::Appraisal;
using certificates::AppraisalState;
using certificates::Basis;
using certificates::Certificate;
using certificates::CertificateFilter;
using certificates::CertificateNumber;
using certificates::CertificateRepository;
using certificates::IssuePlan;
using certificates::Objection;
using certificates::ObjectionState;
using certificates::StockOrder;
using registry::PlayerId;
using registry::Rank;
using registry::RankChangeReason;
using registry::RankHistoryEntry;

constexpr int64_t kNow = 1748836800;  // 2025-06-02 12:00 Asia/Shanghai

Rank R(const char* text) { return Rank::FromString(text); }

ChangeRecord Change(const std::string& action) {
  return ChangeRecord{kNow, "national/token:1", action, "", "", "{}"};
}

RankHistoryEntry History(PlayerId player, std::optional<Rank> from,
                         std::optional<Rank> to, Date date,
                         RankChangeReason reason, const std::string& basis) {
  RankHistoryEntry e;
  e.player_id = player;
  e.from_rank = from;
  e.to_rank = to;
  e.effective_date = date;
  e.reason = reason;
  e.basis = basis;
  e.actor = "test";
  e.recorded_unix = kNow;
  return e;
}

Objection NewObjection(const CertificateNumber& number, const std::string& text,
                       int64_t lodged_unix) {
  Objection o;
  o.number = number;
  o.text = text;
  o.contact = "a@example.org";
  o.lodged_unix = lodged_unix;
  return o;
}

// A plan as the domain makes one: number and year of `prefix` in 2025, any
// holder, no stock (the stock tests ask for it).
IssuePlan Plan(PlayerId player, const char* grade,
               const std::string& prefix = "110") {
  IssuePlan plan;
  plan.draft.number = CertificateNumber{prefix, 25, 0};
  plan.draft.year = 2025;
  plan.draft.player_id = player;
  plan.draft.grade = R(grade);
  plan.draft.issue_date = Date{2025, 6, 2};
  plan.draft.basis = Basis::kTournament;
  plan.draft.basis_reference = "2025 city championship, 1st place";
  plan.draft.issued_by = "agency:" + prefix + "/token:2";
  plan.draft.issued_unix = kNow;
  return plan;
}

// An order of `quantity` certificates of `prefix` for 2025, as placed.
StockOrder Order(const std::string& prefix, int quantity) {
  StockOrder o;
  o.agency_prefix = prefix;
  o.year = 2025;
  o.quantity = quantity;
  o.ordered_unix = kNow;
  o.ordered_by = "national/token:1";
  return o;
}

// Applies the grade to the holder's rank now.
IssuePlan RankPlan(PlayerId player, const char* grade) {
  IssuePlan plan = Plan(player, grade);
  plan.apply_rank_now = true;
  return plan;
}

// A write transaction held open by a thread of its own until Release():
// the calls made meanwhile line up behind it.
class HeldWrite {
 public:
  explicit HeldWrite(storage::Database* db)
      : released_(release_.get_future().share()), holder_([this, db] {
          EXPECT_TRUE(db->Write([&](storage::Connection&) {
                          holding_.count_down();
                          released_.wait();
                          return absl::OkStatus();
                        }).ok());
        }) {
    holding_.wait();
  }
  ~HeldWrite() { Release(); }
  void Release() {
    if (!holder_.joinable()) return;
    release_.set_value();
    holder_.join();
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_;
  std::latch holding_{1};
  std::thread holder_;
};

class CertificateRepositoryContract
    : public ::testing::TestWithParam<SqlEngine> {
 protected:
  void SetUp() override {
    const std::string why = EngineUnavailable(GetParam().engine);
    if (!why.empty()) GTEST_SKIP() << why;
    address_ = EngineAddress(GetParam().engine, dir_, "certificates.db");
    auto db = storage::Database::Open(address_, Keyed());
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    registry_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
    repo_ = std::make_unique<storage::SqlCertificateRepository>(db_.get());
  }

  // A player of `agency` (the migrations load the agencies) with a complete
  // holder record, with `rank` recorded by registration when given.
  PlayerId AddPlayer(std::optional<Rank> rank = std::nullopt,
                     const std::string& agency = "110") {
    registry::Player p;
    p.name = "棋手 " + std::to_string(++players_);
    p.gender = registry::Gender::kFemale;
    p.birth_date = Date{1990, 5, 1};
    p.agency_prefix = agency;
    p.created_unix = p.updated_unix = kNow;
    std::optional<RankHistoryEntry> initial;
    if (rank) {
      initial = History(PlayerId{}, std::nullopt, rank, Date{2024, 1, 1},
                        RankChangeReason::kRegistration, "registration");
    }
    auto id = registry_->InsertPlayer(p, initial, Change("player.register"));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : PlayerId{};
  }
  Certificate MustIssue(const IssuePlan& plan) {
    auto c = repo_->IssueCertificate(plan);
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *c : Certificate{};
  }
  int64_t AuditRows() { return testing::CountAuditRows(db_.get()).value(); }
  // The "rows" of every audit entry after the first `seq`, in order.
  std::vector<std::map<std::string, std::string>> EntryRowsAfter(int64_t seq) {
    std::vector<std::map<std::string, std::string>> out;
    auto entries = testing::ReadAuditEntries(db_.get(), seq);
    EXPECT_TRUE(entries.ok()) << entries.status();
    if (!entries.ok()) return out;
    for (audit::AuditEntry& e : *entries) out.push_back(std::move(e.rows));
    return out;
  }
  // As rankd opens it: entries linked under a row-digest key.
  static storage::DatabaseOptions Keyed() {
    storage::DatabaseOptions options;
    options.row_digest_key = std::string(32, 'k');
    return options;
  }
  // Every entry of the log links to the one before it (its leaf hash as
  // stored), as rankd's log check demands.
  void ExpectEveryEntryLinked() {
    const std::string key = Keyed().row_digest_key;
    int64_t checked = 0;
    ASSERT_TRUE(
        db_->Read([&](storage::Connection& c) -> absl::Status {
             auto st = c.Prepare(
                 "SELECT seq, entry, leaf_hash FROM audit_log ORDER BY seq");
             if (!st.ok()) return st.status();
             std::string previous_leaf;
             while (true) {
               auto row = (*st)->Step();
               if (!row.ok()) return row.status();
               if (!*row) return absl::OkStatus();
               const int64_t seq = (*st)->Int(0);
               auto entry = audit::AuditEntry::Decode((*st)->Blob(1));
               if (!entry.ok()) return entry.status();
               if (seq > 1) {
                 auto link = entry->rows.find(audit::ChainRowName(seq - 1));
                 EXPECT_TRUE(link != entry->rows.end()) << "entry " << seq;
                 if (link != entry->rows.end()) {
                   EXPECT_EQ(link->second,
                             audit::ChainLink(key, seq - 1, previous_leaf))
                       << "entry " << seq;
                 }
               }
               previous_leaf = (*st)->Blob(2);
               ++checked;
             }
           })
            .ok());
    EXPECT_EQ(checked, AuditRows());
  }
  std::optional<Rank> RankOf(PlayerId id) {
    auto p = registry_->GetPlayer(id);
    EXPECT_TRUE(p.ok()) << p.status();
    return p.ok() ? p->rank : std::nullopt;
  }
  std::vector<int> Serials(const std::string& prefix, int year) {
    CertificateFilter f;
    f.agency_prefix = prefix;
    f.year = year;
    std::vector<int> out;
    auto list = repo_->ListCertificates(f);
    EXPECT_TRUE(list.ok()) << list.status();
    if (list.ok()) {
      for (const Certificate& c : *list) out.push_back(c.number.serial);
    }
    return out;
  }
  // The calls of `plans`, lined up in this order behind a write held open
  // (the first leads the batch, waiting for the write lock; the others
  // queue behind it), then let go at once: their answers.
  std::vector<absl::StatusOr<Certificate>> LineUpAndIssue(
      const std::vector<IssuePlan>& plans) {
    auto* sql = static_cast<storage::SqlCertificateRepository*>(repo_.get());
    const int64_t issued = sql->group_commit_stats().issuances;
    std::vector<absl::StatusOr<Certificate>> results(
        plans.size(), absl::UnknownError("not run"));
    HeldWrite held(db_.get());
    std::vector<std::thread> callers;
    for (size_t i = 0; i < plans.size(); ++i) {
      callers.emplace_back(
          [&, i] { results[i] = repo_->IssueCertificate(plans[i]); });
      sql->AwaitGroupCommit([&](const auto& g) {
        return g.writing && g.waiting == static_cast<int>(i + 1) &&
               g.issuances == issued;
      });
    }
    held.Release();
    for (std::thread& t : callers) t.join();
    return results;
  }
  // What LineUpAndIssue's calls left on a fresh repository: one batch,
  // written again `rewritten` times; the serials of agency 110 in 2025;
  // `entries` audit entries after the first `audit`, every one linked.
  void ExpectOneBatchWrote(int64_t rewritten, const std::vector<int>& serials,
                           int64_t audit, int64_t entries) {
    auto* sql = static_cast<storage::SqlCertificateRepository*>(repo_.get());
    const auto stats = sql->group_commit_stats();
    EXPECT_EQ(stats.batches, 1);
    EXPECT_EQ(stats.rewritten, rewritten);
    EXPECT_EQ(Serials("110", 2025), serials);
    EXPECT_EQ(AuditRows(), audit + entries);
    ExpectEveryEntryLinked();
  }
  // One SQL statement in a write transaction (no audit entry).
  void ExecSql(const std::string& sql) {
    const absl::Status s =
        db_->Write([&](storage::Connection& c) { return c.Exec(sql); });
    ASSERT_TRUE(s.ok()) << s;
  }

  testing::TempDir dir_;
  std::string address_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_;
  std::unique_ptr<CertificateRepository> repo_;
  int players_ = 0;
};

TEST_P(CertificateRepositoryContract, IssuedCertificatesReadBackInNumberOrder) {
  const PlayerId a = AddPlayer(R("2k"));
  const PlayerId b = AddPlayer();
  const int64_t audit = AuditRows();
  IssuePlan plan = RankPlan(a, "1k");
  plan.draft.request_id = "req-1";
  plan.draft.request_scope = "110";
  plan.draft.request_hash = "hash-1";
  const Certificate first = MustIssue(plan);
  EXPECT_EQ(first.number.ToString(), "110250001");
  EXPECT_TRUE(first.rank_applied);
  EXPECT_EQ(first.rank_before, R("2k"));
  const Certificate second = MustIssue(Plan(b, "4d"));
  EXPECT_EQ(second.number.ToString(), "110250002");
  EXPECT_FALSE(second.rank_applied);
  EXPECT_EQ(AuditRows(), audit + 2);

  auto got = repo_->GetCertificate(first.number);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->year, 2025);
  EXPECT_EQ(got->player_id, a);
  EXPECT_EQ(got->grade, R("1k"));
  EXPECT_EQ(got->issue_date, (Date{2025, 6, 2}));
  EXPECT_EQ(got->basis, Basis::kTournament);
  EXPECT_EQ(got->basis_reference, "2025 city championship, 1st place");
  EXPECT_EQ(got->issued_by, "agency:110/token:2");
  EXPECT_EQ(got->issued_unix, kNow);
  EXPECT_TRUE(got->rank_applied);
  EXPECT_EQ(got->rank_before, R("2k"));
  EXPECT_EQ(got->revoked_unix, 0);
  EXPECT_EQ(got->request_id, "req-1");
  EXPECT_EQ(got->request_scope, "110");
  EXPECT_EQ(got->request_hash, "hash-1");
  EXPECT_FALSE(got->has_open_objection);
  // The grade below 4d applied at once, with its history entry.
  EXPECT_EQ(RankOf(a), R("1k"));
  auto history = registry_->ListRankHistory(a);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ(history->back().reason, RankChangeReason::kCertificate);
  EXPECT_EQ(history->back().basis, "certificate 110250001");
  EXPECT_EQ(RankOf(b), std::nullopt);

  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1, 2}));
  CertificateFilter by_player;
  by_player.player_id = b;
  ASSERT_EQ(repo_->ListCertificates(by_player)->size(), 1u);
  CertificateFilter pending;
  pending.only_pending_notice = true;
  EXPECT_TRUE(repo_->ListCertificates(pending)->empty());  // no notice set
  CertificateFilter after;
  after.after_number = "110250001";
  ASSERT_EQ(repo_->ListCertificates(after)->size(), 1u);
  EXPECT_EQ(repo_->ListCertificates(after)->front().number, second.number);
  EXPECT_EQ(*repo_->CountIssued("110", 2025), 2);
  EXPECT_EQ(*repo_->CountIssued("120", 2025), 0);
  EXPECT_EQ(repo_->GetCertificate(*CertificateNumber::Parse("110250003"))
                .status()
                .code(),
            StatusCode::kNotFound);
}

// The released stock bounds an agency's issuances of the year; revoked
// certificates count, a refused issuance takes no serial and writes nothing;
// an order not released yet (or none) allows none.
TEST_P(CertificateRepositoryContract, StockLimitRefusesTheIssuanceBeyondIt) {
  std::vector<PlayerId> players;
  for (int i = 0; i < 4; ++i) players.push_back(AddPlayer());
  auto order = [&](const std::string& prefix, int quantity, bool release) {
    ASSERT_TRUE(
        repo_->PutStockOrder(Order(prefix, quantity), Change("stock.order"))
            .ok());
    if (release) {
      ASSERT_TRUE(repo_
                      ->ReleaseStockOrder(prefix, 2025, kNow, "national",
                                          Change("stock.release"))
                      .ok());
    }
  };
  auto limited = [&](PlayerId p, const std::string& prefix = "110") {
    IssuePlan plan = Plan(p, "1d", prefix);
    plan.uses_stock = true;
    return plan;
  };
  EXPECT_EQ(repo_->IssueCertificate(limited(players[0])).status().code(),
            StatusCode::kFailedPrecondition);  // no order
  order("110", 2, /*release=*/false);
  EXPECT_EQ(repo_->IssueCertificate(limited(players[0])).status().code(),
            StatusCode::kFailedPrecondition);  // not released
  EXPECT_TRUE(Serials("110", 2025).empty());
  ASSERT_TRUE(repo_
                  ->ReleaseStockOrder("110", 2025, kNow, "national",
                                      Change("stock.release"))
                  .ok());
  const Certificate first = MustIssue(limited(players[0]));
  MustIssue(limited(players[1]));
  ASSERT_TRUE(repo_
                  ->Revoke(first.number, kNow + 1, "issued in error",
                           std::nullopt, Change("certificate.revoke"))
                  .ok());
  const int64_t audit = AuditRows();
  auto refused = repo_->IssueCertificate(limited(players[2]));
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("stock of 2"), std::string::npos)
      << refused.status();
  EXPECT_EQ(AuditRows(), audit);
  EXPECT_EQ(*repo_->CountIssued("110", 2025), 2);
  // Exempt (no stock) and another agency's own count go on.
  EXPECT_EQ(MustIssue(Plan(players[2], "1d")).number.serial, 3);
  order("120", 1, /*release=*/true);
  IssuePlan other = limited(players[3], "120");
  other.draft.grade = R("2d");
  EXPECT_EQ(MustIssue(other).number.ToString(), "120250001");
  EXPECT_EQ(repo_->IssueCertificate(limited(players[3], "120")).status().code(),
            StatusCode::kFailedPrecondition);
}

TEST_P(CertificateRepositoryContract, StockOrdersAmendUntilReleased) {
  EXPECT_EQ(repo_->GetStockOrder("110", 2025).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(repo_
                ->ReleaseStockOrder("110", 2025, kNow, "national",
                                    Change("stock.release"))
                .code(),
            StatusCode::kFailedPrecondition);
  StockOrder order = Order("110", 10);
  ASSERT_TRUE(repo_->PutStockOrder(order, Change("stock.order")).ok());
  order.quantity = 12;
  ASSERT_TRUE(repo_->PutStockOrder(order, Change("stock.order")).ok());
  const PlayerId p = AddPlayer();
  MustIssue(Plan(p, "1d"));
  auto got = repo_->GetStockOrder("110", 2025);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->quantity, 12);
  EXPECT_EQ(got->ordered_by, "national/token:1");
  EXPECT_EQ(got->released_unix, 0);
  EXPECT_EQ(got->used, 1);
  ASSERT_TRUE(repo_
                  ->ReleaseStockOrder("110", 2025, kNow + 5, "national",
                                      Change("stock.release"))
                  .ok());
  EXPECT_EQ(repo_->GetStockOrder("110", 2025)->released_unix, kNow + 5);
  EXPECT_EQ(repo_->GetStockOrder("110", 2025)->released_by, "national");
  const int64_t audit = AuditRows();
  order.quantity = 20;
  EXPECT_EQ(repo_->PutStockOrder(order, Change("stock.order")).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_
                ->ReleaseStockOrder("110", 2025, kNow, "national",
                                    Change("stock.release"))
                .code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_->GetStockOrder("110", 2025)->quantity, 12);
  EXPECT_EQ(AuditRows(), audit);
}

// Serial 9999 is the year's last number of a prefix; the next issuance is
// RESOURCE_EXHAUSTED and writes nothing, other prefixes and years go on.
TEST_P(CertificateRepositoryContract, Serial9999IsTheLastNumber) {
  const PlayerId p = AddPlayer();
  MustIssue(Plan(p, "1d"));
  ExecSql(
      "UPDATE certificate_serials SET last_serial = 9998 "
      "WHERE prefix = '110' AND year = 2025");
  const Certificate last = MustIssue(Plan(p, "2d"));
  EXPECT_EQ(last.number.ToString(), "110259999");
  EXPECT_EQ(repo_->GetCertificate(last.number)->grade, R("2d"));
  const int64_t audit = AuditRows();
  auto refused = repo_->IssueCertificate(Plan(p, "3d"));
  EXPECT_EQ(refused.status().code(), StatusCode::kResourceExhausted)
      << refused.status();
  EXPECT_EQ(AuditRows(), audit);
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1, 9999}));
  EXPECT_EQ(MustIssue(Plan(p, "3d", "120")).number.ToString(), "120250001");
  IssuePlan next_year = Plan(p, "3d");
  next_year.draft.number.yy = 26;
  next_year.draft.year = 2026;
  EXPECT_EQ(MustIssue(next_year).number.ToString(), "110260001");
}

// The holder is judged on the record stored when the write runs: a grade
// below the stored rank needs a correction reason (FAILED_PRECONDITION,
// nothing written, no serial), an unknown holder is NOT_FOUND, a holder of
// another agency than holder_agency PERMISSION_DENIED, an incomplete record
// for 1d and above FAILED_PRECONDITION. The rank applied starts from the
// stored one.
TEST_P(CertificateRepositoryContract, TheHolderIsJudgedOnItsStoredRecord) {
  const PlayerId p = AddPlayer(R("1k"));
  const int64_t audit = AuditRows();
  // The domain planned 2k for a player it read at 2k; the rank is 1k now.
  auto refused = repo_->IssueCertificate(RankPlan(p, "2k"));
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("correction"), std::string::npos)
      << refused.status();
  EXPECT_EQ(
      repo_->IssueCertificate(RankPlan(PlayerId{9999}, "1d")).status().code(),
      StatusCode::kNotFound);
  IssuePlan theirs = RankPlan(p, "2d");
  theirs.holder_agency = "120";
  EXPECT_EQ(repo_->IssueCertificate(theirs).status().code(),
            StatusCode::kPermissionDenied);
  registry::Player incomplete;
  incomplete.name = "无档案";
  incomplete.agency_prefix = "110";
  incomplete.created_unix = incomplete.updated_unix = kNow;
  auto bare = registry_->InsertPlayer(incomplete, std::nullopt,
                                      Change("player.register"));
  ASSERT_TRUE(bare.ok()) << bare.status();
  auto no_record = repo_->IssueCertificate(RankPlan(*bare, "1d"));
  EXPECT_EQ(no_record.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(no_record.status().message().find("birth date"), std::string::npos)
      << no_record.status();
  EXPECT_EQ(AuditRows(), audit + 1);  // the registration only
  EXPECT_EQ(RankOf(p), R("1k"));
  EXPECT_EQ(registry_->ListRankHistory(p)->size(), 1u);
  EXPECT_EQ(*repo_->CountIssued("110", 2025), 0);
  EXPECT_TRUE(Serials("110", 2025).empty());

  IssuePlan correction = RankPlan(p, "2k");
  correction.draft.correction_reason = "1k was recorded in error";
  const Certificate c = MustIssue(correction);
  EXPECT_EQ(c.number.serial, 1);
  EXPECT_EQ(c.rank_before, R("1k"));
  EXPECT_EQ(RankOf(p), R("2k"));
  const Certificate up = MustIssue(RankPlan(p, "2d"));
  EXPECT_EQ(up.rank_before, R("2k"));
  EXPECT_EQ(RankOf(p), R("2d"));
}

// The agency is judged as stored when the write runs: suspended after the
// domain made its plan, it issues nothing (FAILED_PRECONDITION, no serial,
// no audit entry); an unknown prefix is NOT_FOUND. A retry of a
// certificate issued before the suspension still gets it back.
TEST_P(CertificateRepositoryContract, ASuspendedAgencyIssuesNothing) {
  const PlayerId p = AddPlayer(R("1k"));
  IssuePlan keyed = RankPlan(p, "1d");
  keyed.draft.request_id = "before-1";
  keyed.draft.request_scope = "110";
  keyed.draft.request_hash = "h-before";
  const Certificate before = MustIssue(keyed);
  const IssuePlan planned = RankPlan(p, "2d");  // decided while active
  ASSERT_TRUE(registry_
                  ->SetAgencyStatus("110", registry::AgencyStatus::kSuspended,
                                    "annual review failed",
                                    Change("agency.suspend"))
                  .ok());
  const int64_t audit = AuditRows();
  auto refused = repo_->IssueCertificate(planned);
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition)
      << refused.status();
  EXPECT_NE(refused.status().message().find("annual review failed"),
            std::string::npos)
      << refused.status();
  EXPECT_EQ(repo_->IssueCertificate(Plan(p, "2d", "998")).status().code(),
            StatusCode::kNotFound);
  auto replay = repo_->IssueCertificate(keyed);
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(replay->number, before.number);
  EXPECT_EQ(AuditRows(), audit);
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1}));
  EXPECT_EQ(RankOf(p), R("1d"));
  // Other agencies go on.
  EXPECT_EQ(MustIssue(Plan(p, "2d", "120")).number.ToString(), "120250001");
}

// Two writers (two Database instances on the same database, each on its own
// thread) issue 1d and 2d to one 1k player at once. Each is judged on the
// rank the other left: 1d first, then 2d (both issued); or 2d first, and
// 1d is then below the rank and refused. Either way 2d is issued, the rank
// ends at 2d, the history is one chain (no lost update) and every refused
// write left nothing behind.
TEST_P(CertificateRepositoryContract, RankRaceLosesNoUpdate) {
  const PlayerId p = AddPlayer(R("1k"));
  auto other_db = storage::Database::Open(address_, Keyed());
  ASSERT_TRUE(other_db.ok()) << other_db.status();
  storage::SqlCertificateRepository other(other_db->get());
  CertificateRepository* repos[2] = {repo_.get(), &other};
  const char* grades[2] = {"1d", "2d"};
  const int64_t audit = AuditRows();

  absl::StatusOr<Certificate> results[2] = {absl::UnknownError("not run"),
                                            absl::UnknownError("not run")};
  std::latch start(2);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      const IssuePlan plan = RankPlan(p, grades[i]);
      start.arrive_and_wait();
      results[i] = repos[i]->IssueCertificate(plan);
    });
  }
  for (std::thread& t : threads) t.join();

  ASSERT_TRUE(results[1].ok()) << results[1].status();
  const int issued = results[0].ok() ? 2 : 1;
  if (results[0].ok()) {
    EXPECT_EQ(results[0]->rank_before, R("1k"));
    EXPECT_EQ(results[1]->rank_before, R("1d"));
  } else {
    EXPECT_EQ(results[0].status().code(), StatusCode::kFailedPrecondition)
        << results[0].status();
    EXPECT_EQ(results[1]->rank_before, R("1k"));
  }
  EXPECT_EQ(RankOf(p), R("2d"));
  auto history = registry_->ListRankHistory(p);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u + issued);
  for (size_t i = 1; i < history->size(); ++i)
    EXPECT_EQ((*history)[i].from_rank, (*history)[i - 1].to_rank) << i;
  EXPECT_EQ(history->back().to_rank, R("2d"));
  std::vector<int> serials;
  for (int s = 1; s <= issued; ++s) serials.push_back(s);
  EXPECT_EQ(Serials("110", 2025), serials);
  EXPECT_EQ(AuditRows(), audit + issued);
}

// Two writers on two Database instances issue for the same prefix and year
// at once: every number is used once, none skipped.
TEST_P(CertificateRepositoryContract, RacingIssuancesShareNoSerial) {
  constexpr int kEach = 6;
  std::vector<PlayerId> players;
  for (int i = 0; i < 2 * kEach; ++i) players.push_back(AddPlayer());
  auto other_db = storage::Database::Open(address_, Keyed());
  ASSERT_TRUE(other_db.ok()) << other_db.status();
  storage::SqlCertificateRepository other(other_db->get());
  CertificateRepository* repos[2] = {repo_.get(), &other};
  const int64_t audit = AuditRows();

  std::vector<absl::Status> failures[2];
  std::latch start(2);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      for (int k = 0; k < kEach; ++k) {
        auto c = repos[i]->IssueCertificate(Plan(players[i * kEach + k], "1d"));
        if (!c.ok()) failures[i].push_back(c.status());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& f : failures) {
    for (const absl::Status& s : f) ADD_FAILURE() << s;
  }
  std::vector<int> expected;
  for (int s = 1; s <= 2 * kEach; ++s) expected.push_back(s);
  EXPECT_EQ(Serials("110", 2025), expected);
  EXPECT_EQ(AuditRows(), audit + 2 * kEach);
  ExpectEveryEntryLinked();
}

// Group commit: while one issuance waits to be written (behind a write held
// by the test), three more line up and the batch's writer takes them all
// into its transaction. The third is refused after it wrote (its appraisal
// is not pending): its savepoint is rolled back alone, the other three are
// committed with gapless serials, one audit entry each naming only their
// own rows, and their history entries.
TEST_P(CertificateRepositoryContract, IssuancesLinedUpShareOneCommit) {
  auto* sql = static_cast<storage::SqlCertificateRepository*>(repo_.get());
  PlayerId players[4];
  for (PlayerId& p : players) p = AddPlayer(R("1k"));
  std::vector<IssuePlan> plans = {
      RankPlan(players[0], "1d"), RankPlan(players[1], "1d"),
      RankPlan(players[2], "1d"), RankPlan(players[3], "2d")};
  plans[2].appraisal_id = 4242;  // no such appraisal: refused at the end
  const int64_t audit = AuditRows();
  const auto before = sql->group_commit_stats();
  const std::vector<absl::StatusOr<Certificate>> results =
      LineUpAndIssue(plans);

  const auto after = sql->group_commit_stats();
  EXPECT_EQ(after.batches, before.batches + 1);
  EXPECT_EQ(after.issuances, before.issuances + 4);
  ASSERT_TRUE(results[0].ok()) << results[0].status();
  ASSERT_TRUE(results[1].ok()) << results[1].status();
  ASSERT_TRUE(results[3].ok()) << results[3].status();
  EXPECT_EQ(results[2].status().code(), StatusCode::kFailedPrecondition)
      << results[2].status();
  EXPECT_EQ(results[0]->number.serial, 1);
  EXPECT_EQ(results[1]->number.serial, 2);
  EXPECT_EQ(results[3]->number.serial, 3);
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(AuditRows(), audit + 3);
  EXPECT_EQ(RankOf(players[2]), R("1k"));
  EXPECT_EQ(registry_->ListRankHistory(players[2])->size(), 1u);
  EXPECT_EQ(RankOf(players[3]), R("2d"));
  auto history = registry_->ListRankHistory(players[3]);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ(history->back().basis,
            "certificate " + results[3]->number.ToString());

  // Each of the three entries names the rows of its own holder only.
  const std::vector<std::map<std::string, std::string>> rows =
      EntryRowsAfter(audit);
  ASSERT_EQ(rows.size(), 3u);
  const PlayerId owners[3] = {players[0], players[1], players[3]};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      const std::string key = "players:" + std::to_string(players[j].value);
      EXPECT_EQ(rows[i].count(key), players[j] == owners[i] ? 1u : 0u)
          << "entry " << i << ", " << key;
    }
  }
  // The refused call's entry was rolled back: the fourth call's links to
  // the second's.
  ExpectEveryEntryLinked();
}

// A call refused once it has begun to write (its appraisal is gone) rolls
// the batch's first attempt back: the calls taken are written again in the
// same batch, a savepoint each, and only the refused one is rolled back.
TEST_P(CertificateRepositoryContract, ARefusalAfterWritingRewritesTheBatch) {
  auto* sql = static_cast<storage::SqlCertificateRepository*>(repo_.get());
  std::vector<IssuePlan> plans = {RankPlan(AddPlayer(R("1k")), "1d"),
                                  RankPlan(AddPlayer(R("1k")), "1d"),
                                  RankPlan(AddPlayer(R("1k")), "1d")};
  plans[0].appraisal_id = 4242;  // no such appraisal: refused at the end
  const int64_t audit = AuditRows();
  const std::vector<absl::StatusOr<Certificate>> results =
      LineUpAndIssue(plans);

  EXPECT_EQ(results[0].status().code(), StatusCode::kFailedPrecondition)
      << results[0].status();
  ASSERT_TRUE(results[1].ok()) << results[1].status();
  ASSERT_TRUE(results[2].ok()) << results[2].status();
  EXPECT_EQ(sql->group_commit_stats().issuances, 3);
  ExpectOneBatchWrote(/*rewritten=*/1, {1, 2}, audit, 2);
}

// The stock bounds a batch too: of three calls lined up under a stock of
// two, the third is refused, though on PostgreSQL its stock order was read
// before the rows of the two before it were written.
TEST_P(CertificateRepositoryContract, StockBoundsTheCallsOfOneBatch) {
  ASSERT_TRUE(
      repo_->PutStockOrder(Order("110", 2), Change("stock.order")).ok());
  ASSERT_TRUE(repo_
                  ->ReleaseStockOrder("110", 2025, kNow, "national",
                                      Change("stock.release"))
                  .ok());
  std::vector<IssuePlan> plans;
  for (int i = 0; i < 3; ++i) {
    plans.push_back(Plan(AddPlayer(), "1d"));
    plans.back().uses_stock = true;
  }
  const int64_t audit = AuditRows();
  const std::vector<absl::StatusOr<Certificate>> results =
      LineUpAndIssue(plans);

  ASSERT_TRUE(results[0].ok()) << results[0].status();
  ASSERT_TRUE(results[1].ok()) << results[1].status();
  EXPECT_EQ(results[2].status().code(), StatusCode::kFailedPrecondition)
      << results[2].status();
  ExpectOneBatchWrote(/*rewritten=*/0, {1, 2}, audit, 2);
}

// Calls refused on what they read (no agency, no player) wrote nothing:
// the calls around them in the batch are written in its first attempt.
TEST_P(CertificateRepositoryContract, RefusalsOnReadsLeaveTheBatchWhole) {
  std::vector<IssuePlan> plans = {
      Plan(AddPlayer(), "1d"), Plan(PlayerId{9999}, "1d"),
      Plan(AddPlayer(), "2d"),
      Plan(AddPlayer(), "1d", "999")};  // no such agency
  const int64_t audit = AuditRows();
  const std::vector<absl::StatusOr<Certificate>> results =
      LineUpAndIssue(plans);

  ASSERT_TRUE(results[0].ok()) << results[0].status();
  EXPECT_EQ(results[1].status().code(), StatusCode::kNotFound)
      << results[1].status();
  ASSERT_TRUE(results[2].ok()) << results[2].status();
  EXPECT_EQ(results[3].status().code(), StatusCode::kNotFound)
      << results[3].status();
  EXPECT_EQ(results[0]->number.serial, 1);
  EXPECT_EQ(results[2]->number.serial, 2);
  ExpectOneBatchWrote(/*rewritten=*/0, {1, 2}, audit, 2);
}

// Two calls for one holder in one batch, each setting the rank at once: the
// second is judged on the rank the first set (on PostgreSQL its holder
// read, sent before the first call's writes, is sent again after them),
// and with the same request id twice the second call is answered with the
// first one's certificate. Nothing is written twice, and nothing again.
TEST_P(CertificateRepositoryContract, CallsOfOneBatchSeeEachOthersWrites) {
  const PlayerId holder = AddPlayer(R("1k"));
  const PlayerId other = AddPlayer();
  std::vector<IssuePlan> plans = {RankPlan(holder, "1d"),
                                  RankPlan(holder, "2d"), Plan(other, "3d"),
                                  Plan(other, "3d")};
  plans[2].draft.request_id = plans[3].draft.request_id = "retry-1";
  plans[2].draft.request_scope = plans[3].draft.request_scope = "110";
  plans[2].draft.request_hash = plans[3].draft.request_hash = "same call";
  const int64_t audit = AuditRows();
  const std::vector<absl::StatusOr<Certificate>> results =
      LineUpAndIssue(plans);

  for (const auto& r : results) ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(results[0]->rank_before, R("1k"));
  EXPECT_EQ(results[1]->rank_before, R("1d"));
  EXPECT_EQ(RankOf(holder), R("2d"));
  EXPECT_EQ(results[3]->number, results[2]->number);
  ExpectOneBatchWrote(/*rewritten=*/0, {1, 2, 3}, audit, 3);
  // The second entry names the holder's row as the second call left it.
  const auto rows = EntryRowsAfter(audit);
  ASSERT_EQ(rows.size(), 3u);
  const std::string key = "players:" + std::to_string(holder.value);
  ASSERT_EQ(rows[0].count(key), 1u);
  ASSERT_EQ(rows[1].count(key), 1u);
  EXPECT_NE(rows[0].at(key), rows[1].at(key));
}

// Many callers at once, as rankd under load: batches take calls waiting
// while they write (their first reads sent ahead of them) and calls that
// come later, in every interleaving the threads make. Every certificate is
// its own call's (holder, grade, its audit entry naming its own rows), the
// serials are gapless and every entry links to the one before.
TEST_P(CertificateRepositoryContract, CallersAtOnceEachGetTheirOwnCertificate) {
  constexpr int kThreads = 4;
  constexpr int kEach = 30;
  const char* grades[kThreads] = {"1d", "2d", "3k", "1k"};
  std::vector<PlayerId> players;
  for (int i = 0; i < kThreads * kEach; ++i) players.push_back(AddPlayer());
  const int64_t audit = AuditRows();
  std::vector<std::vector<absl::StatusOr<Certificate>>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kEach; ++k) {
        results[t].push_back(repo_->IssueCertificate(
            RankPlan(players[t * kEach + k], grades[t])));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  std::map<std::string, PlayerId> holder_of;
  for (int t = 0; t < kThreads; ++t) {
    for (int k = 0; k < kEach; ++k) {
      const auto& r = results[t][k];
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(r->player_id, players[t * kEach + k]);
      EXPECT_EQ(r->grade, R(grades[t]));
      auto stored = repo_->GetCertificate(r->number);
      ASSERT_TRUE(stored.ok()) << stored.status();
      EXPECT_EQ(stored->player_id, r->player_id);
      EXPECT_EQ(RankOf(r->player_id), R(grades[t]));
      holder_of[r->number.ToString()] = r->player_id;
    }
  }
  std::vector<int> expected;
  for (int s = 1; s <= kThreads * kEach; ++s) expected.push_back(s);
  EXPECT_EQ(Serials("110", 2025), expected);
  EXPECT_EQ(AuditRows(), audit + kThreads * kEach);
  // Each issuance's entry names its own certificate and holder only.
  int named = 0;
  for (const auto& rows : EntryRowsAfter(audit)) {
    std::vector<std::string> certs, holders;
    for (const auto& [name, digest] : rows) {
      if (name.rfind("certificates:", 0) == 0) certs.push_back(name.substr(13));
      if (name.rfind("players:", 0) == 0) holders.push_back(name.substr(8));
    }
    EXPECT_EQ(certs.size(), 1u);
    EXPECT_EQ(holders.size(), 1u);
    if (certs.size() == 1 && holders.size() == 1) {
      EXPECT_EQ(holders[0], std::to_string(holder_of[certs[0]].value))
          << certs[0];
      ++named;
    }
  }
  EXPECT_EQ(named, kThreads * kEach);
  ExpectEveryEntryLinked();
}

// The commit delay: after a batch of three calls, the next batch, having
// taken the one call that came first, waits for the other two on their way
// instead of committing alone. The delay here is a minute, so the test
// decides when those calls come.
TEST_P(CertificateRepositoryContract, CallsOnTheirWayBackJoinTheNextBatch) {
  storage::SqlCertificateRepository repo(
      db_.get(), storage::SqlCertificateRepository::kMaxBatch,
      [](std::chrono::steady_clock::duration) {
        return std::chrono::steady_clock::duration(std::chrono::minutes(1));
      });
  PlayerId players[6];
  for (PlayerId& p : players) p = AddPlayer(R("1k"));
  absl::StatusOr<Certificate> results[6] = {
      absl::UnknownError("not run"), absl::UnknownError("not run"),
      absl::UnknownError("not run"), absl::UnknownError("not run"),
      absl::UnknownError("not run"), absl::UnknownError("not run")};
  std::vector<std::thread> callers;
  auto start = [&](int i) {
    callers.emplace_back([&, i] {
      results[i] = repo.IssueCertificate(RankPlan(players[i], "1d"));
    });
  };
  // Three calls lined up behind a held write: one batch of three.
  {
    HeldWrite held(db_.get());
    for (int i = 0; i < 3; ++i) {
      start(i);
      repo.AwaitGroupCommit([&](const auto& g) {
        return g.writing && g.waiting == i + 1 && g.issuances == 0;
      });
    }
    held.Release();
  }
  repo.AwaitGroupCommit([](const auto& g) { return g.batches == 1; });
  EXPECT_EQ(repo.group_commit_stats().issuances, 3);
  EXPECT_EQ(repo.group_commit_stats().delayed, 0);
  // Their next calls: the first is written and its batch waits for two more.
  start(3);
  repo.AwaitGroupCommit([](const auto& g) { return g.delayed == 1; });
  start(4);
  start(5);
  for (std::thread& t : callers) t.join();

  const auto after = repo.group_commit_stats();
  EXPECT_EQ(after.batches, 2);
  EXPECT_EQ(after.issuances, 6);
  EXPECT_EQ(after.delayed, 1);
  for (const auto& r : results) ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

// A write the database refuses before the batch's transaction begins (here
// RefuseWrites, as after a failed audit check) answers the waiting calls
// with its error; nothing hangs and nothing is written.
TEST_P(CertificateRepositoryContract, ARefusedWriteAnswersTheWaitingCalls) {
  const PlayerId holder = AddPlayer(R("1k"));
  const int64_t audit = AuditRows();
  db_->RefuseWrites(absl::UnavailableError("audit log check failed"));
  auto c = repo_->IssueCertificate(RankPlan(holder, "1d"));
  EXPECT_EQ(c.status().code(), StatusCode::kUnavailable) << c.status();
  EXPECT_EQ(c.status().message(), "audit log check failed");
  EXPECT_TRUE(Serials("110", 2025).empty());
  EXPECT_EQ(AuditRows(), audit);
}

// One call at a time: no batch ever waits for another call.
TEST_P(CertificateRepositoryContract, OneCallAtATimeNeverWaits) {
  storage::SqlCertificateRepository repo(
      db_.get(), storage::SqlCertificateRepository::kMaxBatch,
      [](std::chrono::steady_clock::duration) {
        return std::chrono::steady_clock::duration(std::chrono::minutes(1));
      });
  for (int i = 0; i < 3; ++i) {
    auto c = repo.IssueCertificate(RankPlan(AddPlayer(R("1k")), "1d"));
    ASSERT_TRUE(c.ok()) << c.status();
  }
  const auto stats = repo.group_commit_stats();
  EXPECT_EQ(stats.batches, 3);
  EXPECT_EQ(stats.delayed, 0);
}

// The same request id in the same scope: the same request gets the first
// certificate back (answered before any rule: the rank has changed since),
// another request ALREADY_EXISTS; nothing is written either way. Other
// scopes' ids never meet.
TEST_P(CertificateRepositoryContract, RequestIdReplaysTheFirstResult) {
  const PlayerId p = AddPlayer(R("1k"));
  auto keyed = [&](const char* grade, const std::string& scope,
                   const std::string& hash) {
    IssuePlan plan = RankPlan(p, grade);
    plan.draft.request_id = "retry-7";
    plan.draft.request_scope = scope;
    plan.draft.request_hash = hash;
    return plan;
  };
  const Certificate first = MustIssue(keyed("1d", "110", "h1"));
  const int64_t audit = AuditRows();

  auto replay = repo_->IssueCertificate(keyed("1d", "110", "h1"));
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(replay->number, first.number);
  EXPECT_EQ(replay->grade, R("1d"));
  auto conflict = repo_->IssueCertificate(keyed("2d", "110", "h2"));
  EXPECT_EQ(conflict.status().code(), StatusCode::kAlreadyExists)
      << conflict.status();
  EXPECT_EQ(AuditRows(), audit);
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1}));
  EXPECT_EQ(RankOf(p), R("1d"));

  auto found = repo_->FindByRequestId("110", "retry-7");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->number, first.number);
  EXPECT_FALSE(repo_->FindByRequestId("000", "retry-7")->has_value());
  EXPECT_FALSE(repo_->FindByRequestId("110", "retry-8")->has_value());

  // The national admin's scope: the same id is a new request.
  IssuePlan national = keyed("2d", "000", "h3");
  const Certificate other = MustIssue(national);
  EXPECT_EQ(other.number.serial, 2);
  EXPECT_EQ((*repo_->FindByRequestId("000", "retry-7"))->number, other.number);
  EXPECT_EQ((*repo_->FindByRequestId("110", "retry-7"))->number, first.number);
}

// Notice, revocation and objections: each decision once, FAILED_PRECONDITION
// (nothing written) the second time; an upheld objection revokes.
TEST_P(CertificateRepositoryContract, NoticeRevocationAndObjectionsDecideOnce) {
  const PlayerId p = AddPlayer(R("3d"));
  IssuePlan plan = Plan(p, "4d");
  plan.draft.notice_until_unix = kNow + 86400;
  const Certificate c = MustIssue(plan);
  CertificateFilter pending;
  pending.only_pending_notice = true;
  ASSERT_EQ(repo_->ListCertificates(pending)->size(), 1u);

  auto objection = repo_->InsertObjection(
      NewObjection(c.number, "not the winner", kNow + 10),
      Change("objection.lodge"));
  ASSERT_TRUE(objection.ok()) << objection.status();
  EXPECT_TRUE(repo_->GetCertificate(c.number)->has_open_objection);
  const Objection ghost =
      NewObjection(*CertificateNumber::Parse("110250099"), "x", kNow);
  EXPECT_EQ(repo_->InsertObjection(ghost, Change("x")).status().code(),
            StatusCode::kNotFound);
  ASSERT_TRUE(repo_
                  ->DecideObjection(*objection, ObjectionState::kDismissed,
                                    "unfounded", kNow + 20,
                                    Change("objection.decide"))
                  .ok());
  auto decided = repo_->GetObjection(*objection);
  ASSERT_TRUE(decided.ok()) << decided.status();
  EXPECT_EQ(decided->state, ObjectionState::kDismissed);
  EXPECT_EQ(decided->decision_note, "unfounded");
  EXPECT_EQ(decided->decided_unix, kNow + 20);
  EXPECT_EQ(decided->text, "not the winner");
  EXPECT_FALSE(repo_->GetCertificate(c.number)->has_open_objection);

  const RankHistoryEntry settle = History(p, R("3d"), R("4d"), Date{2025, 6, 3},
                                          RankChangeReason::kCertificate,
                                          "certificate " + c.number.ToString());
  ASSERT_TRUE(
      repo_->SettleNotice(c.number, settle, R("3d"), Change("notice.settle"))
          .ok());
  EXPECT_EQ(RankOf(p), R("4d"));
  EXPECT_TRUE(repo_->GetCertificate(c.number)->rank_applied);
  EXPECT_EQ(repo_->GetCertificate(c.number)->rank_before, R("3d"));
  EXPECT_TRUE(repo_->ListCertificates(pending)->empty());

  int64_t audit = AuditRows();
  EXPECT_EQ(
      repo_->SettleNotice(c.number, std::nullopt, R("3d"), Change("x")).code(),
      StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_
                ->DecideObjection(*objection, ObjectionState::kUpheld, "again",
                                  kNow + 30, Change("x"))
                .code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_->GetObjection(*objection + 100).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(AuditRows(), audit);

  // A second objection, upheld: the certificate is revoked with it.
  auto second =
      repo_->InsertObjection(NewObjection(c.number, "forged result", kNow + 40),
                             Change("objection.lodge"));
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_EQ(repo_->ListObjections(c.number)->size(), 2u);
  ASSERT_TRUE(repo_
                  ->DecideObjection(*second, ObjectionState::kUpheld, "forged",
                                    kNow + 50, Change("objection.decide"))
                  .ok());
  EXPECT_EQ(repo_->GetCertificate(c.number)->revoked_unix, kNow + 50);
  audit = AuditRows();
  EXPECT_EQ(
      repo_->Revoke(c.number, kNow + 60, "twice", std::nullopt, Change("x"))
          .code(),
      StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_->GetCertificate(c.number)->revoked_unix, kNow + 50);
  EXPECT_EQ(AuditRows(), audit);
}

// An appraisal is decided once: rejected, or approved by the issuance that
// names it; an issuance naming a decided one is refused whole.
TEST_P(CertificateRepositoryContract, AppraisalsAreDecidedOnce) {
  const PlayerId p = AddPlayer();
  Appraisal a;
  a.player_id = p;
  a.grade = R("3d");
  a.agency_prefix = "110";
  a.note = "strong results";
  a.recommended_by = "agency:110/token:2";
  a.recommended_unix = kNow;
  auto first = repo_->InsertAppraisal(a, Change("appraisal.recommend"));
  auto second = repo_->InsertAppraisal(a, Change("appraisal.recommend"));
  ASSERT_TRUE(first.ok() && second.ok()) << first.status() << second.status();
  EXPECT_LT(*first, *second);
  ASSERT_EQ(repo_->ListAppraisals("110", true)->size(), 2u);
  EXPECT_TRUE(repo_->ListAppraisals("120", false)->empty());
  // Keyset-paged (ListAppraisalsAfter): above an id, by id, a limit.
  auto page = repo_->ListAppraisalsAfter("110", true, 0, 1);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 1u);
  EXPECT_EQ((*page)[0].id, *first);
  auto rest = repo_->ListAppraisalsAfter("110", true, *first, 5);
  ASSERT_TRUE(rest.ok()) << rest.status();
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ((*rest)[0].id, *second);
  EXPECT_TRUE(repo_->ListAppraisalsAfter("", false, *second, 5)->empty());
  EXPECT_TRUE(repo_->ListAppraisalsAfter("120", false, 0, 5)->empty());

  IssuePlan plan = Plan(p, "3d");
  plan.draft.basis = Basis::kAppraisal;
  plan.appraisal_id = *first;
  plan.appraisal_note = "approved";
  const Certificate c = MustIssue(plan);
  auto approved = repo_->GetAppraisal(*first);
  ASSERT_TRUE(approved.ok()) << approved.status();
  EXPECT_EQ(approved->state, AppraisalState::kApproved);
  EXPECT_EQ(approved->certificate_number, c.number.ToString());
  EXPECT_EQ(approved->decision_note, "approved");
  ASSERT_TRUE(
      repo_->RejectAppraisal(*second, "too early", kNow, Change("x")).ok());
  EXPECT_EQ(repo_->GetAppraisal(*second)->state, AppraisalState::kRejected);
  EXPECT_TRUE(repo_->ListAppraisals("110", true)->empty());
  ASSERT_EQ(repo_->ListAppraisals("110", false)->size(), 2u);

  const int64_t audit = AuditRows();
  EXPECT_EQ(repo_->RejectAppraisal(*first, "late", kNow, Change("x")).code(),
            StatusCode::kFailedPrecondition);
  auto again = repo_->IssueCertificate(plan);
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition)
      << again.status();
  EXPECT_EQ(repo_->GetAppraisal(*first + 100).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(Serials("110", 2025), (std::vector<int>{1}));
  EXPECT_EQ(AuditRows(), audit);
}

// Historic certificates under their original numbers (rankctl cert
// import): stored whole with the rank changes, the serial counter raised
// past them (never lowered) and one audit entry; they use no stock. A
// number taken meanwhile or a rank changed meanwhile is ABORTED and nothing
// of the import is stored. LookupForImport reads them and their holders back.
TEST_P(CertificateRepositoryContract, ImportsAreStoredWholeOrNotAtAll) {
  const PlayerId holder = AddPlayer();
  const PlayerId other = AddPlayer(R("1k"));
  auto historic = [&](const char* number, const char* grade, PlayerId p) {
    Certificate c;
    c.number = *CertificateNumber::Parse(number);
    c.year = 2023;
    c.player_id = p;
    c.grade = R(grade);
    c.issue_date = Date{2023, 5, 1};
    c.basis = Basis::kTournament;
    c.basis_reference = "2023 provincial championship";
    c.issued_by = "agency:110/token:2";
    c.issued_unix = kNow;
    c.rank_applied = true;
    return c;
  };
  certificates::ImportPlan plan;
  plan.items = {{historic("110230005", "2d", holder), 2},
                {historic("110230007", "3d", holder), 3}};
  plan.items[1].certificate.rank_before = R("2d");
  plan.file_name = "old.csv";
  plan.file_sha256 = std::string(64, 'a');
  plan.imported_unix = kNow;
  plan.rank_changes = {
      History(holder, std::nullopt, R("2d"), Date{2023, 5, 1},
              RankChangeReason::kCertificate, "certificate 110230005"),
      History(holder, R("2d"), R("3d"), Date{2023, 5, 1},
              RankChangeReason::kCertificate, "certificate 110230007")};
  plan.last_serials = {{{"110", 2023}, 7}};
  plan.audit = Change("certificate.import");
  const int64_t audit = AuditRows();
  ASSERT_TRUE(repo_->StoreImport(plan).ok());
  EXPECT_EQ(AuditRows(), audit + 1);
  auto got = repo_->GetCertificate(*CertificateNumber::Parse("110230007"));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(got->imported);
  EXPECT_EQ(got->grade, R("3d"));
  EXPECT_EQ(got->rank_before, R("2d"));
  EXPECT_EQ(got->issue_date, (Date{2023, 5, 1}));
  EXPECT_EQ(RankOf(holder), R("3d"));
  EXPECT_EQ(registry_->ListRankHistory(holder)->size(), 2u);
  EXPECT_EQ(*repo_->CountIssued("110", 2023), 0);  // no stock used
  EXPECT_EQ(Serials("110", 2023), (std::vector<int>{5, 7}));

  // Issuance goes on after the highest imported serial; a later import
  // with a lower one leaves the counter where it is.
  IssuePlan next = Plan(other, "1d");
  next.draft.number.yy = 23;
  next.draft.year = 2023;
  EXPECT_EQ(MustIssue(next).number.ToString(), "110230008");
  EXPECT_FALSE(
      repo_->GetCertificate(*CertificateNumber::Parse("110230008"))->imported);
  certificates::ImportPlan low;
  low.items = {{historic("110230002", "1d", other), 2}};
  low.file_name = "older.csv";
  low.file_sha256 = std::string(64, 'b');
  low.last_serials = {{{"110", 2023}, 2}};
  low.audit = Change("certificate.import");
  ASSERT_TRUE(repo_->StoreImport(low).ok());
  EXPECT_EQ(MustIssue(next).number.serial, 9);

  // A number stored meanwhile, or a rank changed meanwhile: nothing at all.
  const int64_t before = AuditRows();
  certificates::ImportPlan taken;
  taken.items = {{historic("110230003", "1d", other), 2},
                 {historic("110230005", "1d", other), 3}};
  taken.last_serials = {{{"110", 2023}, 20}};
  taken.audit = Change("certificate.import");
  absl::Status refused = repo_->StoreImport(taken);
  EXPECT_EQ(refused.code(), StatusCode::kAborted) << refused;
  certificates::ImportPlan stale;
  stale.items = {{historic("110230004", "2d", other), 2}};
  stale.rank_changes = {History(other, R("2k"), R("2d"), Date{2023, 5, 1},
                                RankChangeReason::kCertificate, "stale")};
  stale.audit = Change("certificate.import");
  refused = repo_->StoreImport(stale);
  EXPECT_EQ(refused.code(), StatusCode::kAborted) << refused;
  EXPECT_EQ(AuditRows(), before);
  EXPECT_EQ(Serials("110", 2023), (std::vector<int>{2, 5, 7, 8, 9}));
  EXPECT_EQ(RankOf(other), R("1k"));
  EXPECT_EQ(MustIssue(next).number.serial, 10);

  certificates::ImportLookupQuery q;
  q.numbers = {"110230005", "110230006"};
  q.player_ids = {other, PlayerId{999}};
  auto lookup = repo_->LookupForImport(q);
  ASSERT_TRUE(lookup.ok()) << lookup.status();
  ASSERT_EQ(lookup->certificates.size(), 1u);
  EXPECT_EQ(lookup->certificates.at("110230005").player_id, holder);
  EXPECT_TRUE(lookup->certificates.at("110230005").imported);
  EXPECT_EQ(lookup->players.size(), 2u);  // the holder and `other`
  EXPECT_EQ(lookup->players.at(holder.value).rank, R("3d"));
  EXPECT_EQ(lookup->players.count(999), 0u);
}

INSTANTIATE_TEST_SUITE_P(Repositories, CertificateRepositoryContract,
                         ::testing::ValuesIn(SqlEngines()),
                         [](const ::testing::TestParamInfo<SqlEngine>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gorank::storage_test
