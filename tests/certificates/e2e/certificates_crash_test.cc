// End to end with the real rankd: certificates are issued in a loop, rankd
// is killed with SIGKILL mid-run and restarted on the same database. Every
// acknowledged certificate is still there, serials are gapless, the next
// issuance continues the sequence, and PRAGMA integrity_check is ok.
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::certificates {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::RankdProcess;

constexpr int kAcksBeforeKill = 40;
constexpr int kMaxIssuances = 2000;

std::unique_ptr<grpc::ClientContext> Context(const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->AddMetadata("authorization", "Bearer " + token);
  ctx->set_deadline(std::chrono::system_clock::now() + seconds(10));
  return ctx;
}

std::shared_ptr<grpc::Channel> Connect(int port) {
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                                     grpc::InsecureChannelCredentials());
  channel->WaitForConnected(std::chrono::system_clock::now() + seconds(10));
  return channel;
}

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  std::getline(in, token);
  return token;
}

// Rows of one query as text, or the error message in the first row.
std::vector<std::vector<std::string>> Query(sqlite3* db, const char* sql) {
  std::vector<std::vector<std::string>> rows;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) {
    return {{std::string("prepare failed: ") + sqlite3_errmsg(db)}};
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      const unsigned char* text = sqlite3_column_text(st, i);
      row.push_back(text ? reinterpret_cast<const char*>(text) : "");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(st);
  return rows;
}

// Starts rankd on `db_path` and 127.0.0.1:0; its port, or 0 (with
// rankd.output() telling why) when it did not come up within 20 s.
int StartRankd(RankdProcess& rankd, const std::string& db_path) {
  testing::RankdOptions options;
  options.db = db_path;
  options.timeout = milliseconds(20000);
  rankd.Start(GORANK_RANKD_PATH, options);
  return rankd.port();
}

class Acknowledged {
 public:
  void Add(const std::string& number) {
    std::lock_guard<std::mutex> lock(mu_);
    numbers_.push_back(number);
    cv_.notify_all();
  }
  bool WaitFor(size_t n, milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return numbers_.size() >= n; });
  }
  std::vector<std::string> Numbers() {
    std::lock_guard<std::mutex> lock(mu_);
    return numbers_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> numbers_;
};

