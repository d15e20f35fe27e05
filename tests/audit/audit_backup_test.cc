// A backup taken through the Backup stream while a writer thread keeps
// issuing certificates, restored with server::RestoreDatabase into a new
// path: the copy passes PRAGMA integrity_check, its audit log verifies and
// extends the checkpoint signed before the backup began, its tables match
// the log, and it holds every certificate acknowledged before the call.
#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/audit/audit_trail.h"
#include "services/audit/keyed_digest.h"
#include "services/audit/log_verifier.h"
#include "services/server/restore.h"
#include "storage/database.h"
#include "storage/row_digest.h"
#include "storage/sql_audit_repository.h"
#include "storage/sqlite_database.h"
#include "tests/audit/audit_grpc_fixture.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::audit {
namespace {

using ::testing::HasSubstr;

// Issues 1k certificates under 000 to fresh players until stopped, keeping
// the acknowledged numbers in order.
class Writer {
 public:
  explicit Writer(std::function<std::string(int)> issue_one)
      : issue_one_(std::move(issue_one)), thread_([this] { Run(); }) {}
  ~Writer() { Stop(); }

  // Blocks until at least `n` certificates are acknowledged (or the writer
  // failed); returns the acknowledged numbers.
  std::vector<std::string> WaitFor(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return acked_.size() >= n || failed_; });
    return acked_;
  }
  std::vector<std::string> Acked() {
    std::lock_guard<std::mutex> lock(mu_);
    return acked_;
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  void Run() {
    for (int i = 0;; ++i) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) return;
      }
      std::string number = issue_one_(i);
      std::lock_guard<std::mutex> lock(mu_);
      if (number.empty())
        failed_ = true;
      else
        acked_.push_back(number);
      cv_.notify_all();
      if (failed_) return;
    }
  }

  std::function<std::string(int)> issue_one_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> acked_;  // guarded by mu_
  bool stop_ = false;               // guarded by mu_
  bool failed_ = false;             // guarded by mu_
  std::thread thread_;
};

class AuditBackupTest : public AuditGrpcTest {
 protected:
  // Streams a backup as `token` (the national admin by default) into
  // `path`; `ids_removed` gets what the first chunk says.
  grpc::Status TakeBackup(const std::string& path,
                          const std::string& token = "",
                          bool* ids_removed = nullptr) {
    auto ctx = Server::Context(token.empty() ? s_.admin : token);
    auto reader = audit_->Backup(ctx.get(), v1::BackupRequest());
    std::ofstream out(path, std::ios::binary);
    v1::BackupChunk chunk;
    bool first = true;
    while (reader->Read(&chunk)) {
      if (first && ids_removed) *ids_removed = chunk.resident_ids_removed();
      first = false;
      out << chunk.data();
    }
    return reader->Finish();
  }
  // Registers a player with a resident ID number (as the national admin).
  int64_t RegisterWithId(const std::string& name,
                         const std::string& resident_id) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_gender(v1::GENDER_MALE);
    req.set_resident_id(resident_id);
    req.set_agency_prefix("110");
    v1::RegisterPlayerResponse resp;
    grpc::Status s =
        players_->RegisterPlayer(Server::Context(s_.admin).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }
  // The resident IDs stored in the SQLite file at `path`, NULL as "".
  static std::vector<std::string> ResidentIds(const std::string& path) {
    storage::DatabaseOptions options;
    options.reader_connections = 0;
    auto db = storage::Database::Open(path, options);
    EXPECT_TRUE(db.ok()) << db.status();
    std::vector<std::string> out;
    if (!db.ok()) return out;
    EXPECT_TRUE((*db)
                    ->Read([&](storage::Connection& c) -> absl::Status {
                      auto st = c.Prepare(
                          "SELECT resident_id FROM players ORDER BY id");
                      if (!st.ok()) return st.status();
                      while (true) {
                        auto row = (*st)->Step();
                        if (!row.ok()) return row.status();
                        if (!*row) return absl::OkStatus();
                        out.push_back((*st)->Text(0));
                      }
                    })
                    .ok());
    return out;
  }

  testing::TempDir dir_;
};

