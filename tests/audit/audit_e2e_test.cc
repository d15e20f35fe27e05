// End to end with the real rankd and rankctl: certificates are issued, an
// auditor keeps `rankctl audit checkpoint --out old.json`, rankd is stopped,
// ONE row is altered with the SQLite C API, rankd is restarted, and
// `rankctl audit verify --checkpoint old.json` must exit 3 naming the first
// bad entry. An untouched database verifies (exit 0), online and offline
// (`audit export` then `audit verify --log --key --checkpoint`). rankd checks
// its log against its own newest checkpoint at start: an entry rewritten with
// its leaf hash, or the last entry removed, stops writes and is named.
#include <sqlite3.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gorank/v1/audit.grpc.pb.h"
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "gtest/gtest.h"
#include "services/audit/merkle.h"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::audit {
namespace {

using gorank::testing::RankdOptions;
using gorank::testing::RankdProcess;
using gorank::testing::RunCombined;
using gorank::testing::RunResult;
using ::testing::HasSubstr;

std::string ReadAll(const std::string& path) {
  std::string out;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
  }
  return out;
}

// Runs SQL on the stopped server's database; `blob` binds to ?1 when given.
void Tamper(const std::string& db_path, const std::string& sql,
            const std::string* blob = nullptr,
            const std::string* blob2 = nullptr) {
  sqlite3* db = nullptr;
  ASSERT_EQ(
      sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr),
      SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  if (blob) {
    sqlite3_bind_blob(st, 1, blob->data(), static_cast<int>(blob->size()),
                      SQLITE_TRANSIENT);
  }
  if (blob2) {
    sqlite3_bind_blob(st, 2, blob2->data(), static_cast<int>(blob2->size()),
                      SQLITE_TRANSIENT);
  }
  EXPECT_EQ(sqlite3_step(st), SQLITE_DONE) << sqlite3_errmsg(db);
  if (sql.rfind("UPDATE", 0) == 0) {
    EXPECT_EQ(sqlite3_changes(db), 1) << sql;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
}

std::string ReadEntry(const std::string& db_path, int64_t index) {
  sqlite3* db = nullptr;
  std::string out;
  sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT entry FROM audit_log WHERE seq = ?1", -1, &st,
                     nullptr);
  sqlite3_bind_int64(st, 1, index + 1);
  if (sqlite3_step(st) == SQLITE_ROW) {
    out.assign(static_cast<const char*>(sqlite3_column_blob(st, 0)),
               static_cast<size_t>(sqlite3_column_bytes(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

class AuditE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Start();
    ASSERT_GT(rankd_->port(), 0) << rankd_->output();
    admin_ = ReadAll(dir_.File("admin.token"));
    while (!admin_.empty() && admin_.back() == '\n') admin_.pop_back();
    ASSERT_FALSE(admin_.empty());
    Seed();
  }

  void Start() {
    rankd_ = std::make_unique<RankdProcess>();
    RankdOptions options;
    options.db = db_;
    options.flags = {"--log-level", "info"};
    rankd_->Start(RANKD_PATH, options);  // port() is 0 when it failed
    channel_ = grpc::CreateChannel(rankd_->address(),
                                   grpc::InsecureChannelCredentials());
  }

  std::unique_ptr<grpc::ClientContext> Call() {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(20));
    ctx->AddMetadata("authorization", "Bearer " + admin_);
    return ctx;
  }
  int64_t LogSize() {
    v1::GetCheckpointResponse resp;
    grpc::Status s = v1::AuditService::NewStub(channel_)->GetCheckpoint(
        Call().get(), v1::GetCheckpointRequest(), &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.checkpoint().tree_size();
  }
  int64_t Register(const std::string& name) {
    v1::RegisterPlayerRequest req;
    req.set_name(name);
    req.set_gender(v1::GENDER_FEMALE);
    req.mutable_birth_date()->set_year(1995);
    req.mutable_birth_date()->set_month(4);
    req.mutable_birth_date()->set_day(12);
    req.set_agency_prefix("110");
    v1::RegisterPlayerResponse resp;
    grpc::Status s = v1::PlayerRegistry::NewStub(channel_)->RegisterPlayer(
        Call().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player().id();
  }
  std::string Issue(int64_t player, const std::string& grade) {
    v1::IssueCertificateRequest req;
    req.set_player_id(player);
    req.mutable_grade()->set_notation(grade);
    req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
    req.set_basis_reference("全国围棋个人赛 第3名");
    req.set_agency_prefix("000");  // the national body: no stock needed
    v1::IssueCertificateResponse resp;
    grpc::Status s =
        v1::CertificateService::NewStub(channel_)->IssueCertificate(
            Call().get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.certificate().number();
  }

  // Players A, B, C; A gets 1d then 3d, B gets 2d. Records the index of the
  // entry each step appends (one entry a write).
  void Seed() {
    a_ = Register("王一");
    b_index_ = LogSize();
    b_ = Register("王二");
    Register("王三");
    a1_index_ = LogSize();
    a1_ = Issue(a_, "1d");
    b1_index_ = LogSize();
    Issue(b_, "2d");
    Issue(a_, "3d");
    seeded_size_ = LogSize();
    ASSERT_EQ(seeded_size_, b1_index_ + 2);
  }

  RunResult Ctl(std::vector<std::string> args) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server",
                                     rankd_->address(), "--token-file",
                                     dir_.File("admin.token")};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCombined(argv);
  }
  // `rankctl audit checkpoint --out old.json`, then stops rankd.
  void KeepCheckpointAndStop() {
    RunResult cp = Ctl({"audit", "checkpoint", "--out", old_json()});
    ASSERT_EQ(cp.exit_code, 0) << cp.out;
    ASSERT_THAT(ReadAll(old_json()),
                HasSubstr("\"tree_size\":" + std::to_string(seeded_size_)));
    channel_
        .reset();  // an open connection would hold rankd for its grace period
    ASSERT_EQ(rankd_->Stop(), 0) << rankd_->output();
  }
  RunResult VerifyOnline() {
    return Ctl({"audit", "verify", "--checkpoint", old_json()});
  }
  std::string old_json() const { return dir_.File("old.json"); }

  testing::TempDir dir_;
  std::string db_ = dir_.File("rankd.db");
  std::unique_ptr<RankdProcess> rankd_;
  std::shared_ptr<grpc::Channel> channel_;
  std::string admin_;
  int64_t a_ = 0, b_ = 0;
  std::string a1_;
  int64_t b_index_ = 0, a1_index_ = 0, b1_index_ = 0, seeded_size_ = 0;
};

TEST_F(AuditE2eTest, AnUntouchedDatabaseVerifiesOnlineAndOffline) {
  KeepCheckpointAndStop();
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_THAT(
      v.out, HasSubstr("OK: every root recomputed, signature valid, consistent "
                       "with the trusted checkpoint"));
  EXPECT_THAT(v.out, HasSubstr("tables: "));

  const std::string log = dir_.File("log.jsonl");
  RunResult exp = Ctl({"audit", "export", "--out", log});
  ASSERT_EQ(exp.exit_code, 0) << exp.out;
  const size_t at = exp.out.find("public key ");
  ASSERT_NE(at, std::string::npos) << exp.out;
  std::string key = exp.out.substr(at + 11);
  key = key.substr(0, key.find_first_of(" \n"));
  RunResult off = Ctl({"audit", "verify", "--log", log, "--key", key,
                       "--checkpoint", old_json()});
  EXPECT_EQ(off.exit_code, 0) << off.out;
  EXPECT_THAT(off.out, HasSubstr("consistent with the trusted checkpoint"));
  // The wrong key is refused.
  RunResult wrong =
      Ctl({"audit", "verify", "--log", log, "--key",
           "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=", "--checkpoint",
           old_json()});
  EXPECT_EQ(wrong.exit_code, 3) << wrong.out;
}

TEST_F(AuditE2eTest, ACertificateGradeChangedBehindTheLogIsFound) {
  KeepCheckpointAndStop();
  Tamper(db_,
         "UPDATE certificates SET grade_ordinal = grade_ordinal + 2 WHERE "
         "number = '" +
             a1_ + "'");
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 3) << v.out;
  EXPECT_THAT(v.out,
              HasSubstr("FAIL: first bad entry " + std::to_string(a1_index_) +
                        ": certificates:" + a1_ +
                        ": row differs from the state the log recorded"));
}

TEST_F(AuditE2eTest, APlayerNameChangedBehindTheLogIsFound) {
  KeepCheckpointAndStop();
  Tamper(db_,
         "UPDATE players SET name = '汪二' WHERE id = " + std::to_string(b_));
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 3) << v.out;
  // B's row was last written when its 2d certificate raised its rank.
  EXPECT_THAT(v.out,
              HasSubstr("FAIL: first bad entry " + std::to_string(b1_index_) +
                        ": players:" + std::to_string(b_) + ": row differs"));
}

TEST_F(AuditE2eTest, AnAlteredLogEntryIsNamedExactly) {
  KeepCheckpointAndStop();
  std::string entry = ReadEntry(db_, b_index_);
  const size_t at = entry.find("王二");
  ASSERT_NE(at, std::string::npos) << entry;
  entry.replace(at, std::string("王二").size(), "汪二");  // still a valid entry
  Tamper(db_, "DROP TRIGGER audit_log_no_update");
  Tamper(db_,
         "UPDATE audit_log SET entry = ?1 WHERE seq = " +
             std::to_string(b_index_ + 1),
         &entry);
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 3) << v.out;
  EXPECT_THAT(v.out,
              HasSubstr("FAIL: first bad entry " + std::to_string(b_index_) +
                        ": entry " + std::to_string(b_index_) +
                        ": its bytes do not hash to the leaf hash recorded"));

  // Offline, from an export of the altered log: the same entry.
  const std::string log = dir_.File("log.jsonl");
  RunResult exp = Ctl({"audit", "export", "--out", log});
  ASSERT_EQ(exp.exit_code, 0) << exp.out;
  std::string key = exp.out.substr(exp.out.find("public key ") + 11);
  key = key.substr(0, key.find_first_of(" \n"));
  RunResult off = Ctl({"audit", "verify", "--log", log, "--key", key,
                       "--checkpoint", old_json()});
  EXPECT_EQ(off.exit_code, 3) << off.out;
  EXPECT_THAT(off.out, HasSubstr("FAIL: first bad entry " +
                                 std::to_string(b_index_) + ":"));
}

