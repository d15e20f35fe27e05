// IndexFollower (services/certificates/index_follower.h) over the real audit
// log of the fixture's database (SQLite, and PostgreSQL in the pg. run): the
// fixture's office writes as "another instance" would (no index of its
// own); an office reading the index sees each write after one CatchUp, as
// the database does; the watchdog sets the index aside when the follower
// has not caught up within the bound (reads go to the database) and brings
// it back; a lost feed is reconnected and replayed; an invalidated index
// and a log shorter than the position are rebuilt; a missing position is
// waited for.
#include "services/certificates/index_follower.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "services/audit/audit_entry.h"
#include "tests/certificates/certification_fixture.h"

namespace gorank::certificates {
namespace {

using std::chrono::milliseconds;

// The feed over the fixture's database: the audit log's entries and the rows
// they name, read with the Database wrapper (what PgChangeFeed reads with
// one query on PostgreSQL). `broken` makes every call fail as a lost
// connection does; `hidden` leaves positions out (a commit not visible yet).
class LogFeed : public ChangeFeed {
 public:
  explicit LogFeed(storage::Database* db) : db_(db) {}

  absl::Status Connect() override {
    ++connects;
    return broken ? Lost() : absl::OkStatus();
  }
  absl::StatusOr<int64_t> Head() override {
    if (broken) return Lost();
    if (head_override >= 0) return head_override;
    int64_t head = 0;
    absl::Status s = db_->Read([&](storage::Connection& c) -> absl::Status {
      auto st = c.Prepare("SELECT coalesce(max(seq), 0) FROM audit_log");
      if (!st.ok()) return st.status();
      auto row = (*st)->Step();
      if (!row.ok()) return row.status();
      head = (*st)->Int(0);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return head;
  }
  absl::StatusOr<std::vector<FeedChange>> After(int64_t seq,
                                                int limit) override {
    if (broken) return Lost();
    std::vector<FeedChange> out;
    absl::Status s = db_->Read([&](storage::Connection& c) -> absl::Status {
      auto st = c.Prepare(
          "SELECT seq, entry FROM audit_log WHERE seq > ?1 AND seq <= ?2 "
          "ORDER BY seq");
      if (!st.ok()) return st.status();
      (*st)->Bind(1, seq).Bind(2, seq + limit);
      while (true) {
        auto row = (*st)->Step();
        if (!row.ok()) return row.status();
        if (!*row) return absl::OkStatus();
        FeedChange change;
        change.seq = (*st)->Int(0);
        if (hidden.count(change.seq)) continue;
        auto entry = audit::AuditEntry::Decode((*st)->Blob(1));
        if (!entry.ok()) return entry.status();
        for (const auto& [name, digest] : entry->rows)
          change.rows.push_back(name);
        out.push_back(std::move(change));
      }
    });
    if (!s.ok()) return s;
    return out;
  }
  absl::Status Wait(milliseconds) override { return absl::OkStatus(); }
  void Interrupt() override {}

  bool broken = false;
  int connects = 0;
  int64_t head_override = -1;
  std::set<int64_t> hidden;

 private:
  static absl::Status Lost() {
    return absl::UnavailableError("change feed: connection lost");
  }
  storage::Database* db_;
};

class IndexFollowerTest : public CertificationFixture {
 protected:
  IndexFollowerTest() : feed_(db_.get()) {
    FollowerOptions options;
    options.poll = milliseconds(100);
    options.stale_after = milliseconds(1000);
    options.batch = 3;  // several queries a round
    options.gap_wait = milliseconds(60000);
    follower_ = std::make_unique<IndexFollower>(
        &index_, cert_repo_.get(), registry_repo_.get(), &feed_, options,
        [this](bool error, const std::string& what) {
          (error ? errors_ : notes_).push_back(what);
        });
  }

  void SetUp() override {
    GiveStock("110", 2025, 20);
    holder_ = MustRegister("张三", "110", R("1k"));
    first_ = MustIssue(op110_, Request(holder_, "2d")).number;
    // The position before the build, as rankd takes it.
    auto head = feed_.Head();
    ASSERT_TRUE(head.ok()) << head.status();
    follower_->SetPosition(*head);
    ASSERT_TRUE(index_.Build(cert_repo_.get(), registry_repo_.get()).ok());
    reader_ = std::make_unique<Certification>(cert_repo_.get(),
                                              registry_repo_.get(), &clock_);
    reader_->SetPublicIndex(&index_);
  }

  // The index's answer (through `reader_`) and the database's (the fixture's
  // office has no index) for `n` and `name`.
  void ExpectSameVerify(const CertificateNumber& n, const std::string& name,
                        const std::string& when) {
    auto a = reader_->Verify(n.ToString(), name);
    auto b = office_->Verify(n.ToString(), name);
    ASSERT_TRUE(a.ok() && b.ok()) << a.status() << b.status();
    EXPECT_EQ(a->outcome, b->outcome) << when;
    EXPECT_EQ(a->grade, b->grade) << when;
    EXPECT_EQ(a->masked_holder, b->masked_holder) << when;
  }
  VerifyOutcome IndexOutcome(const CertificateNumber& n,
                             const std::string& name) {
    auto a = reader_->Verify(n.ToString(), name);
    EXPECT_TRUE(a.ok()) << a.status();
    return a.ok() ? a->outcome : VerifyOutcome::kNotValid;
  }

  PublicIndex index_;
  LogFeed feed_;
  std::unique_ptr<IndexFollower> follower_;
  std::unique_ptr<Certification> reader_;
  std::vector<std::string> errors_, notes_;
  registry::Player holder_;
  CertificateNumber first_;
};

TEST_F(IndexFollowerTest, AnotherWritersChangesReachTheIndexAfterOneRound) {
  ASSERT_TRUE(index_.usable());
  // Issued elsewhere: unknown to the index until the follower applies it.
  const CertificateNumber second =
      MustIssue(op110_, Request(holder_, "3d")).number;
  const CertificateNumber noticed =
      MustIssue(national_, Request(holder_, "5d", "000")).number;
  EXPECT_EQ(IndexOutcome(second, "张三"), VerifyOutcome::kNotValid);
  ASSERT_TRUE(follower_->CatchUp().ok());
  for (const auto& n : {first_, second, noticed})
    ExpectSameVerify(n, "张三", "after issue " + n.ToString());
  EXPECT_EQ(IndexOutcome(second, "张三"), VerifyOutcome::kValid);

  // Revoked, objected to, holder renamed and ranked: each after a round.
  ASSERT_TRUE(office_->Revoke(op110_, second.ToString(), "error").ok());
  ASSERT_TRUE(office_
                  ->LodgeObjection(public_, noticed.ToString(),
                                   "not at that event", "a@b.c")
                  .ok());
  registry::PlayerPatch patch;
  patch.name = "张三丰";
  ASSERT_TRUE(registry_->Update(national_, holder_.id, patch).ok());
  EXPECT_EQ(IndexOutcome(second, "张三"), VerifyOutcome::kValid);  // stale
  ASSERT_TRUE(follower_->CatchUp().ok());
  EXPECT_EQ(IndexOutcome(second, "张三丰"), VerifyOutcome::kRevoked);
  for (const auto& n : {first_, second, noticed}) {
    ExpectSameVerify(n, "张三丰", "after revoke/objection/rename");
    ExpectSameVerify(n, "张三", "old name");
  }
  PublicCertificate c;
  ASSERT_TRUE(index_.FindCertificate(noticed, &c));
  EXPECT_TRUE(c.has_open_objection);
  PublicHolder h;
  ASSERT_TRUE(index_.FindHolder(holder_.id, &h));
  EXPECT_EQ(h.name, "张三丰");
  EXPECT_EQ(h.rank, RankOf(holder_.id));
  EXPECT_EQ(follower_->stats().position, *feed_.Head());
  EXPECT_TRUE(errors_.empty()) << errors_.front();
}

TEST_F(IndexFollowerTest, SetAsideWhileNotCaughtUpWithinTheBound) {
  ASSERT_TRUE(follower_->CatchUp().ok());
  const auto now = std::chrono::steady_clock::now();
  follower_->CheckFreshness(now);
  EXPECT_TRUE(index_.usable());
  // The feed is lost and a write commits elsewhere: past the bound the index
  // is set aside, and verify answers from the database.
  feed_.broken = true;
  EXPECT_TRUE(absl::IsUnavailable(follower_->CatchUp()));
  const CertificateNumber later =
      MustIssue(op110_, Request(holder_, "3d")).number;
  follower_->CheckFreshness(now + milliseconds(1001) + milliseconds(50));
  EXPECT_FALSE(index_.usable());
  EXPECT_TRUE(follower_->stats().stale);
  EXPECT_EQ(IndexOutcome(later, "张三"), VerifyOutcome::kValid);  // database
  ASSERT_FALSE(errors_.empty());
  EXPECT_NE(errors_.back().find("set aside"), std::string::npos)
      << errors_.back();
  // Back: connected again, replayed from the position, caught up.
  feed_.broken = false;
  ASSERT_TRUE(follower_->CatchUp().ok());
  follower_->CheckFreshness(std::chrono::steady_clock::now());
  EXPECT_TRUE(index_.usable());
  EXPECT_FALSE(follower_->stats().stale);
  EXPECT_EQ(IndexOutcome(later, "张三"), VerifyOutcome::kValid);  // index
  PublicCertificate c;
  EXPECT_TRUE(index_.FindCertificate(later, &c));
  EXPECT_EQ(follower_->stats().reconnects, 1);
  EXPECT_EQ(follower_->stats().rebuilds, 0);  // replayed, not rebuilt
  EXPECT_EQ(feed_.connects, 2);
}

TEST_F(IndexFollowerTest, RebuildsAnInvalidatedIndexAndAShorterLog) {
  ASSERT_TRUE(follower_->CatchUp().ok());
  index_.Invalidate(absl::UnavailableError("read-back failed"));
  ASSERT_FALSE(index_.usable());
  const CertificateNumber later =
      MustIssue(op110_, Request(holder_, "3d")).number;
  ASSERT_TRUE(follower_->CatchUp().ok());
  EXPECT_TRUE(index_.usable());
  EXPECT_EQ(follower_->stats().rebuilds, 1);
  EXPECT_EQ(IndexOutcome(later, "张三"), VerifyOutcome::kValid);

  // After a reconnect the log ends before the position (another database):
  // built again from what is there.
  feed_.broken = true;
  EXPECT_FALSE(follower_->CatchUp().ok());
  feed_.broken = false;
  feed_.head_override = 1;
  ASSERT_TRUE(follower_->CatchUp().ok());
  EXPECT_EQ(follower_->stats().rebuilds, 2);
  EXPECT_TRUE(index_.usable());
  ASSERT_FALSE(errors_.empty());
  EXPECT_NE(errors_.back().find("rebuilding"), std::string::npos)
      << errors_.back();
}

TEST_F(IndexFollowerTest, AMissingPositionIsWaitedFor) {
  ASSERT_TRUE(follower_->CatchUp().ok());
  const int64_t before = follower_->stats().position;
  const CertificateNumber a = MustIssue(op110_, Request(holder_, "3d")).number;
  const registry::Player other = MustRegister("李四", "110", R("2k"));
  const CertificateNumber b = MustIssue(op110_, Request(other, "1k")).number;
  // The first issue's entries are not visible yet: nothing after them is
  // applied (the index never holds a later write without an earlier one).
  feed_.hidden.insert(before + 1);
  ASSERT_TRUE(follower_->CatchUp().ok());
  EXPECT_EQ(follower_->stats().position, before);
  PublicCertificate c;
  EXPECT_FALSE(index_.FindCertificate(b, &c));
  feed_.hidden.clear();
  ASSERT_TRUE(follower_->CatchUp().ok());
  EXPECT_TRUE(index_.FindCertificate(a, &c));
  EXPECT_TRUE(index_.FindCertificate(b, &c));
  EXPECT_EQ(follower_->stats().position, *feed_.Head());
}

}  // namespace
}  // namespace gorank::certificates
