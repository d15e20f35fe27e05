// The database a test runs against: an SQLite file in the test's TempDir, or,
// in the "pg." runs of a suite (tests/pg/CMakeLists.txt,
// gorank_discover_tests_on_postgres), a fresh schema of the throw-away
// PostgreSQL test server. Fixtures pass the returned string wherever they
// used dir.File("rankd.db"): to storage::Database::Open or to
// ServerConfig::db_path. Tests that only make sense on an SQLite file (they
// open it with sqlite3, move or copy it) skip themselves when
// TestOnPostgres().
#ifndef GORANK_TESTS_TESTING_TEST_DATABASE_H_
#define GORANK_TESTS_TESTING_TEST_DATABASE_H_

#include <string>

#include "tests/testing/temp_dir.h"

namespace gorank::testing {

// Names the file that holds the test server's URL; set by ctest for the "pg."
// tests, unset otherwise.
inline constexpr char kTestPgUrlFileEnv[] = "GORANK_TEST_PG_URL_FILE";

// True when the environment names a PostgreSQL test server (see above).
// Thread-safe.
bool TestOnPostgres();

// Without GORANK_TEST_PG_URL_FILE: dir.File(file), as before. With it: reads
// the server URL from that file, creates a new schema with a name no other
// call uses (t_<pid>_<counter>_<random hex>) in this process's own database
// on that server (d_<pid>_<counter>_<random hex>, created by the first call)
// and returns
//   <server URL with that database>?options=-csearch_path%3D<schema>
// so every connection opened with that URL works inside the schema. `file`
// is then ignored. Aborts with a message naming the file or the server when
// the file cannot be read or the server refuses the connection or the
// CREATE DATABASE or CREATE SCHEMA: a PostgreSQL run never silently falls
// back to SQLite.
// Thread-safe. The schema lives until the test server is stopped.
std::string TestDatabaseUrl(const TempDir& dir,
                            const std::string& file = "rankd.db");

}  // namespace gorank::testing

#endif  // GORANK_TESTS_TESTING_TEST_DATABASE_H_