TEST_F(AuditE2eTest,
       ALogRewrittenWithItsLeafHashFailsAgainstTheKeptCheckpoint) {
  KeepCheckpointAndStop();
  std::string entry = ReadEntry(db_, b_index_);
  const size_t at = entry.find("王二");
  ASSERT_NE(at, std::string::npos) << entry;
  entry.replace(at, std::string("王二").size(), "汪二");
  const std::string leaf = LeafHash(entry);
  Tamper(db_, "DROP TRIGGER audit_log_no_update");
  Tamper(db_,
         "UPDATE audit_log SET entry = ?1, leaf_hash = ?2 WHERE seq = " +
             std::to_string(b_index_ + 1),
         &entry, &leaf);
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  // rankd checks the log against the checkpoint it signed itself at start:
  // the keyed link in the next entry names the rewritten one.
  EXPECT_THAT(rankd_->output(), HasSubstr("audit log check FAILED"));
  const std::string named =
      "FAIL: first bad entry " + std::to_string(b_index_) +
      ": rankd's own check: entry " + std::to_string(b_index_) +
      ": altered after it was logged: the keyed link to it in entry " +
      std::to_string(b_index_ + 1);
  // Without a kept checkpoint (it used to pass) and with one (it used to say
  // only "an entry in 0..N"): the same entry.
  RunResult alone = Ctl({"audit", "verify"});
  EXPECT_EQ(alone.exit_code, 3) << alone.out;
  EXPECT_THAT(alone.out, HasSubstr(named));
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 3) << v.out;
  EXPECT_THAT(v.out, HasSubstr(named));
}

