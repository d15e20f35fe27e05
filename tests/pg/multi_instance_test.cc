// Two real rankd processes on one PostgreSQL database (issue #10), run only
// as "pg.MultiInstanceTest.*" on the fixture server (a fresh schema each):
// both serve the same registry; concurrent issuance through both gives
// distinct numbers and serials 1..N of the prefix-year with a verifying
// audit log; SIGKILL of one instance mid-load loses no acknowledged
// certificate, the other goes on, and the killed one restarts and serves.
#include <libpq-fe.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/pg/multi_instance_fixture.h"
#include "tests/testing/test_database.h"

namespace gorank::pg_test {
namespace {

// The certificate_serials rows of prefix 000 (year -> last_serial), read
// with libpq straight from the database; ADD_FAILUREs on an error.
std::map<int, int64_t> NationalCounters(const std::string& url) {
  std::map<int, int64_t> out;
  PGconn* conn = PQconnectdb(url.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    ADD_FAILURE() << "libpq: " << PQerrorMessage(conn);
  } else {
    PGresult* r = PQexec(conn,
                         "SELECT year, last_serial FROM certificate_serials "
                         "WHERE prefix = '000'");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
      ADD_FAILURE() << "libpq: " << PQresultErrorMessage(r);
    } else {
      for (int i = 0; i < PQntuples(r); ++i)
        out[std::atoi(PQgetvalue(r, i, 0))] = std::atoll(PQgetvalue(r, i, 1));
    }
    PQclear(r);
  }
  PQfinish(conn);
  return out;
}

// The serials (last four digits) of `certs`, sorted.
std::vector<int> SortedSerials(const std::vector<v1::Certificate>& certs) {
  std::vector<int> out;
  for (const v1::Certificate& c : certs)
    out.push_back(std::stoi(c.number().substr(5)));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> OneTo(int n) {
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) out[i] = i + 1;
  return out;
}

// The year of a PPPYYSSSS number.
int YearOf(const std::string& number) {
  return 2000 + std::stoi(number.substr(3, 2));
}

// 10k for the first five issuances of a player, then 9k, ... up to 1k.
std::string GradeOf(int i) {
  return std::to_string(std::max(1, 10 - i / 5)) + "k";
}

class MultiInstanceTest : public MultiInstanceFixture {
 protected:
  void SetUp() override {
    if (!gorank::testing::TestOnPostgres())
      GTEST_SKIP() << "needs the PostgreSQL test server (run as pg.*)";
    url_ = gorank::testing::TestDatabaseUrl(dir_);
    a_.name = "a";
    b_.name = "b";
  }

  std::string url_;
  Instance a_;
  Instance b_;
};

TEST_F(MultiInstanceTest, BothInstancesServeTheSameRegistry) {
  ASSERT_NO_FATAL_FAILURE(Start(a_, url_));
  ASSERT_NO_FATAL_FAILURE(Start(b_, url_));
  EXPECT_NE(a_.address, b_.address);
  // B found the registry A created: it wrote no second admin token.
  EXPECT_EQ(testing::ReadFile(b_.log).find("national-admin token written"),
            std::string::npos)
      << testing::ReadFile(b_.log);

  v1::Player via_a, via_b;
  grpc::Status s = Register(a_, "甲", "3k", &via_a);
  ASSERT_TRUE(s.ok()) << s.error_message();
  s = Register(b_, "乙", "1d", &via_b);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_NE(via_a.id(), via_b.id());

  // Each is read through the other instance.
  struct Cross {
    Instance* reader;
    const v1::Player* written;
  };
  for (const Cross& c : {Cross{&b_, &via_a}, Cross{&a_, &via_b}}) {
    v1::GetPlayerRequest req;
    req.set_player_id(c.written->id());
    v1::GetPlayerResponse resp;
    s = c.reader->players->GetPlayer(Context().get(), req, &resp);
    ASSERT_TRUE(s.ok()) << c.reader->name << ": " << s.error_message();
    EXPECT_EQ(resp.player().name(), c.written->name()) << c.reader->name;
    EXPECT_EQ(resp.player().rank().notation(), c.written->rank().notation())
        << c.reader->name;
  }
  // A certificate issued through B changes the rank A shows.
  v1::Certificate cert;
  s = Issue(b_, via_a.id(), "1d", "cross-1", &cert);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::GetPlayerRequest req;
  req.set_player_id(via_a.id());
  v1::GetPlayerResponse resp;
  s = a_.players->GetPlayer(Context().get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.player().rank().notation(), "1d");
  v1::GetCertificateRequest get;
  get.set_number(cert.number());
  v1::GetCertificateResponse got;
  s = a_.certs->GetCertificate(Context().get(), get, &got);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(got.certificate().player_id(), via_a.id());
}

TEST_F(MultiInstanceTest, ConcurrentIssuanceThroughBothIsGaplessAndAudited) {
  constexpr int kThreads = 8;  // even threads call A, odd ones B
  constexpr int kPerThread = 25;
  ASSERT_NO_FATAL_FAILURE(Start(a_, url_));
  ASSERT_NO_FATAL_FAILURE(Start(b_, url_));
  Instance* instances[2] = {&a_, &b_};
  std::vector<int64_t> players(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    v1::Player p;
    const grpc::Status s =
        Register(*instances[t % 2], "棋手" + std::to_string(t), "10k", &p);
    ASSERT_TRUE(s.ok()) << s.error_message();
    players[t] = p.id();
  }

  std::vector<std::vector<v1::Certificate>> issued(kThreads);
  std::vector<std::vector<std::string>> errors(kThreads);
  const auto began = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        v1::Certificate c;
        const grpc::Status s =
            Issue(*instances[t % 2], players[t], GradeOf(i),
                  "c" + std::to_string(t) + "-" + std::to_string(i), &c);
        if (s.ok()) {
          issued[t].push_back(c);
        } else {
          errors[t].push_back(std::to_string(s.error_code()) + ": " +
                              s.error_message());
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - began);
  std::cout << "[ MEASURED ] " << kThreads * kPerThread
            << " certificates through 2 instances by " << kThreads
            << " threads in " << took.count() << " ms\n";

  std::set<std::string> numbers;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_TRUE(errors[t].empty()) << "thread " << t << ": " << errors[t].size()
                                   << " failed, first: " << errors[t].front();
    for (const v1::Certificate& c : issued[t]) {
      EXPECT_TRUE(numbers.insert(c.number()).second)
          << "number issued twice: " << c.number();
      EXPECT_EQ(c.number().substr(0, 3), "000");
      EXPECT_EQ(c.player_id(), players[t]);
    }
  }
  ASSERT_EQ(numbers.size(), size_t{kThreads * kPerThread});
  const int year = YearOf(*numbers.begin());

