#include "tests/testing/test_database.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
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

std::string NewSchemaName() {
  static std::atomic<int> counter{0};
  std::random_device random;
  std::ostringstream name;
  name << "t_" << ::getpid() << "_" << ++counter << "_" << std::hex
       << (random() & 0xffffff);
  return name.str();
}

void CreateSchema(const std::string& server_url, const std::string& schema) {
  const char* keywords[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {server_url.c_str(), "10", nullptr};
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(
      PQconnectdbParams(keywords, values, /*expand_dbname=*/1), &PQfinish);
  if (conn == nullptr || PQstatus(conn.get()) != CONNECTION_OK) {
    Die("cannot connect to the PostgreSQL test server " + server_url + ": " +
        (conn ? PQerrorMessage(conn.get()) : "out of memory"));
  }
  // The name is ours (letters, digits, '_'): no quoting needed.
  std::unique_ptr<PGresult, decltype(&PQclear)> result(
      PQexec(conn.get(), ("CREATE SCHEMA " + schema).c_str()), &PQclear);
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    Die("CREATE SCHEMA " + schema + " on " + server_url +
        " failed: " + PQerrorMessage(conn.get()));
  }
}

}  // namespace

bool TestOnPostgres() {
  const char* url_file = std::getenv(kTestPgUrlFileEnv);
  return url_file != nullptr && *url_file != '\0';
}

std::string TestDatabaseUrl(const TempDir& dir, const std::string& file) {
  if (!TestOnPostgres()) return dir.File(file);
  const std::string server_url = ReadServerUrl(std::getenv(kTestPgUrlFileEnv));
  const std::string schema = NewSchemaName();
  CreateSchema(server_url, schema);
  // libpq decodes %3D to '=': options=-csearch_path=<schema>.
  return server_url + (server_url.find('?') == std::string::npos ? "?" : "&") +
         "options=-csearch_path%3D" + schema;
}

}  // namespace gorank::testing
