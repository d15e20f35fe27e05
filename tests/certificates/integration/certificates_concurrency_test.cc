// 8 threads x 50 issuances through gRPC to one in-process rankd: agency
// operators under their own prefixes, the national admin under 000 and for
// an agency. Afterwards every prefix-year holds exactly serials 1..N, N the
// number of acknowledged issuances, with no duplicate and no gap. And group
// commit under concurrency: refusals judged inside the shared transactions
// fail no other call, every acknowledged issuance has its own audit entry
// and history entry, and the tables match the log.
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "services/audit/audit_entry.h"
#include "storage/database.h"
#include "tests/certificates/integration/grpc_fixture.h"
#include "tests/testing/database_snapshot.h"

namespace gorank::certificates {
namespace {

constexpr int kThreads = 8;
constexpr int kPerThread = 50;

struct Worker {
  std::string token;
  std::string agency;  // issuing prefix
  int64_t player_id = 0;
  std::vector<std::string> numbers;  // acknowledged
  std::vector<std::string> errors;
};

class ConcurrencyTest : public GrpcFixture {
 protected:
  // The audit log decoded, oldest first (fails the test on error).
  std::vector<audit::AuditEntry> AuditLog() {
    auto log = testing::ReadAuditEntries(server_->database());
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? std::move(*log) : std::vector<audit::AuditEntry>();
  }
};

TEST_F(ConcurrencyTest, SerialsOfEachPrefixYearAreGaplessAndUnique) {
  const std::string op110 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
  const std::string op120 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "120");
  for (const char* agency : {"110", "120", "130"})
    MustGiveStock(agency, 2025, 1000);
  const std::pair<std::string, std::string> plan[kThreads] = {
      {op110, "110"},  {op110, "110"},  {op120, "120"},  {op120, "120"},
      {admin_, "130"}, {admin_, "000"}, {admin_, "000"}, {admin_, "000"}};
  std::vector<Worker> workers(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    workers[t].token = plan[t].first;
    workers[t].agency = plan[t].second;
    workers[t].player_id =
        MustRegister("棋手" + std::to_string(t), plan[t].second, "10k").id();
  }

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &workers] {
      Worker& w = workers[t];
      for (int i = 0; i < kPerThread; ++i) {
        // 10k, 10k, ... 1k: every fifth issuance also raises the rank.
        v1::IssueCertificateRequest req = IssueRequest(
            w.player_id, std::to_string(10 - i / 5) + "k", w.agency);
        req.set_request_id("t" + std::to_string(t) + "-" + std::to_string(i));
        v1::Certificate c;
        const grpc::Status s = Issue(w.token, req, &c);
        if (s.ok()) {
          w.numbers.push_back(c.number());
        } else {
          w.errors.push_back(std::to_string(s.error_code()) + ": " +
                             s.error_message());
        }
      }
    });
  }
  for (auto& th : threads) th.join();

  std::map<std::string, int> acknowledged;  // prefix -> count
  std::set<std::string> all;
  for (const Worker& w : workers) {
    EXPECT_TRUE(w.errors.empty())
        << w.errors.size() << " failed, first: " << w.errors[0];
    for (const std::string& n : w.numbers) {
      EXPECT_TRUE(all.insert(n).second) << "number issued twice: " << n;
      EXPECT_EQ(n.substr(0, 5), w.agency + "25");
      ++acknowledged[w.agency];
    }
  }
  EXPECT_EQ(all.size(), size_t{kThreads * kPerThread});

  // prefix-year -> serials, and certificate_serials, straight from the file.
  std::map<std::string, std::vector<int64_t>> serials;
  std::map<std::string, int64_t> last;
  const absl::Status read = server_->database()->Read([&](storage::Connection&
                                                              c)
                                                          -> absl::Status {
    auto rows = c.Prepare(
        "SELECT prefix || ':' || year, serial, number FROM certificates ORDER "
        "BY prefix, year, "
        "serial");
    if (!rows.ok()) return rows.status();
    while (true) {
      auto row = (*rows)->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      serials[(*rows)->Text(0)].push_back((*rows)->Int(1));
      EXPECT_EQ(all.count((*rows)->Text(2)), 1u)
          << "unacknowledged row " << (*rows)->Text(2);
    }
    rows->reset();
    auto counters = c.Prepare(
        "SELECT prefix || ':' || year, last_serial FROM certificate_serials");
    if (!counters.ok()) return counters.status();
    while (true) {
      auto row = (*counters)->Step();
      if (!row.ok()) return row.status();
      if (!*row) return absl::OkStatus();
      last[(*counters)->Text(0)] = (*counters)->Int(1);
    }
  });
  ASSERT_TRUE(read.ok()) << read;
  ASSERT_EQ(serials.size(), 4u);
  for (const auto& [agency, count] : acknowledged) {
    const std::string key = agency + ":2025";
    std::vector<int64_t> expected(count);
    for (int i = 0; i < count; ++i) expected[i] = i + 1;
    EXPECT_EQ(serials[key], expected) << key;
    EXPECT_EQ(last[key], count) << key;
  }
  EXPECT_EQ(acknowledged["000"], 150);
  EXPECT_EQ(acknowledged["110"], 100);

  v1::GetStockRequest get;
  get.set_agency_prefix("110");
  get.set_year(2025);
  v1::GetStockResponse stock;
  ASSERT_TRUE(certs_->GetStock(Context(op110).get(), get, &stock).ok());
  EXPECT_EQ(stock.order().used(), 100);
  v1::GetPlayerRequest player;
  player.set_player_id(workers[0].player_id);
  v1::GetPlayerResponse got;
  ASSERT_TRUE(players_->GetPlayer(Context("").get(), player, &got).ok());
  EXPECT_EQ(got.player().rank().notation(), "1k");
}