  // Serials of 000/year are exactly 1..200, seen through either instance.
  for (Instance* inst : instances) {
    std::vector<v1::Certificate> listed;
    const grpc::Status s = ListNational(*inst, year, &listed);
    ASSERT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(SortedSerials(listed), OneTo(kThreads * kPerThread))
        << inst->name;
    for (const v1::Certificate& c : listed)
      EXPECT_EQ(numbers.count(c.number()), 1u)
          << "unacknowledged " << c.number();
  }
  EXPECT_EQ(NationalCounters(url_),
            (std::map<int, int64_t>{{year, kThreads * kPerThread}}));

  // The audit log verifies through both instances.
  for (Instance* inst : instances) {
    const testing::RunResult r = Ctl(*inst, {"audit", "verify"});
    EXPECT_EQ(r.exit_code, 0) << inst->name << ":\n" << r.out << r.err;
  }
}

// One worker of the kill test: issues through one instance until told to
// stop; counts what happened after the kill.
struct Worker {
  Instance* inst = nullptr;
  bool on_b = false;
  int64_t player = 0;
  std::vector<v1::Certificate> acked;
  std::map<std::string, std::string> grade_of;  // number -> requested grade
  std::vector<grpc::Status> errors;
  int ok_after_kill = 0;      // calls started after B was dead
  int failed_after_kill = 0;  // ditto
};

