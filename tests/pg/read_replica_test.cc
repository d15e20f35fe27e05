// rankd on a PostgreSQL hot standby (issue #19 item 4), run only as
// "pg.ReadReplicaTest.*": a private primary and a standby made from it with
// pg_basebackup -R (pg_server.sh start / standby), rankd A on the primary and
// rankd B with db = the primary and db_read_replica = the standby. What A
// writes (register, issue, revoke) B's public reads show once the standby
// replayed it, and B's verify (from its public index, whose follower reads
// the primary's audit log: README "Running N instances") within the index's
// bound (polled with a deadline; the lags seen are printed); while the
// standby's replay is paused B answers the public from the replica as it
// stands (stale, not refused), a caller with a token from the primary, and a
// write sent to B lands on the primary; with the standby stopped B's public
// reads go on from the primary after at most one UNAVAILABLE.
#include <libpq-fe.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>

#include "tests/pg/multi_instance_fixture.h"
#include "tests/testing/test_database.h"

namespace gorank::pg_test {
namespace {

namespace hv1 = grpc::health::v1;
using std::chrono::milliseconds;

// How long a write may take to show on the standby before the test fails:
// far above the loopback replay lag (milliseconds), for a loaded CI machine.
constexpr milliseconds kLagDeadline(10000);

// Runs `sql` on `url`; "" or the error.
std::string Sql(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::string error;
  if (PQstatus(conn) != CONNECTION_OK) {
    error = PQerrorMessage(conn);
  } else {
    PGresult* r = PQexec(conn, sql.c_str());
    if (PQresultStatus(r) != PGRES_TUPLES_OK &&
        PQresultStatus(r) != PGRES_COMMAND_OK)
      error = PQresultErrorMessage(r);
    PQclear(r);
  }
  PQfinish(conn);
  return error;
}

bool ServerBinariesInstalled() {
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
    if (std::filesystem::exists(e.path() / "bin" / "pg_basebackup"))
      return true;
  }
  return false;
}

class ReadReplicaTest : public MultiInstanceFixture {
 protected:
  void SetUp() override {
    if (!gorank::testing::TestOnPostgres())
      GTEST_SKIP() << "needs PostgreSQL (run as pg.*)";
    if (!ServerBinariesInstalled())
      GTEST_SKIP() << "PostgreSQL server binaries (pg_basebackup) missing: "
                      "apt-get install postgresql";
    // The servers run as user postgres when we are root.
    std::filesystem::permissions(dir_.path(),
                                 std::filesystem::perms::owner_all |
                                     std::filesystem::perms::group_exec |
                                     std::filesystem::perms::others_exec);
    ASSERT_EQ(primary_.Do("start"), 0) << primary_.output();
    ASSERT_EQ(standby_.Do("standby", primary_.dir()), 0) << standby_.output();
    a_.name = "a";
    ASSERT_NO_FATAL_FAILURE(Start(a_, primary_.Url()));
    b_.name = "b";
    ASSERT_NO_FATAL_FAILURE(
        Start(b_, primary_.Url(), {"--db-read-replica", standby_.Url()}));
  }

  grpc::Status GetPlayer(Instance& inst, bool admin, int64_t id,
                         v1::Player* out) {
    v1::GetPlayerRequest req;
    req.set_player_id(id);
    v1::GetPlayerResponse resp;
    const grpc::Status s =
        inst.players->GetPlayer(Context(admin).get(), req, &resp);
    if (s.ok()) *out = resp.player();
    return s;
  }
  // The public's verification of `number` held by `name` through `inst`.
  v1::VerifyOutcome Verify(Instance& inst, const std::string& number,
                           const std::string& name, grpc::Status* status) {
    v1::VerifyCertificateRequest req;
    req.set_number(number);
    req.set_holder_name(name);
    v1::VerifyCertificateResponse resp;
    *status = inst.certs->VerifyCertificate(Context(false).get(), req, &resp);
    return resp.outcome();
  }
  // Polls `done` until it is true; the milliseconds that took, or -1 when
  // kLagDeadline passed first.
  template <typename F>
  static int64_t MsUntil(F done) {
    const auto start = std::chrono::steady_clock::now();
    if (!PollUntil(done, kLagDeadline)) return -1;
    return std::chrono::duration_cast<milliseconds>(
               std::chrono::steady_clock::now() - start)
        .count();
  }
  // MsUntil Verify through B answers `want`. Every answer must be OK.
  int64_t MsUntilBVerifies(const std::string& number, const std::string& name,
                           v1::VerifyOutcome want) {
    return MsUntil([&] {
      grpc::Status s;
      const v1::VerifyOutcome got = Verify(b_, number, name, &s);
      EXPECT_TRUE(s.ok()) << s.error_message();
      return got == want;
    });
  }

