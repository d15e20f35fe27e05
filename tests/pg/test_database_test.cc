// TestDatabaseUrl: an SQLite file without GORANK_TEST_PG_URL_FILE; with it
// (the "pg." run, against the real throw-away server of the ctest fixture)
// a fresh schema per call that every connection made from the URL works in.
#include "tests/testing/test_database.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <stdlib.h>

#include <fstream>
#include <memory>
#include <optional>
#include <string>

namespace gorank::testing {
namespace {

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;

Conn Connect(const std::string& url) {
  Conn conn(PQconnectdb(url.c_str()), &PQfinish);
  EXPECT_EQ(PQstatus(conn.get()), CONNECTION_OK) << PQerrorMessage(conn.get());
  return conn;
}

// The first column of the first row of `sql`'s answer ("" on error).
std::string Query(PGconn* conn, const std::string& sql) {
  std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn, sql.c_str()),
                                                  &PQclear);
  const ExecStatusType status = PQresultStatus(r.get());
  EXPECT_TRUE(status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK)
      << sql << ": " << PQerrorMessage(conn);
  if (status != PGRES_TUPLES_OK || PQntuples(r.get()) == 0) return "";
  return PQgetvalue(r.get(), 0, 0);
}

// Sets or unsets the variable for one scope, restoring the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(TestDatabaseUrlTest, WithoutTheServerIsAnSqliteFileInTheTempDir) {
  ScopedEnv unset(kTestPgUrlFileEnv, nullptr);
  TempDir dir;
  EXPECT_FALSE(TestOnPostgres());
  EXPECT_EQ(TestDatabaseUrl(dir), dir.path() + "/rankd.db");
  EXPECT_EQ(TestDatabaseUrl(dir, "events.db"), dir.path() + "/events.db");
}

TEST(TestDatabaseUrlTest, EmptyVariableMeansSqlite) {
  ScopedEnv empty(kTestPgUrlFileEnv, "");
  TempDir dir;
  EXPECT_FALSE(TestOnPostgres());
  EXPECT_EQ(TestDatabaseUrl(dir), dir.File("rankd.db"));
}

TEST(TestDatabaseUrlDeathTest, UnreadableUrlFileAborts) {
  TempDir dir;
  const std::string missing = dir.File("no-such-url");
  EXPECT_DEATH(
      {
        ScopedEnv env(kTestPgUrlFileEnv, missing.c_str());
        TestDatabaseUrl(dir);
      },
      "cannot read the PostgreSQL test server's URL from .*no-such-url");
}

TEST(TestDatabaseUrlDeathTest, FileWithoutUrlAborts) {
  TempDir dir;
  const std::string file = dir.File("url");
  std::ofstream(file) << "rankd.db\n";
  EXPECT_DEATH(
      {
        ScopedEnv env(kTestPgUrlFileEnv, file.c_str());
        TestDatabaseUrl(dir);
      },
      "holds no postgresql:// URL");
}

TEST(TestDatabaseUrlDeathTest, UnreachableServerAborts) {
  TempDir dir;
  const std::string file = dir.File("url");
  // Port 1 on loopback: nothing listens there.
  std::ofstream(file) << "postgresql://rankd_test@127.0.0.1:1/postgres\n";
  EXPECT_DEATH(
      {
        ScopedEnv env(kTestPgUrlFileEnv, file.c_str());
        TestDatabaseUrl(dir);
      },
      "cannot connect to the PostgreSQL test server "
      "postgresql://rankd_test@127.0.0.1:1/postgres");
}

class TestDatabaseUrlOnPostgresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TestOnPostgres()) {
      GTEST_SKIP() << "needs the PostgreSQL test server (the pg. run)";
    }
  }
  TempDir dir_;
};

TEST_F(TestDatabaseUrlOnPostgresTest, UrlPointsIntoAFreshEmptySchema) {
  const std::string url = TestDatabaseUrl(dir_);
  ASSERT_EQ(url.rfind("postgresql://rankd_test@127.0.0.1:", 0), 0u) << url;
  const std::string::size_type at = url.find("?options=-csearch_path%3Dt_");
  ASSERT_NE(at, std::string::npos) << url;
  const std::string schema =
      url.substr(at + std::string("?options=-csearch_path%3D").size());

  Conn conn = Connect(url);
  EXPECT_EQ(Query(conn.get(), "SHOW search_path"), schema);
  EXPECT_EQ(Query(conn.get(), "SELECT current_schema()"), schema);
  EXPECT_EQ(Query(conn.get(),
                  "SELECT count(*) FROM information_schema.tables WHERE "
                  "table_schema = current_schema()"),
            "0");
  // An unqualified table lands in the schema.
  Query(conn.get(), "CREATE TABLE players (id bigint PRIMARY KEY)");
  // (Other tests run beside this one: their schemas hold tables of the
  // same name.)
  EXPECT_EQ(Query(conn.get(),
                  "SELECT count(*) FROM information_schema.tables WHERE "
                  "table_name = 'players' AND table_schema = '" +
                      schema + "'"),
            "1");
}

TEST_F(TestDatabaseUrlOnPostgresTest, EveryCallGetsItsOwnSchema) {
  const std::string first = TestDatabaseUrl(dir_);
  const std::string second = TestDatabaseUrl(dir_, "other.db");
  ASSERT_NE(first, second);

  Conn a = Connect(first);
  Conn b = Connect(second);
  Query(a.get(), "CREATE TABLE events (id bigint)");
  Query(a.get(), "INSERT INTO events VALUES (7)");
  // The same unqualified name in the second schema is a different table.
  Query(b.get(), "CREATE TABLE events (id bigint)");
  EXPECT_EQ(Query(b.get(), "SELECT count(*) FROM events"), "0");
  EXPECT_EQ(Query(a.get(), "SELECT count(*) FROM events"), "1");
}

TEST_F(TestDatabaseUrlOnPostgresTest, TwoConnectionsFromOneUrlShareTheSchema) {
  const std::string url = TestDatabaseUrl(dir_);
  Conn writer = Connect(url);
  Conn reader = Connect(url);
  Query(writer.get(), "CREATE TABLE ranks (grade text)");
  Query(writer.get(), "INSERT INTO ranks VALUES ('3d')");
  EXPECT_EQ(Query(reader.get(), "SELECT grade FROM ranks"), "3d");
}

}  // namespace
}  // namespace gorank::testing