TEST_F(MultiInstanceTest, SigkillOfOneInstanceLosesNoAcknowledgedCertificate) {
  constexpr int kThreads = 8;  // even threads call A, odd ones B
  constexpr int kAckedBeforeKill = 60;
  constexpr int kOkAfterKill = 20;  // per A thread
  ASSERT_NO_FATAL_FAILURE(Start(a_, url_));
  ASSERT_NO_FATAL_FAILURE(Start(b_, url_));
  std::vector<Worker> workers(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    Worker& w = workers[t];
    w.on_b = t % 2 == 1;
    w.inst = w.on_b ? &b_ : &a_;
    v1::Player p;
    const grpc::Status s =
        Register(*w.inst, "棋手" + std::to_string(t), "10k", &p);
    ASSERT_TRUE(s.ok()) << s.error_message();
    w.player = p.id();
  }

  std::atomic<int> total_ok{0};
  std::atomic<bool> killed{false};
  const auto began = std::chrono::steady_clock::now();
  const auto give_up = began + std::chrono::seconds(120);  // if all else fails
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Worker& w = workers[t];
      // A bound in time, not in calls: B's calls fail fast once it is dead.
      for (int i = 0; std::chrono::steady_clock::now() < give_up; ++i) {
        const bool after = killed.load();
        const std::string grade = GradeOf(i);
        v1::Certificate c;
        const grpc::Status s =
            Issue(*w.inst, w.player, grade,
                  "k" + std::to_string(t) + "-" + std::to_string(i), &c);
        if (s.ok()) {
          w.acked.push_back(c);
          w.grade_of[c.number()] = grade;
          ++total_ok;
          if (after) ++w.ok_after_kill;
        } else {
          w.errors.push_back(s);
          if (after) ++w.failed_after_kill;
        }
        if (w.on_b ? w.failed_after_kill >= 3 : w.ok_after_kill >= kOkAfterKill)
          break;
      }
    });
  }
  const bool loaded =
      PollUntil([&] { return total_ok.load() >= kAckedBeforeKill; },
                std::chrono::seconds(120));
  const int acked_at_kill = total_ok.load();
  b_.child->Signal(SIGKILL);
  EXPECT_EQ(b_.child->Wait(), -1);
  killed = true;
  for (std::thread& th : threads) th.join();
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - began);
  ASSERT_TRUE(loaded) << "only " << acked_at_kill << " issued before the kill";

  std::set<std::string> acked;
  int acked_a = 0, acked_b = 0;
  for (int t = 0; t < kThreads; ++t) {
    const Worker& w = workers[t];
    if (w.on_b) {
      // B's clients: OK until the kill, then UNAVAILABLE only.
      EXPECT_EQ(w.ok_after_kill, 0) << "thread " << t;
      EXPECT_GE(w.failed_after_kill, 3) << "thread " << t;
      for (const grpc::Status& s : w.errors)
        EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE)
            << "thread " << t << ": " << s.error_message();
      acked_b += static_cast<int>(w.acked.size());
    } else {
      // A's clients go on as if nothing happened.
      EXPECT_TRUE(w.errors.empty())
          << "thread " << t << ": " << w.errors.front().error_code() << " "
          << w.errors.front().error_message();
      EXPECT_EQ(w.ok_after_kill, kOkAfterKill) << "thread " << t;
      acked_a += static_cast<int>(w.acked.size());
    }
    for (const v1::Certificate& c : w.acked)
      EXPECT_TRUE(acked.insert(c.number()).second)
          << "number issued twice: " << c.number();
  }
  std::cout << "[ MEASURED ] " << acked.size() << " acknowledged (" << acked_a
            << " through A, " << acked_b << " through B, " << acked_at_kill
            << " before the kill) in " << took.count() << " ms\n";
  ASSERT_FALSE(acked.empty());
  const int year = YearOf(*acked.begin());

  // Through A: every acknowledged number with its player and grade.
  for (const Worker& w : workers) {
    for (const v1::Certificate& c : w.acked) {
      v1::GetCertificateRequest req;
      req.set_number(c.number());
      v1::GetCertificateResponse resp;
      const grpc::Status s =
          a_.certs->GetCertificate(Context().get(), req, &resp);
      ASSERT_TRUE(s.ok()) << c.number() << ": " << s.error_message();
      EXPECT_EQ(resp.certificate().player_id(), w.player) << c.number();
      EXPECT_EQ(resp.certificate().grade().notation(),
                w.grade_of.at(c.number()))
          << c.number();
    }
  }
  // Serials 1..M with M >= acknowledged: at most one certificate per B
  // client committed without its answer arriving, and only B's players'.
  std::vector<v1::Certificate> listed;
  grpc::Status s = ListNational(a_, year, &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const int m = static_cast<int>(listed.size());
  std::cout << "[ MEASURED ] serials 1.." << m << " of " << year << ", "
            << m - static_cast<int>(acked.size())
            << " committed without an answer (B's calls in flight)\n";
  EXPECT_EQ(SortedSerials(listed), OneTo(m));
  EXPECT_GE(m, static_cast<int>(acked.size()));
  EXPECT_LE(m, static_cast<int>(acked.size()) + kThreads / 2);
  std::set<int64_t> b_players;
  for (const Worker& w : workers)
    if (w.on_b) b_players.insert(w.player);
  for (const v1::Certificate& c : listed) {
    if (acked.count(c.number()) == 0) {
      EXPECT_EQ(b_players.count(c.player_id()), 1u)
          << "unacknowledged " << c.number() << " of player " << c.player_id();
    }
  }
  EXPECT_EQ(NationalCounters(url_), (std::map<int, int64_t>{{year, m}}));
  testing::RunResult r = Ctl(a_, {"audit", "verify"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;

  // B restarts on the same database and serves: reads, the next serial.
  ASSERT_NO_FATAL_FAILURE(Start(b_, url_));
  v1::GetPlayerRequest get;
  get.set_player_id(workers[0].player);
  v1::GetPlayerResponse got;
  s = b_.players->GetPlayer(Context().get(), get, &got);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(got.player().name(), "棋手0");
  v1::Certificate next;
  s = Issue(b_, workers[1].player, "1k", "after-restart", &next);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(std::stoi(next.number().substr(5)), m + 1) << next.number();
  r = Ctl(b_, {"audit", "verify"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace gorank::pg_test
