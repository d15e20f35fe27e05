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
  EXPECT_EQ(e2e::ReadFile(b_.log).find("national-admin token written"),
            std::string::npos)
      << e2e::ReadFile(b_.log);

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
    const e2e::RunResult r = Ctl(*inst, {"audit", "verify"});
    EXPECT_EQ(r.exit_code, 0) << inst->name << ":\n" << r.out << r.err;
  }
}

}  // namespace
}  // namespace gorank::pg_test
