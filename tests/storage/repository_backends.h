// The implementations the storage contract suites run against: SQLite (a
// temp-file database opened with storage::Database::Open), PostgreSQL (a
// fresh schema of the throw-away test server, tests/pg) and the in-memory
// fakes of tests/testing. A new engine adds one factory here.
//
// Each case is named for its engine. The "Postgres" cases run in the suites'
// "pg." twins (ctest, GORANK_TEST_PG_URL_FILE set) and skip elsewhere; the
// "Sqlite" cases always use an SQLite file, so the plain ctest run registers
// no "Postgres" case and the pg. run no "Sqlite" one (tests/storage/
// CMakeLists.txt).
#ifndef GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_
#define GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_

#include <memory>
#include <string>
#include <vector>

#include "services/auth/token_repository.h"
#include "services/common/change.h"
#include "services/registry/registry_repository.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual registry::RegistryRepository* registry() = 0;
  virtual auth::TokenRepository* tokens() = 0;
  // Audit records written since the backend was created (the SQLite
  // migration's own seeding entry excluded): registry ones, then token ones
  // for the in-memory fakes; in commit order for SQLite.
  virtual std::vector<ChangeRecord> Audit() = 0;
};

using BackendFactory = std::unique_ptr<Backend> (*)();

struct NamedFactory {
  std::string name;
  BackendFactory make;
  // Runs only on the PostgreSQL test server: SetUp skips it elsewhere.
  bool needs_postgres = false;
};

std::unique_ptr<Backend> MakeSqliteBackend();
// REQUIRES: EngineUnavailable(storage::Engine::kPostgres) is empty.
std::unique_ptr<Backend> MakePostgresBackend();
std::unique_ptr<Backend> MakeInMemoryBackend();

// The two SQL engines, for suites of the SQL repositories alone.
struct SqlEngine {
  std::string name;  // "Sqlite" or "Postgres": the case's name
  storage::Engine engine;
};
std::vector<SqlEngine> SqlEngines();

// "" when `engine` can run here, else why not (the case skips with it):
// PostgreSQL needs the test server that ctest starts for the "pg." runs.
std::string EngineUnavailable(storage::Engine engine);

// The address of a fresh, empty database of `engine`: the SQLite file
// dir.File(file), or a new schema of the PostgreSQL test server.
// REQUIRES: EngineUnavailable(engine) is empty.
std::string EngineAddress(storage::Engine engine, const testing::TempDir& dir,
                          const std::string& file);

}  // namespace gorank::storage_test

#endif  // GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_
