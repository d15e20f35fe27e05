#include "tests/testing/test_database.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>

namespace gorank::testing {
namespace {

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "TestDatabaseUrl: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string ReadServerUrl(const char* url_file) {
  std::ifstream in(url_file);
  if (!in) {
    Die(std::string("cannot read the PostgreSQL test server's URL from ") +
        url_file + " (" + kTestPgUrlFileEnv +
        "); is the ctest fixture pg_server_start (tests/pg/pg_server.sh) "
        "running?");
  }
  std::string url;
  in >> url;
  if (url.rfind("postgresql://", 0) != 0) {
    Die(std::string(url_file) + " holds no postgresql:// URL");
  }
  return url;
}

// <prefix>_<pid>_<counter>_<random hex>: no other call uses it.
std::string NewName(const char* prefix) {
  static std::atomic<int> counter{0};
  std::random_device random;
  std::ostringstream name;
  name << prefix << "_" << ::getpid() << "_" << ++counter << "_" << std::hex
       << (random() & 0xffffff);
  return name.str();
}

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;

Conn ConnectOrDie(const std::string& url) {
  const char* keywords[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {url.c_str(), "10", nullptr};
  Conn conn(PQconnectdbParams(keywords, values, /*expand_dbname=*/1),
            &PQfinish);
  if (conn == nullptr || PQstatus(conn.get()) != CONNECTION_OK) {
    Die("cannot connect to the PostgreSQL test server " + url + ": " +
        (conn ? PQerrorMessage(conn.get()) : "out of memory"));
  }
  return conn;
}

void ExecOrDie(PGconn* conn, const std::string& sql, const std::string& url) {
  std::unique_ptr<PGresult, decltype(&PQclear)> result(
      PQexec(conn, sql.c_str()), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    Die(sql + " on " + url + " failed: " + PQerrorMessage(conn));
  }
}

// The server URL with its database name replaced by `database`.
std::string WithDatabase(const std::string& server_url,
                         const std::string& database) {
  const std::string::size_type host = server_url.find("://") + 3;
  const std::string::size_type query = server_url.find('?', host);
  const std::string::size_type slash = server_url.find('/', host);
  const std::string::size_type end =
      query == std::string::npos ? server_url.size() : query;
  const std::string::size_type path =
      slash == std::string::npos || slash > end ? end : slash;
  return server_url.substr(0, path) + "/" + database + server_url.substr(end);
}

// This process's database on the server (created on the first call): every
// schema of the process lives in it. ctest runs each test in a process of
// its own, so each database's catalog holds one test's tables: with every
// test's schema in one database, the catalog queries of each migration
// (information_schema) slowed down with every schema made before (a pg. test
// took 1.7 s at the start of a ctest -j2 run and 6 s after 250 others; the
// 382 pg. tests 1,355 s in all, 429 s with a database each). A database
// costs about 0.5 s to create and 10 MB of disk (4.1 GB for the 382), freed
// when the test server is stopped.
std::string ProcessDatabaseUrl(const std::string& server_url) {
  static std::mutex mu;
  // Server URL -> this process's database URL on it (never freed).
  static auto* databases = new std::map<std::string, std::string>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = databases->find(server_url);
  if (it != databases->end()) return it->second;
  const std::string database = NewName("d");
  Conn conn = ConnectOrDie(server_url);
  // The name is ours (letters, digits, '_'): no quoting needed.
  ExecOrDie(conn.get(), "CREATE DATABASE " + database, server_url);
  return databases->emplace(server_url, WithDatabase(server_url, database))
      .first->second;
}

void CreateSchema(const std::string& database_url, const std::string& schema) {
  Conn conn = ConnectOrDie(database_url);
  ExecOrDie(conn.get(), "CREATE SCHEMA " + schema, database_url);
}

}  // namespace

bool TestOnPostgres() {
  const char* url_file = std::getenv(kTestPgUrlFileEnv);
  return url_file != nullptr && *url_file != '\0';
}

std::string TestDatabaseUrl(const TempDir& dir, const std::string& file) {
  if (!TestOnPostgres()) return dir.File(file);
  const std::string server_url = ReadServerUrl(std::getenv(kTestPgUrlFileEnv));
  const std::string database_url = ProcessDatabaseUrl(server_url);
  const std::string schema = NewName("t");
  CreateSchema(database_url, schema);
  // libpq decodes %3D to '=': options=-csearch_path=<schema>.
  return database_url +
         (database_url.find('?') == std::string::npos ? "?" : "&") +
         "options=-csearch_path%3D" + schema;
}

}  // namespace gorank::testing