TEST(CertificatesCrashTest, AcknowledgedCertificatesSurviveSigkill) {
  testing::TempDir dir;
  const std::string db_path = dir.File("rankd.db");
  RankdProcess first;
  const int port = StartRankd(first, db_path);
  ASSERT_NE(port, 0) << "rankd did not start:\n" << first.output();
  const std::string admin = ReadToken(dir.File("admin.token"));
  ASSERT_FALSE(admin.empty());

  auto channel = Connect(port);
  auto players = v1::PlayerRegistry::NewStub(channel);
  auto certs = v1::CertificateService::NewStub(channel);
  v1::RegisterPlayerRequest reg;
  reg.set_name("韧性测试");
  reg.set_agency_prefix("000");
  reg.mutable_initial_rank()->set_notation("5k");
  v1::RegisterPlayerResponse player;
  grpc::Status s = players->RegisterPlayer(Context(admin).get(), reg, &player);
  ASSERT_TRUE(s.ok()) << s.error_message();

  Acknowledged acked;
  grpc::Status last_failure;
  std::thread issuer([&] {
    for (int i = 0; i < kMaxIssuances; ++i) {
      v1::IssueCertificateRequest req;
      req.set_request_id("crash-" + std::to_string(i));
      req.set_player_id(player.player().id());
      req.mutable_grade()->set_notation("5k");
      req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
      req.set_basis_reference("club league round " + std::to_string(i));
      v1::IssueCertificateResponse resp;
      const grpc::Status st =
          certs->IssueCertificate(Context(admin).get(), req, &resp);
      if (!st.ok()) {
        last_failure = st;
        return;
      }
      acked.Add(resp.certificate().number());
    }
  });
  const bool enough = acked.WaitFor(kAcksBeforeKill, milliseconds(60000));
  first.Signal(SIGKILL);
  issuer.join();
  first.Wait();
  const int status = first.status();
  ASSERT_TRUE(enough) << "too few issuances acknowledged:\n" << first.output();
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_FALSE(last_failure.ok()) << "the loop should end when rankd dies";
  const std::vector<std::string> numbers = acked.Numbers();

  RankdProcess second;
  const int port2 = StartRankd(second, db_path);
  ASSERT_NE(port2, 0) << "rankd did not restart:\n" << second.output();
  auto channel2 = Connect(port2);
  auto certs2 = v1::CertificateService::NewStub(channel2);
  for (const std::string& n : numbers) {
    v1::GetCertificateRequest get;
    get.set_number(n);
    v1::GetCertificateResponse got;
    s = certs2->GetCertificate(Context(admin).get(), get, &got);
    EXPECT_TRUE(s.ok()) << n << ": " << s.error_message();
    EXPECT_EQ(got.certificate().player_id(), player.player().id());
  }
  v1::IssueCertificateRequest next;
  next.set_player_id(player.player().id());
  next.mutable_grade()->set_notation("5k");
  next.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
  next.set_basis_reference("after the restart");
  v1::IssueCertificateResponse after;
  s = certs2->IssueCertificate(Context(admin).get(), next, &after);
  ASSERT_TRUE(s.ok()) << s.error_message();
  certs2
      .reset();  // no open connection: rankd need not wait out its grace period
  channel2.reset();
  second.Signal(SIGTERM);
  second.Wait();
  const int stopped = second.status();
  EXPECT_TRUE(WIFEXITED(stopped) && WEXITSTATUS(stopped) == 0)
      << second.output();

  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
      SQLITE_OK);
  EXPECT_EQ(Query(db, "PRAGMA integrity_check"),
            (std::vector<std::vector<std::string>>{{"ok"}}));
  std::map<std::string, std::vector<int>> serials;  // year -> serials
  for (const auto& row : Query(db,
                               "SELECT year, serial FROM certificates WHERE "
                               "prefix = '000' ORDER BY year, serial")) {
    ASSERT_EQ(row.size(), 2u) << row[0];
    serials[row[0]].push_back(std::stoi(row[1]));
  }
  std::map<std::string, int> last;
  for (const auto& row : Query(db,
                               "SELECT year, last_serial FROM "
                               "certificate_serials WHERE prefix = '000'")) {
    ASSERT_EQ(row.size(), 2u) << row[0];
    last[row[0]] = std::stoi(row[1]);
  }
  std::set<std::string> stored;
  for (const auto& row : Query(db, "SELECT number FROM certificates"))
    stored.insert(row[0]);
  sqlite3_close(db);

  size_t total = 0;
  for (const auto& [year, list] : serials) {
    for (size_t i = 0; i < list.size(); ++i) {
      ASSERT_EQ(list[i], static_cast<int>(i + 1))
          << "gap or duplicate in " << year;
    }
    EXPECT_EQ(last[year], static_cast<int>(list.size())) << year;
    total += list.size();
  }
  for (const std::string& n : numbers) EXPECT_EQ(stored.count(n), 1u) << n;
  EXPECT_EQ(stored.count(after.certificate().number()), 1u);
  // Acknowledged ones, at most the one in flight at the kill, the last one.
  EXPECT_GE(total, numbers.size() + 1);
  EXPECT_LE(total, numbers.size() + 2);
}

