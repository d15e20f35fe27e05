// rankd through an outage of its PostgreSQL server (issue #10): a PRIVATE
// throw-away server (pg_server.sh start in the test's temp dir; stopping the
// shared fixture server would break the other pg. tests) is paused and
// resumed on the same port under a running rankd with health_probe_ms 200.
// While it is away: health NOT_SERVING, writes and reads UNAVAILABLE, rankd
// still running; once it is back: SERVING, writes and reads succeed, without
// a restart of rankd. Registered as "pg.MultiInstanceOutageTest.*".
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "tests/pg/multi_instance_fixture.h"
#include "tests/testing/test_database.h"

namespace gorank::pg_test {
namespace {

namespace hv1 = grpc::health::v1;

class MultiInstanceOutageTest : public MultiInstanceFixture {
 protected:
  void SetUp() override {
    if (!gorank::testing::TestOnPostgres())
      GTEST_SKIP() << "needs PostgreSQL (run as pg.*)";
    // The server runs as user postgres when we are root: it must reach its
    // folder inside our temp dir.
    std::filesystem::permissions(dir_.path(),
                                 std::filesystem::perms::owner_all |
                                     std::filesystem::perms::group_exec |
                                     std::filesystem::perms::others_exec);
  }

  grpc::StatusCode RegisterCode(const std::string& name) {
    v1::Player p;
    return Register(rankd_, name, "5k", &p).error_code();
  }
  grpc::Status GetPlayer(int64_t id, v1::Player* out) {
    v1::GetPlayerRequest req;
    req.set_player_id(id);
    v1::GetPlayerResponse resp;
    const grpc::Status s =
        rankd_.players->GetPlayer(Context().get(), req, &resp);
    if (s.ok()) *out = resp.player();
    return s;
  }

  void ThroughAnOutage();

  PrivateServer pg_{dir_.File("pg"), dir_.File("pg_server")};
  Instance rankd_;
  v1::Player before_;
};

// Starts the private server and rankd on it, registers `before_`, stops
// the server and checks the outage (NOT_SERVING, a write and a read
// UNAVAILABLE, rankd running), starts the server again and waits for
// SERVING. Use with ASSERT_NO_FATAL_FAILURE.
void MultiInstanceOutageTest::ThroughAnOutage() {
  ASSERT_EQ(pg_.Do("start"), 0) << pg_.output();
  WriteConfig(200);
  rankd_.name = "rankd";
  ASSERT_NO_FATAL_FAILURE(Start(rankd_, pg_.Url()));
  grpc::Status s = Register(rankd_, "停机前", "5k", &before_);
  ASSERT_TRUE(s.ok()) << s.error_message();

  // The server goes away.
  ASSERT_EQ(pg_.Do("pause"), 0) << pg_.output();
  const auto stopped = std::chrono::steady_clock::now();
  ASSERT_TRUE(PollUntil(
      [&] { return Health(rankd_) == hv1::HealthCheckResponse::NOT_SERVING; },
      std::chrono::seconds(30)))
      << "health never turned NOT_SERVING:\n"
      << testing::ReadFile(rankd_.log);
  const auto not_serving = std::chrono::steady_clock::now();
  v1::Player p;
  s = Register(rankd_, "停机中", "5k", &p);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  s = GetPlayer(before_.id(), &p);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  EXPECT_TRUE(rankd_.child->running()) << testing::ReadFile(rankd_.log);

  // It comes back on the same port: rankd serves again by itself.
  ASSERT_EQ(pg_.Do("resume"), 0) << pg_.output();
  const auto resumed = std::chrono::steady_clock::now();
  ASSERT_TRUE(PollUntil(
      [&] { return Health(rankd_) == hv1::HealthCheckResponse::SERVING; },
      std::chrono::seconds(30)))
      << "health never turned SERVING again:\n"
      << testing::ReadFile(rankd_.log);
  const auto serving = std::chrono::steady_clock::now();
  auto ms = [](auto d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  };
  std::cout << "[ MEASURED ] NOT_SERVING " << ms(not_serving - stopped)
            << " ms after the stop, SERVING " << ms(serving - resumed)
            << " ms after the start\n";
}

// Runs `call` until it succeeds or 30 s pass; every failure must be
// UNAVAILABLE. Returns the failures before the success, -1 without one.
int FailuresBeforeSuccess(const std::function<grpc::Status()>& call) {
  int failures = 0;
  const bool ok = PollUntil(
      [&] {
        const grpc::Status s = call();
        if (s.ok()) return true;
        EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE)
            << s.error_message();
        ++failures;
        return false;
      },
      std::chrono::seconds(30));
  return ok ? failures : -1;
}

// Once health says SERVING, writes and reads succeed again, without a
// restart of rankd, at the first attempt.
TEST_F(MultiInstanceOutageTest, ServerStoppedAndStartedUnderARunningRankd) {
  ASSERT_NO_FATAL_FAILURE(ThroughAnOutage());
  v1::Player after, read;
  const int write_failures = FailuresBeforeSuccess(
      [&] { return Register(rankd_, "停机后", "4k", &after); });
  ASSERT_GE(write_failures, 0) << "no write succeeded after the outage";
  EXPECT_EQ(write_failures, 0);
  const int read_failures =
      FailuresBeforeSuccess([&] { return GetPlayer(before_.id(), &read); });
  ASSERT_GE(read_failures, 0) << "no read succeeded after the outage";
  EXPECT_EQ(read_failures, 0);
  EXPECT_EQ(read.name(), "停机前");
  grpc::Status s = GetPlayer(after.id(), &read);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(read.rank().notation(), "4k");
  // The write refused during the outage left nothing behind.
  EXPECT_EQ(after.id(), before_.id() + 1);
  EXPECT_TRUE(rankd_.child->running());
}

// A connection opened before the outage still says CONNECTION_OK until it
// is used; PgConnection re-opens it when its BEGIN fails, so neither the
// writer nor any pooled reader fails the first call after the server is
// back.
TEST_F(MultiInstanceOutageTest, FirstCallsAfterTheServerIsBackSucceed) {
  ASSERT_NO_FATAL_FAILURE(ThroughAnOutage());
  v1::Player after;
  grpc::Status s = Register(rankd_, "停机后", "4k", &after);
  EXPECT_TRUE(s.ok()) << s.error_message();
  // Enough reads at once to use every pooled reader.
  std::vector<grpc::Status> reads(8);
  std::vector<std::thread> threads;
  for (grpc::Status& r : reads) {
    threads.emplace_back([&] {
      v1::Player p;
      r = GetPlayer(before_.id(), &p);
    });
  }
  for (std::thread& t : threads) t.join();
  for (const grpc::Status& r : reads) EXPECT_TRUE(r.ok()) << r.error_message();
}

}  // namespace
}  // namespace gorank::pg_test