TEST_F(AuditE2eTest, TheLastEntryRemovedStopsWritesAndIsNamed) {
  KeepCheckpointAndStop();
  Tamper(db_, "DROP TRIGGER audit_log_no_delete");
  Tamper(db_,
         "DELETE FROM audit_log WHERE seq = " + std::to_string(seeded_size_));
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  const std::string missing =
      "entry " + std::to_string(seeded_size_ - 1) + " is missing";
  EXPECT_THAT(rankd_->output(), HasSubstr("audit log check FAILED"));
  EXPECT_THAT(rankd_->output(), HasSubstr(missing));
  {
    auto health = grpc::health::v1::Health::NewStub(channel_);
    grpc::health::v1::HealthCheckResponse h;
    grpc::ClientContext hctx;
    ASSERT_TRUE(
        health->Check(&hctx, grpc::health::v1::HealthCheckRequest(), &h).ok());
    EXPECT_EQ(h.status(), grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  }
  // Writes are refused with the reason; nothing is signed.
  v1::RegisterPlayerRequest req;
  req.set_name("王四");
  req.set_gender(v1::GENDER_MALE);
  req.set_agency_prefix("110");
  v1::RegisterPlayerResponse resp;
  grpc::Status w = v1::PlayerRegistry::NewStub(channel_)->RegisterPlayer(
      Call().get(), req, &resp);
  EXPECT_EQ(w.error_code(), grpc::StatusCode::UNAVAILABLE) << w.error_message();
  EXPECT_THAT(w.error_message(), HasSubstr(missing));
  RunResult cp = Ctl({"audit", "checkpoint"});
  EXPECT_EQ(cp.exit_code, 3) << cp.out;
  EXPECT_THAT(cp.out,
              HasSubstr("FAIL: rankd signs no checkpoint: first bad entry " +
                        std::to_string(seeded_size_ - 1)));
  // It used to print "first bad entry -1: " and nothing more.
  for (RunResult v : {Ctl({"audit", "verify"}), VerifyOnline()}) {
    EXPECT_EQ(v.exit_code, 3) << v.out;
    EXPECT_THAT(
        v.out,
        HasSubstr("FAIL: first bad entry " + std::to_string(seeded_size_ - 1) +
                  ": the log has " + std::to_string(seeded_size_ - 1) +
                  " entries but the checkpoint of size " +
                  std::to_string(seeded_size_)));
    EXPECT_THAT(v.out, ::testing::Not(HasSubstr("entry -1")));
  }
}

TEST_F(AuditE2eTest, BackupsArePrivateAndAnEmptyYearReportsEveryAnomaly) {
  const std::string backup = dir_.File("private.db");
  RunResult b = Ctl({"backup", "--out", backup});
  ASSERT_EQ(b.exit_code, 0) << b.out;
  struct stat st;
  ASSERT_EQ(::stat(backup.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);  // not 0644 under the usual umask
  EXPECT_THAT(b.out,
              ::testing::Not(HasSubstr("auditor")));  // the admin's keeps IDs

  RunResult r = Ctl({"audit", "report", "--agency", "110", "--year", "2023"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("0 certificates, 12 anomalies"));
  EXPECT_THAT(r.out, HasSubstr("serials: none issued"));  // was "1..0"
  EXPECT_THAT(r.out,
              HasSubstr("anomaly 1: - - no certificate issued in 2023-01"));
  EXPECT_THAT(r.out,
              HasSubstr("anomaly 12: - - no certificate issued in 2023-12"));
}

TEST_F(AuditE2eTest, ABackupRestoredWithRankdVerifiesAgainstTheKeptCheckpoint) {
  RunResult cp = Ctl({"audit", "checkpoint", "--out", old_json()});
  ASSERT_EQ(cp.exit_code, 0) << cp.out;
  const std::string backup = dir_.File("backup.db");
  RunResult b = Ctl({"backup", "--out", backup});
  ASSERT_EQ(b.exit_code, 0) << b.out;
  EXPECT_THAT(b.out, HasSubstr("written to " + backup));
  EXPECT_EQ(Ctl({"backup", "--out", backup}).exit_code, 2);  // never overwrites
  channel_.reset();
  ASSERT_EQ(rankd_->Stop(), 0) << rankd_->output();

  // Restored beside a copy of the signing key, as the operator would.
  const std::string dir = dir_.File("restored");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  const std::string restored = dir + "/rankd.db";
  RunResult r =
      RunCombined({RANKD_PATH, "--restore", backup, "--db", restored});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(RunCombined({RANKD_PATH, "--restore", backup, "--db", restored})
                .exit_code,
            1);
  {
    std::ofstream key(dir + "/audit_ed25519.pem");
    key << ReadAll(dir_.File("audit_ed25519.pem"));
  }
  ::chmod((dir + "/audit_ed25519.pem").c_str(), 0600);
  db_ = restored;
  Start();
  ASSERT_GT(rankd_->port(), 0) << rankd_->output();
  EXPECT_THAT(rankd_->output(), ::testing::Not(HasSubstr("first start")));
  RunResult v = VerifyOnline();
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_THAT(v.out, HasSubstr("consistent with the trusted checkpoint"));
}

}  // namespace
}  // namespace gorank::audit