  PrivateServer primary_{dir_.File("primary"), dir_.File("primary_sh")};
  PrivateServer standby_{dir_.File("standby"), dir_.File("standby_sh")};
  Instance a_;
  Instance b_;
};

TEST_F(ReadReplicaTest, PublicReadsFollowTheStandbyWritesGoToThePrimary) {
  // Written through A: B's public verify shows it once the standby has it.
  v1::Player holder;
  grpc::Status s = Register(a_, "复制者", "1k", &holder);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // GetPlayer for the public is read on the standby: its replay lag.
  v1::Player read;
  const int64_t replayed_ms = MsUntil(
      [&] { return GetPlayer(b_, /*admin=*/false, holder.id(), &read).ok(); });
  ASSERT_GE(replayed_ms, 0)
      << "the standby never showed player " << holder.id();
  v1::Certificate cert;
  s = Issue(a_, holder.id(), "1d", "replica-1", &cert);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const int64_t issued_ms =
      MsUntilBVerifies(cert.number(), "复制者", v1::VERIFY_OUTCOME_VALID);
  ASSERT_GE(issued_ms, 0) << "B never verified " << cert.number() << ":\n"
                          << testing::ReadFile(b_.log);
  v1::LookupRankRequest lookup;
  lookup.set_name("复制者");
  v1::LookupRankResponse found;
  s = b_.certs->LookupRank(Context(false).get(), lookup, &found);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(found.players_size(), 1);
  EXPECT_EQ(found.players(0).rank().notation(), "1d");

  v1::RevokeCertificateRequest revoke;
  revoke.set_number(cert.number());
  revoke.set_reason("issued in error (replica test)");
  v1::RevokeCertificateResponse revoked;
  s = a_.certs->RevokeCertificate(Context().get(), revoke, &revoked);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const int64_t revoked_ms =
      MsUntilBVerifies(cert.number(), "复制者", v1::VERIFY_OUTCOME_REVOKED);
  ASSERT_GE(revoked_ms, 0) << "B never saw the revocation";
  std::cout << "[ MEASURED ] write through A visible to B's public read on "
               "the standby after "
            << replayed_ms << " ms (register), to B's verify after "
            << issued_ms << " ms (issue), " << revoked_ms
            << " ms (revoke), polled every 50 ms\n";

  // The standby stops replaying: B answers the public from it as it stands.
  ASSERT_EQ(Sql(standby_.Url(), "SELECT pg_wal_replay_pause()"), "");
  v1::Player late;
  s = Register(a_, "迟到者", "2k", &late);
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = GetPlayer(b_, /*admin=*/false, late.id(), &read);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND)
      << "B's public read did not come from the paused standby: "
      << s.error_message();
  // Not refused: what the standby holds is answered.
  s = GetPlayer(b_, /*admin=*/false, holder.id(), &read);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Verify(b_, cert.number(), "复制者", &s),
            v1::VERIFY_OUTCOME_REVOKED);
  EXPECT_TRUE(s.ok()) << s.error_message();
  // A caller with a token reads the primary through B.
  s = GetPlayer(b_, /*admin=*/true, late.id(), &read);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(read.name(), "迟到者");
  // A write sent to B goes to the primary: A sees it at once, B's public
  // reads only once the standby replays again.
  v1::Player via_b;
  s = Register(b_, "经乙者", "3k", &via_b);
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = GetPlayer(a_, /*admin=*/false, via_b.id(), &read);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(read.name(), "经乙者");
  s = GetPlayer(b_, /*admin=*/false, via_b.id(), &read);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  EXPECT_EQ(Health(b_), hv1::HealthCheckResponse::SERVING);
  // B's verify answers from its public index, which follows the primary's
  // audit log: a certificate issued now is VALID through B within the
  // index's bound while the standby still lacks its holder.
  v1::Certificate late_cert;
  s = Issue(a_, late.id(), "1d", "replica-2", &late_cert);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_GE(
      MsUntilBVerifies(late_cert.number(), "迟到者", v1::VERIFY_OUTCOME_VALID),
      0);
  EXPECT_EQ(GetPlayer(b_, /*admin=*/false, late.id(), &read).error_code(),
            grpc::StatusCode::NOT_FOUND);

  ASSERT_EQ(Sql(standby_.Url(), "SELECT pg_wal_replay_resume()"), "");
  EXPECT_TRUE(
      PollUntil([&] { return GetPlayer(b_, false, via_b.id(), &read).ok(); },
                kLagDeadline))
      << "B's public read never saw the write made through B";

  // The standby goes away: at most one public read fails (UNAVAILABLE),
  // then B reads the primary for them.
  ASSERT_EQ(standby_.Do("pause"), 0) << standby_.output();
  int failures = 0;
  EXPECT_TRUE(PollUntil(
      [&] {
        const grpc::Status r = GetPlayer(b_, false, late.id(), &read);
        if (r.ok()) return true;
        EXPECT_EQ(r.error_code(), grpc::StatusCode::UNAVAILABLE)
            << r.error_message();
        ++failures;
        return false;
      },
      kLagDeadline))
      << "B's public reads failed while the standby was away:\n"
      << testing::ReadFile(b_.log);
  EXPECT_LE(failures, 1);
  EXPECT_EQ(read.name(), "迟到者");
  EXPECT_EQ(Health(b_), hv1::HealthCheckResponse::SERVING);
}

}  // namespace
}  // namespace gorank::pg_test