TEST_F(AuditBackupTest,
       ABackupTakenUnderWriteLoadRestoresCompleteAndVerifiable) {
  // On PostgreSQL too: the backup is an SQLite snapshot either way.
  Writer writer([this](int i) {
    return Issue(s_.admin, Register("备份" + std::to_string(i)), "1k", "000");
  });
  writer.WaitFor(10);
  const v1::GetCheckpointResponse before = Checkpoint();
  // Everything acknowledged before the call begins must be in the copy.
  const std::vector<std::string> acknowledged = writer.Acked();
  const std::string backup = dir_.File("backup.db");
  grpc::Status s = TakeBackup(backup);
  ASSERT_TRUE(s.ok()) << s.error_message();
  writer.WaitFor(writer.Acked().size() +
                 3);  // the load went on after the backup
  writer.Stop();
  ASSERT_GE(acknowledged.size(), 10u);

  const std::string restored = dir_.File("restored.db");
  absl::Status r = server::RestoreDatabase(backup, restored, /*force=*/false);
  ASSERT_TRUE(r.ok()) << r;
  EXPECT_EQ(server::RestoreDatabase(backup, restored, false).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(
      server::RestoreDatabase(dir_.File("none.db"), restored, true).code(),
      absl::StatusCode::kNotFound);

  // Opened as rankd opens it: row digests keyed from the signing key.
  auto server_key = SigningKey::LoadPemFile(s_.dir() + "/audit_ed25519.pem");
  ASSERT_TRUE(server_key.ok()) << server_key.status();
  storage::DatabaseOptions restored_options;
  restored_options.row_digest_key = RowDigestKey(*server_key);
  auto db = storage::Database::Open(restored, restored_options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->IntegrityCheck().value(), "ok");

  // Every acknowledged certificate is there.
  std::set<std::string> numbers;
  ASSERT_TRUE((*db)
                  ->Read([&](storage::Connection& c) -> absl::Status {
                    auto st = c.Prepare("SELECT number FROM certificates");
                    if (!st.ok()) return st.status();
                    while (true) {
                      auto row = (*st)->Step();
                      if (!row.ok()) return row.status();
                      if (!*row) return absl::OkStatus();
                      numbers.insert((*st)->Text(0));
                    }
                  })
                  .ok());
  for (const std::string& n : acknowledged) EXPECT_TRUE(numbers.count(n)) << n;

  // The restored log verifies under the server's key, extends the checkpoint
  // signed before the backup, and its tables match it.
  storage::SqlAuditRepository repo(db->get());
  auto key = SigningKey::LoadPemFile(s_.dir() + "/audit_ed25519.pem");
  ASSERT_TRUE(key.ok()) << key.status();
  ASSERT_EQ(key->public_key().Raw(), before.public_key());
  FakeClock clock(s_.clock().NowSeconds());
  AuditTrail trail(&repo, &*key, &clock);
  auto latest = trail.SignCheckpointNow();
  ASSERT_TRUE(latest.ok()) << latest.status();
  EXPECT_GE(latest->tree_size, before.checkpoint().tree_size());
  std::vector<std::string> entries;
  for (int64_t b = 0; b < latest->tree_size; b += 1000) {
    auto part = repo.Entries(b, std::min(latest->tree_size, b + 1000));
    ASSERT_TRUE(part.ok()) << part.status();
    entries.insert(entries.end(), part->begin(), part->end());
  }
  LogVerifyOptions options;
  options.trusted =
      audit::Checkpoint::FromJson(before.checkpoint().json()).value();
  LogVerdict verdict = VerifyLog(entries, *latest, key->public_key(), options);
  EXPECT_TRUE(verdict.ok) << verdict.reason;
  EXPECT_EQ(verdict.verified_size, latest->tree_size);
  auto tables = trail.VerifyTables();
  ASSERT_TRUE(tables.ok()) << tables.status();
  for (const TableMismatch& m : tables->mismatches) {
    ADD_FAILURE() << m.row << " (" << m.log_index << "): " << m.reason;
  }
}

TEST_F(AuditBackupTest,
       TheAuditorsBackupHasNoResidentIdsTheNationalAdminsKeepsThem) {
  RegisterWithId("身份一", "11010519491231002X");
  RegisterWithId("身份二", "110105194912310038");
  bool removed = true;
  const std::string full = dir_.File("national.db");
  ASSERT_TRUE(TakeBackup(full, s_.admin, &removed).ok());
  EXPECT_FALSE(removed);
  std::vector<std::string> ids = ResidentIds(full);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "11010519491231002X"), 1);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), "110105194912310038"), 1);

  removed = false;
  const std::string redacted = dir_.File("auditor.db");
  ASSERT_TRUE(TakeBackup(redacted, s_.auditor, &removed).ok());
  EXPECT_TRUE(removed);
  ids = ResidentIds(redacted);
  ASSERT_EQ(ids.size(), ResidentIds(full).size());  // every player is there
  for (const std::string& id : ids) EXPECT_EQ(id, "");
  // No page of the file keeps a number either.
  std::ifstream in(redacted, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  EXPECT_EQ(bytes.find("11010519491231002X"), std::string::npos);
  EXPECT_EQ(bytes.find("110105194912310038"), std::string::npos);
  // It says so, and it cannot replace the registry.
  EXPECT_TRUE(storage::HasResidentIdsRemoved(redacted).value());
  EXPECT_FALSE(storage::HasResidentIdsRemoved(full).value());
  absl::Status r =
      server::RestoreDatabase(redacted, dir_.File("restored.db"), false);
  EXPECT_EQ(r.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(r.message()), HasSubstr("auditor's backup"));
  EXPECT_FALSE(std::ifstream(dir_.File("restored.db")).good());
}