// Group commit at full load: 8 client threads issue as fast as rankd takes
// them (so calls share commits), rankd is killed with SIGKILL after 200
// acknowledgements. After a restart every acknowledged number is stored,
// serials are gapless, no more certificates exist than acknowledged plus
// those in flight at the kill, and each stored one has its audit entry.
TEST(CertificatesCrashTest, AcknowledgedCertificatesSurviveSigkillAtFullLoad) {
  constexpr int kThreads = 8;
  constexpr size_t kAcks = 200;
  testing::TempDir dir;
  const std::string db_path = dir.File("rankd.db");
  RankdProcess first;
  const int port = StartRankd(first, db_path);
  ASSERT_NE(port, 0) << "rankd did not start:\n" << first.output();
  const std::string admin = ReadToken(dir.File("admin.token"));
  ASSERT_FALSE(admin.empty());
  auto channel = Connect(port);
  auto players = v1::PlayerRegistry::NewStub(channel);
  std::vector<int64_t> ids;
  for (int t = 0; t < kThreads; ++t) {
    v1::RegisterPlayerRequest reg;
    reg.set_name("满载" + std::to_string(t));
    reg.set_agency_prefix("000");
    reg.mutable_initial_rank()->set_notation("5k");
    v1::RegisterPlayerResponse player;
    const grpc::Status s =
        players->RegisterPlayer(Context(admin).get(), reg, &player);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ids.push_back(player.player().id());
  }

  Acknowledged acked;
  std::vector<std::thread> issuers;
  for (int t = 0; t < kThreads; ++t) {
    issuers.emplace_back([&, t] {
      // Each thread its own channel, so calls arrive side by side.
      auto certs = v1::CertificateService::NewStub(Connect(port));
      for (int i = 0; i < kMaxIssuances; ++i) {
        v1::IssueCertificateRequest req;
        req.set_request_id("load-" + std::to_string(t) + "-" +
                           std::to_string(i));
        req.set_player_id(ids[t]);
        req.mutable_grade()->set_notation("5k");
        req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
        req.set_basis_reference("club league round " + std::to_string(i));
        v1::IssueCertificateResponse resp;
        if (!certs->IssueCertificate(Context(admin).get(), req, &resp).ok())
          return;
        acked.Add(resp.certificate().number());
      }
    });
  }
  const bool enough = acked.WaitFor(kAcks, milliseconds(60000));
  first.Signal(SIGKILL);
  for (std::thread& t : issuers) t.join();
  first.Wait();
  ASSERT_TRUE(enough) << "too few issuances acknowledged:\n" << first.output();
  EXPECT_TRUE(WIFSIGNALED(first.status()) &&
              WTERMSIG(first.status()) == SIGKILL);
  const std::vector<std::string> numbers = acked.Numbers();

  // A restart recovers the WAL; then read the file directly.
  RankdProcess second;
  ASSERT_NE(StartRankd(second, db_path), 0) << "rankd did not restart:\n"
                                            << second.output();
  second.Signal(SIGTERM);
  second.Wait();
  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
      SQLITE_OK);
  EXPECT_EQ(Query(db, "PRAGMA integrity_check"),
            (std::vector<std::vector<std::string>>{{"ok"}}));
  std::map<std::string, std::vector<int>> serials;  // year -> serials
  std::set<std::string> stored;
  for (const auto& row : Query(db,
                               "SELECT year, serial, number FROM certificates "
                               "WHERE prefix = '000' ORDER BY year, serial")) {
    ASSERT_EQ(row.size(), 3u) << row[0];
    serials[row[0]].push_back(std::stoi(row[1]));
    stored.insert(row[2]);
  }
  const auto issued_entries =
      Query(db,
            "SELECT count(*) FROM audit_log WHERE CAST(entry AS TEXT) "
            "LIKE '%certificate.issue%'");
  sqlite3_close(db);
  for (const auto& [year, list] : serials) {
    for (size_t i = 0; i < list.size(); ++i) {
      ASSERT_EQ(list[i], static_cast<int>(i + 1))
          << "gap or duplicate in " << year;
    }
  }
  for (const std::string& n : numbers) EXPECT_EQ(stored.count(n), 1u) << n;
  EXPECT_GE(stored.size(), numbers.size());
  EXPECT_LE(stored.size(), numbers.size() + kThreads);  // in flight
  ASSERT_EQ(issued_entries.size(), 1u);
  EXPECT_EQ(issued_entries[0][0], std::to_string(stored.size()));
}

}  // namespace
}  // namespace gorank::certificates
