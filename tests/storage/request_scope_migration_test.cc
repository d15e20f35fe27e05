// Migration 8 (request ids scoped by the caller's agency) on both engines,
// from version 7 with certificates issued by an agency and by the national
// admin: the stored keys become "SCOPE:ID" (scope from issued_by), a retry
// finds its certificate in its own scope only, the same id is free in another
// scope, and the one audit entry records the rewritten rows' digests (the
// tables still verify). From an empty database it writes nothing.
#include <sqlite3.h>

#include <map>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "services/audit/audit_entry.h"
#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/pg_database.h"
#include "storage/row_digest.h"
#include "storage/sql_certificate_repository.h"
#include "storage/sqlite_database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage {
namespace {

constexpr int kScopedVersion = 8;

std::unique_ptr<Connection> RawConnection(const std::string& url_or_path) {
  if (testing::TestOnPostgres()) {
    auto c = PgConnection::Connect(url_or_path, /*writer=*/true);
    return c.ok() ? std::move(*c) : nullptr;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(url_or_path.c_str(), &db) != SQLITE_OK) return nullptr;
  sqlite3_extended_result_codes(db, 1);
  auto conn = std::make_unique<SqliteConnection>(db);
  conn->WatchWrites();  // as Database does for its writer
  return conn;
}

absl::StatusOr<std::string> Text(Connection& c, const char* sql) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return absl::NotFoundError("no row");
  return st->Text(0);
}

absl::StatusOr<int64_t> Int(Connection& c, const char* sql) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(sql));
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return absl::NotFoundError("no row");
  return st->Int(0);
}

TEST(RequestScopeMigrationTest, IsVersionEight) {
  ASSERT_GE(LatestSchemaVersion(), kScopedVersion);
  EXPECT_NE(std::string(Migrations()[kScopedVersion - 1].description)
                .find("request ids"),
            std::string::npos);
  EXPECT_TRUE(Migrations()[kScopedVersion - 1].loads_data);
}

TEST(RequestScopeMigrationTest, RewritesStoredKeysByTheIssuersAgency) {
  testing::TempDir dir;
  const std::string url = testing::TestDatabaseUrl(dir, "m.db");
  {
    std::unique_ptr<Connection> conn = RawConnection(url);
    ASSERT_NE(conn, nullptr);
    ASSERT_TRUE(Migrate(*conn, kScopedVersion - 1).ok());
    const int64_t log_before = *Int(*conn, "SELECT count(*) FROM audit_log");
    ASSERT_TRUE(
        conn->Exec(
                "INSERT INTO players(id, name, gender, agency_prefix, "
                "rank_ordinal, "
                "created_unix, updated_unix) VALUES(1, 'p', 0, '110', 3, 1, 1);"
                "INSERT INTO certificates(number, prefix, year, serial, "
                "player_id, "
                "grade_ordinal, issue_date, basis, basis_reference, issued_by, "
                "issued_unix, request_id, request_hash) VALUES "
                "('110250001', '110', 2025, 1, 1, 30, '2025-01-02', 1, 'r', "
                "'agency:110/token:7', 1, 'promotion-1', 'h1'),"
                "('000250001', '000', 2025, 1, 1, 31, '2025-01-03', 1, 'r', "
                "'national/token:1', 2, 'batch-9', 'h2'),"
                "('110250002', '110', 2025, 2, 1, 30, '2025-01-04', 1, 'r', "
                "'agency:110/token:7', 3, NULL, '')")
            .ok());
    const absl::Status migrated = Migrate(*conn, kScopedVersion);
    ASSERT_TRUE(migrated.ok()) << migrated;
    EXPECT_EQ(
        *Text(*conn,
              "SELECT request_id FROM certificates WHERE number = '110250001'"),
        "110:promotion-1");
    EXPECT_EQ(
        *Text(*conn,
              "SELECT request_id FROM certificates WHERE number = '000250001'"),
        "000:batch-9");
    EXPECT_EQ(
        *Int(*conn,
             "SELECT count(*) FROM certificates WHERE number = '110250002' "
             "AND request_id IS NULL"),
        1);
    // One audit entry, holding the new digests of exactly the two rows.
    ASSERT_EQ(*Int(*conn, "SELECT count(*) FROM audit_log"), log_before + 1);
    auto st =
        conn->Prepare("SELECT entry FROM audit_log ORDER BY seq DESC LIMIT 1");
    ASSERT_TRUE(st.ok());
    ASSERT_TRUE(*(*st)->Step());
    auto entry = audit::AuditEntry::Decode((*st)->Blob(0));
    ASSERT_TRUE(entry.ok()) << entry.status();
    st->reset();
    EXPECT_EQ(entry->action, "certificate.scope_request_ids");
    ASSERT_TRUE(conn->Exec("BEGIN").ok());
    auto current = DigestAllRows(*conn);
    ASSERT_TRUE(conn->Exec("COMMIT").ok());
    ASSERT_TRUE(current.ok()) << current.status();
    EXPECT_EQ(entry->rows.size(), 2u);
    for (const char* row :
         {"certificates:110250001", "certificates:000250001"}) {
      ASSERT_TRUE(entry->rows.count(row)) << row;
      EXPECT_EQ(entry->rows.at(row), current->at(row)) << row;
    }
  }
  // Through the repository: each scope finds its own; the other scope is free.
  auto db = Database::Open(url);
  ASSERT_TRUE(db.ok()) << db.status();
  SqlCertificateRepository certs(db->get());
  auto own = certs.FindByRequestId("110", "promotion-1");
  ASSERT_TRUE(own.ok()) << own.status();
  ASSERT_TRUE(own->has_value());
  EXPECT_EQ((*own)->number.ToString(), "110250001");
  EXPECT_EQ((*own)->request_id, "promotion-1");
  EXPECT_EQ((*own)->request_scope, "110");
  EXPECT_FALSE(certs.FindByRequestId("310", "promotion-1")->has_value());
  EXPECT_FALSE(certs.FindByRequestId("000", "promotion-1")->has_value());
  auto national = certs.FindByRequestId("000", "batch-9");
  ASSERT_TRUE(national.ok() && national->has_value());
  EXPECT_EQ((*national)->number.ToString(), "000250001");
}

TEST(RequestScopeMigrationTest, AnEmptyDatabaseGetsNoAuditEntry) {
  testing::TempDir dir;
  const std::string url = testing::TestDatabaseUrl(dir, "e.db");
  std::unique_ptr<Connection> conn = RawConnection(url);
  ASSERT_NE(conn, nullptr);
  ASSERT_TRUE(Migrate(*conn, kScopedVersion - 1).ok());
  const int64_t log_before = *Int(*conn, "SELECT count(*) FROM audit_log");
  ASSERT_TRUE(Migrate(*conn, kScopedVersion).ok());
  EXPECT_EQ(*Int(*conn, "SELECT count(*) FROM audit_log"), log_before);
}

}  // namespace
}  // namespace gorank::storage