TEST_F(AuditBackupTest, TheAuditorCannotTestAGuessedIdAgainstTheLog) {
  const int64_t id = RegisterWithId("身份三", "11010519491231002X");
  // What the auditor sees: every entry, with the digest of the player's row.
  v1::GetCheckpointResponse cp = Checkpoint(s_.auditor);
  v1::GetEntriesRequest req;
  req.set_begin(0);
  req.set_end(cp.log_size());
  v1::GetEntriesResponse entries;
  ASSERT_TRUE(
      audit_->GetEntries(Server::Context(s_.auditor).get(), req, &entries)
          .ok());
  std::string recorded;
  for (const auto& e : entries.entries()) {
    auto entry = AuditEntry::Decode(e.entry());
    ASSERT_TRUE(entry.ok()) << entry.status();
    auto row = entry->rows.find("players:" + std::to_string(id));
    if (row != entry->rows.end()) recorded = row->second;
  }
  ASSERT_FALSE(recorded.empty());
  EXPECT_TRUE(IsKeyedDigest(recorded)) << recorded;
  // The right guess (the row exactly as stored, ID included) digested the
  // way the log used to: it does not match what the log shows.
  std::map<std::string, std::string> plain;
  ASSERT_TRUE(s_.server()
                  ->database()
                  ->Read([&](storage::Connection& c) -> absl::Status {
                    auto all = storage::DigestAllRows(c, /*key=*/"");
                    if (!all.ok()) return all.status();
                    plain = *all;
                    return absl::OkStatus();
                  })
                  .ok());
  const std::string guess = plain.at("players:" + std::to_string(id));
  EXPECT_NE(recorded, guess);
  EXPECT_EQ(recorded.find(guess), std::string::npos);
  // The server, holding the key, still finds every row as logged.
  v1::VerifyTablesResponse tables;
  ASSERT_TRUE(audit_
                  ->VerifyTables(Server::Context(s_.auditor).get(),
                                 v1::VerifyTablesRequest(), &tables)
                  .ok());
  EXPECT_EQ(tables.mismatches_size(), 0);
  EXPECT_GT(tables.rows_checked(), 0);
}

TEST_F(AuditBackupTest, AFileThatIsNotABackupIsRefusedAndNothingIsWritten) {
  const std::string bogus = dir_.File("bogus.db");
  std::ofstream(bogus) << "not an sqlite database at all, just text\n";
  absl::Status s =
      server::RestoreDatabase(bogus, dir_.File("target.db"), false);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("the backup is not usable"));
  EXPECT_FALSE(std::ifstream(dir_.File("target.db")).good());
  EXPECT_FALSE(std::ifstream(dir_.File("target.db.restore-tmp")).good());
}

}  // namespace
}  // namespace gorank::audit
