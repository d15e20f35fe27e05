// The public index through the real server: threads issuing and revoking
// while others verify, each acknowledged write seen by the writer's very next
// verify; a restart on the same database rebuilds every state (issued,
// revoked, under notice, renamed holder) from the database.
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

class PublicIndexServiceTest : public GrpcFixture {
 protected:
  PublicIndexServiceTest()
      : GrpcFixture([](server::ServerConfig& c) {
          c.public_rate = 0;  // the verifying threads are one address
          c.token_rate = 0;
        }) {}

  v1::VerifyCertificateResponse Verify(const std::string& number,
                                       const std::string& name,
                                       grpc::Status* status = nullptr) {
    v1::VerifyCertificateRequest req;
    req.set_number(number);
    req.set_holder_name(name);
    v1::VerifyCertificateResponse resp;
    grpc::Status s = certs_->VerifyCertificate(Context("").get(), req, &resp);
    if (status != nullptr) *status = s;
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }

  grpc::Status Revoke(const std::string& token, const std::string& number) {
    v1::RevokeCertificateRequest req;
    req.set_number(number);
    req.set_reason("issued in error");
    v1::RevokeCertificateResponse resp;
    return certs_->RevokeCertificate(Context(token).get(), req, &resp);
  }
};

TEST_F(PublicIndexServiceTest, EveryAcknowledgedWriteIsSeenByTheNextVerify) {
  const std::string op110 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
  const std::string op120 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "120");
  for (const char* agency : {"110", "120", "130"})
    MustGiveStock(agency, 2025, 1000);
  struct Writer {
    std::string token, agency, name;
    int64_t player = 0;
    std::vector<std::string> failures;
  };
  std::vector<Writer> writers = {{op110, "110", "", 0, {}},
                                 {op120, "120", "", 0, {}},
                                 {admin_, "130", "", 0, {}},
                                 {admin_, "000", "", 0, {}}};
  for (size_t t = 0; t < writers.size(); ++t) {
    writers[t].name = "写手" + std::to_string(t);
    const std::string home =
        writers[t].agency == "000" ? "110" : writers[t].agency;
    writers[t].player = MustRegister(writers[t].name, home, "10k").id();
  }
  std::mutex mu;
  std::vector<std::pair<std::string, std::string>>
      acknowledged;  // number, name
  std::atomic<bool> stop{false};
  std::atomic<int> reader_failures{0}, reads{0};

  std::vector<std::thread> threads;
  for (Writer& w : writers) {
    threads.emplace_back([&, this] {
      for (int i = 0; i < 30; ++i) {
        v1::IssueCertificateRequest req =
            IssueRequest(w.player, std::to_string(10 - i / 4) + "k", w.agency);
        v1::Certificate c;
        const grpc::Status s = Issue(w.token, req, &c);
        if (!s.ok()) {
          w.failures.push_back("issue: " + s.error_message());
          continue;
        }
        grpc::Status vs;
        if (Verify(c.number(), w.name, &vs).outcome() !=
            v1::VERIFY_OUTCOME_VALID) {
          w.failures.push_back(c.number() + " not valid right after issue");
        }
        {
          std::lock_guard<std::mutex> lock(mu);
          acknowledged.emplace_back(c.number(), w.name);
        }
        if (i % 3 != 0) continue;
        const grpc::Status r = Revoke(w.token, c.number());
        if (!r.ok()) {
          w.failures.push_back("revoke: " + r.error_message());
          continue;
        }
        if (Verify(c.number(), w.name, &vs).outcome() !=
            v1::VERIFY_OUTCOME_REVOKED) {
          w.failures.push_back(c.number() + " not revoked right after revoke");
        }
      }
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, this] {
      size_t next = 0;
      while (!stop.load()) {
        std::pair<std::string, std::string> pick;
        {
          std::lock_guard<std::mutex> lock(mu);
          if (acknowledged.empty()) continue;
          pick = acknowledged[next++ % acknowledged.size()];
        }
        grpc::Status s;
        const v1::VerifyOutcome o =
            Verify(pick.first, pick.second, &s).outcome();
        if (!s.ok() || (o != v1::VERIFY_OUTCOME_VALID &&
                        o != v1::VERIFY_OUTCOME_REVOKED)) {
          ++reader_failures;
        }
        ++reads;
      }
    });
  }
  for (size_t t = 0; t < writers.size(); ++t) threads[t].join();
  stop = true;
  for (size_t t = writers.size(); t < threads.size(); ++t) threads[t].join();

  for (const Writer& w : writers) {
    EXPECT_TRUE(w.failures.empty())
        << w.failures.size() << " failures, first: " << w.failures[0];
  }
  EXPECT_EQ(reader_failures.load(), 0) << "of " << reads.load() << " reads";
  EXPECT_EQ(acknowledged.size(), writers.size() * 30);
}

TEST_F(PublicIndexServiceTest, ARestartRebuildsEveryStateFromTheDatabase) {
  MustGiveStock("110", 2025, 10);
  const v1::Player p = MustRegister("王五", "110", "1k");
  v1::Certificate two, three, five;
  ASSERT_TRUE(Issue(admin_, IssueRequest(p.id(), "2d", "110"), &two).ok());
  ASSERT_TRUE(Issue(admin_, IssueRequest(p.id(), "3d", "110"), &three).ok());
  ASSERT_TRUE(Issue(admin_, IssueRequest(p.id(), "5d", "000"), &five).ok());
  ASSERT_TRUE(Revoke(admin_, three.number()).ok());
  v1::UpdatePlayerRequest rename;
  rename.set_player_id(p.id());
  rename.set_name("王五六");
  v1::UpdatePlayerResponse renamed;
  ASSERT_TRUE(
      players_->UpdatePlayer(Context(admin_).get(), rename, &renamed).ok());

  Restart();

  EXPECT_EQ(Verify(two.number(), "王五六").outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(Verify(three.number(), "王五六").outcome(),
            v1::VERIFY_OUTCOME_REVOKED);
  EXPECT_EQ(Verify(five.number(), "王五六").outcome(),
            v1::VERIFY_OUTCOME_UNDER_NOTICE);
  EXPECT_EQ(Verify(two.number(), "王五").outcome(),
            v1::VERIFY_OUTCOME_NOT_VALID);
  const v1::VerifyCertificateResponse shown = Verify(two.number(), "王五六");
  EXPECT_EQ(shown.masked_holder_name(), "王**");
  EXPECT_EQ(shown.grade().notation(), two.grade().notation());
  EXPECT_FALSE(shown.agency_name().empty());

  v1::LookupRankRequest lookup;
  lookup.set_name("王五六");
  v1::LookupRankResponse found;
  ASSERT_TRUE(certs_->LookupRank(Context("").get(), lookup, &found).ok());
  ASSERT_EQ(found.players_size(), 1);
  EXPECT_EQ(found.players(0).rank().notation(), "2d");
  // The 2d in force and the 5d under notice; the revoked 3d not shown.
  ASSERT_EQ(found.players(0).certificates_size(), 2);
  EXPECT_EQ(found.players(0).certificates(0).number(),
            two.number().substr(0, 5) + "****");
}

}  // namespace
}  // namespace gorank::certificates
