#include "tests/storage/repository_backends.h"

#include <cstdlib>
#include <iostream>

#include "storage/database.h"
#include "storage/sql_registry_repository.h"
#include "storage/sql_token_repository.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/in_memory_registry_repository.h"
#include "tests/testing/in_memory_token_repository.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank::storage_test {
namespace {

class SqlBackend : public Backend {
 public:
  explicit SqlBackend(storage::Engine engine) {
    auto db =
        storage::Database::Open(EngineAddress(engine, dir_, "registry.db"));
    if (!db.ok()) {
      std::cerr << "cannot open the test database: " << db.status() << "\n";
      std::abort();
    }
    db_ = std::move(*db);
    registry_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
    tokens_ = std::make_unique<storage::SqlTokenRepository>(db_.get());
    baseline_ = testing::ReadAuditLog(db_.get())->size();
  }
  registry::RegistryRepository* registry() override { return registry_.get(); }
  auth::TokenRepository* tokens() override { return tokens_.get(); }
  std::vector<ChangeRecord> Audit() override {
    std::vector<ChangeRecord> all = testing::ReadAuditLog(db_.get()).value();
    return std::vector<ChangeRecord>(all.begin() + baseline_, all.end());
  }

 private:
  testing::TempDir dir_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_;
  std::unique_ptr<storage::SqlTokenRepository> tokens_;
  size_t baseline_ = 0;
};

class InMemoryBackend : public Backend {
 public:
  InMemoryBackend() : tokens_(&registry_) {}
  registry::RegistryRepository* registry() override { return &registry_; }
  auth::TokenRepository* tokens() override { return &tokens_; }
  std::vector<ChangeRecord> Audit() override {
    std::vector<ChangeRecord> all = registry_.AuditLog();
    for (ChangeRecord& c : tokens_.AuditLog()) all.push_back(std::move(c));
    return all;
  }

 private:
  testing::InMemoryRegistryRepository registry_;
  testing::InMemoryTokenRepository tokens_;
};

}  // namespace

std::unique_ptr<Backend> MakeSqliteBackend() {
  return std::make_unique<SqlBackend>(storage::Engine::kSqlite);
}
std::unique_ptr<Backend> MakePostgresBackend() {
  return std::make_unique<SqlBackend>(storage::Engine::kPostgres);
}
std::unique_ptr<Backend> MakeInMemoryBackend() {
  return std::make_unique<InMemoryBackend>();
}

std::vector<SqlEngine> SqlEngines() {
  return {{"Sqlite", storage::Engine::kSqlite},
          {"Postgres", storage::Engine::kPostgres}};
}

std::string EngineUnavailable(storage::Engine engine) {
  if (engine == storage::Engine::kPostgres && !testing::TestOnPostgres()) {
    return std::string(
               "the PostgreSQL case runs in the suite's pg. twin "
               "(ctest -R '^pg\\.'), which sets ") +
           testing::kTestPgUrlFileEnv;
  }
  return "";
}

std::string EngineAddress(storage::Engine engine, const testing::TempDir& dir,
                          const std::string& file) {
  if (engine == storage::Engine::kSqlite) return dir.File(file);
  if (!testing::TestOnPostgres()) {
    std::cerr << "EngineAddress: no PostgreSQL test server ("
              << testing::kTestPgUrlFileEnv << " unset)\n";
    std::abort();
  }
  return testing::TestDatabaseUrl(dir, file);
}

}  // namespace gorank::storage_test