// 8 threads issue at once (4 as the national admin under 000, 4 as the
// operator of 120), each raising its own player 10k..1k; the operators'
// threads also ask, between their good requests, for a certificate for a
// player of agency 110 and for one below their player's rank. Those are
// refused inside the write transactions the good requests share and fail
// none of them.
TEST_F(ConcurrencyTest, RefusalsInSharedCommitsFailNoOtherCall) {
  constexpr int kGroupThreads = 8;
  constexpr int kGrades = 10;
  const std::string op120 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "120");
  const std::string auditor = MustCreateToken(v1::ROLE_AUDITOR, "");
  MustGiveStock("120", 2025, 1000);
  const int64_t stranger = MustRegister("外省棋手", "110", "10k").id();
  std::vector<Worker> workers(kGroupThreads);
  for (int t = 0; t < kGroupThreads; ++t) {
    Worker& w = workers[t];
    w.token = t < 4 ? admin_ : op120;
    w.agency = t < 4 ? "000" : "120";
    w.player_id =
        MustRegister("并发" + std::to_string(t), w.agency, "11k").id();
  }
  const std::vector<audit::AuditEntry> log_before = AuditLog();
  std::vector<std::vector<grpc::StatusCode>> refusals(kGroupThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kGroupThreads; ++t) {
    threads.emplace_back([&, t] {
      Worker& w = workers[t];
      for (int i = 0; i < kGrades; ++i) {
        v1::Certificate c;
        grpc::Status s = Issue(
            w.token,
            IssueRequest(w.player_id, std::to_string(10 - i) + "k", w.agency),
            &c);
        if (s.ok()) {
          w.numbers.push_back(c.number());
        } else {
          w.errors.push_back(s.error_message());
        }
        if (w.agency != "120" || i % 3 != 1) continue;
        s = Issue(w.token, IssueRequest(stranger, "5k", "120"), &c);
        refusals[t].push_back(s.error_code());
        s = Issue(w.token, IssueRequest(w.player_id, "10k", "120"), &c);
        refusals[t].push_back(s.error_code());
      }
    });
  }
  for (auto& th : threads) th.join();

  std::set<std::string> acknowledged;
  for (int t = 0; t < kGroupThreads; ++t) {
    const Worker& w = workers[t];
    EXPECT_TRUE(w.errors.empty())
        << w.errors.size() << " failed, first: " << w.errors[0];
    EXPECT_EQ(w.numbers.size(), size_t{kGrades});
    for (const std::string& n : w.numbers) acknowledged.insert(n);
    for (size_t k = 0; k < refusals[t].size(); ++k) {
      EXPECT_EQ(refusals[t][k], k % 2 == 0 ? grpc::PERMISSION_DENIED
                                           : grpc::FAILED_PRECONDITION)
          << "thread " << t << " refusal " << k;
    }
  }
  ASSERT_EQ(acknowledged.size(), size_t{kGroupThreads * kGrades});

  // One audit entry per acknowledged issuance, none for a refusal.
  const std::vector<audit::AuditEntry> log = AuditLog();
  ASSERT_EQ(log.size(), log_before.size() + kGroupThreads * kGrades);
  std::map<std::string, int> entries;  // number -> certificate.issue entries
  for (const audit::AuditEntry& e : log) {
    if (e.action == "certificate.issue") ++entries[e.subject.substr(12)];
  }
  for (const std::string& n : acknowledged)
    EXPECT_EQ(entries[n], 1) << "audit entries of " << n;
  EXPECT_EQ(entries.size(), acknowledged.size());

  // Gapless serials, and each certificate's history entry (every one raised
  // its holder's rank).
  std::map<std::string, std::vector<int64_t>> serials;
  std::map<std::string, int> history;  // basis -> entries
  ASSERT_TRUE(server_->database()
                  ->Read([&](storage::Connection& c) -> absl::Status {
                    auto rows = c.Prepare(
                        "SELECT prefix, serial FROM certificates "
                        "ORDER BY prefix, serial");
                    if (!rows.ok()) return rows.status();
                    while (true) {
                      auto row = (*rows)->Step();
                      if (!row.ok()) return row.status();
                      if (!*row) break;
                      serials[(*rows)->Text(0)].push_back((*rows)->Int(1));
                    }
                    rows->reset();
                    auto h = c.Prepare("SELECT basis FROM rank_history");
                    if (!h.ok()) return h.status();
                    while (true) {
                      auto row = (*h)->Step();
                      if (!row.ok()) return row.status();
                      if (!*row) return absl::OkStatus();
                      ++history[(*h)->Text(0)];
                    }
                  })
                  .ok());
  for (const char* prefix : {"000", "120"}) {
    std::vector<int64_t> expected(4 * kGrades);
    for (int i = 0; i < 4 * kGrades; ++i) expected[i] = i + 1;
    EXPECT_EQ(serials[prefix], expected) << prefix;
  }
  for (const std::string& n : acknowledged)
    EXPECT_EQ(history["certificate " + n], 1) << n;
  for (int t = 0; t < kGroupThreads; ++t) {
    v1::GetPlayerRequest req;
    req.set_player_id(workers[t].player_id);
    v1::GetPlayerResponse got;
    ASSERT_TRUE(players_->GetPlayer(Context(admin_).get(), req, &got).ok());
    EXPECT_EQ(got.player().rank().notation(), "1k") << t;
  }

  // The tables are what the log says was written.
  v1::VerifyTablesResponse tables;
  const grpc::Status verified = audit_->VerifyTables(
      Context(auditor).get(), v1::VerifyTablesRequest(), &tables);
  ASSERT_TRUE(verified.ok()) << verified.error_message();
  EXPECT_GT(tables.rows_checked(), 0);
  for (const auto& m : tables.mismatches())
    ADD_FAILURE() << m.ShortDebugString();
}

}  // namespace
}  // namespace gorank::certificates
