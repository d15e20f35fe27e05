// The implementations the storage contract suite runs against: SQLite (a
// temp-file database opened with storage::Database::Open) and the in-memory
// fakes of tests/testing. A new engine adds one factory here.
#ifndef GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_
#define GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_

#include <memory>
#include <string>
#include <vector>

#include "services/auth/token_repository.h"
#include "services/common/change.h"
#include "services/registry/registry_repository.h"

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
};

std::unique_ptr<Backend> MakeSqliteBackend();
std::unique_ptr<Backend> MakeInMemoryBackend();

}  // namespace gorank::storage_test

#endif  // GORANK_TESTS_STORAGE_REPOSITORY_BACKENDS_H_
