// The SQL translation for PostgreSQL (storage/pg_database.h, pg_schema.h):
// parameters and migration DDL. Pure text; no server needed.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "storage/pg_database.h"
#include "storage/pg_schema.h"

namespace gorank::storage {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(PostgresParametersTest, NumberedAndBareParametersBecomeDollarParameters) {
  EXPECT_EQ(ToPostgresParameters("SELECT a FROM t WHERE b = ?1 AND c = ?2"),
            "SELECT a FROM t WHERE b = $1 AND c = $2");
  EXPECT_EQ(ToPostgresParameters("VALUES(?, ?, ?)"), "VALUES($1, $2, $3)");
  // A bare ? after ?N takes the next number, as in SQLite.
  EXPECT_EQ(ToPostgresParameters("?2, ?"), "$2, $3");
  EXPECT_EQ(ToPostgresParameters("(?1 = '' OR x = ?1) LIMIT ?10"),
            "($1 = '' OR x = $1) LIMIT $10");
}

TEST(PostgresParametersTest, QuotedTextIsLeftAlone) {
  EXPECT_EQ(
      ToPostgresParameters("SELECT 'why?' , \"col?\" FROM t WHERE a = ?1"),
      "SELECT 'why?' , \"col?\" FROM t WHERE a = $1");
  EXPECT_EQ(ToPostgresParameters("SELECT 'it''s ?' WHERE a = ?"),
            "SELECT 'it''s ?' WHERE a = $1");
}

TEST(PostgresDdlTest, TypesStrictAndTriggersAreTranslated) {
  const std::string ddl = ToPostgresDdl(R"sql(
CREATE TABLE audit_log(
  seq INTEGER PRIMARY KEY,
  entry BLOB NOT NULL
) STRICT;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TABLE players(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  agency_prefix TEXT NOT NULL REFERENCES agencies(prefix)
) STRICT;
)sql");
  EXPECT_THAT(ddl, HasSubstr("seq BIGINT PRIMARY KEY"));
  EXPECT_THAT(ddl, HasSubstr("entry BYTEA NOT NULL"));
  EXPECT_THAT(ddl, HasSubstr("name TEXT COLLATE \"C\" NOT NULL"));
  EXPECT_THAT(ddl, HasSubstr("REFERENCES agencies(prefix) DEFERRABLE"));
  EXPECT_THAT(ddl, Not(HasSubstr("STRICT")));
  EXPECT_THAT(ddl, Not(HasSubstr("TRIGGER")));
  EXPECT_THAT(ddl, Not(HasSubstr("RAISE")));
  EXPECT_THAT(ddl, Not(HasSubstr("INTEGER")));
}

}  // namespace
}  // namespace gorank::storage
