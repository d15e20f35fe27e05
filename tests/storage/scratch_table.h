// The scratch table `t` the database wrapper tests (database_health_test,
// sqlite_connection_test) create and count.
#ifndef GORANK_TESTS_STORAGE_SCRATCH_TABLE_H_
#define GORANK_TESTS_STORAGE_SCRATCH_TABLE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "services/common/status_macros.h"
#include "storage/database.h"

namespace gorank::storage {

// SELECT count(*) FROM t, in a read.
inline absl::StatusOr<int64_t> CountScratchRows(Database& db) {
  int64_t n = 0;
  GORANK_RETURN_IF_ERROR(db.Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare("SELECT count(*) FROM t"));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) n = st->Int(0);
    return absl::OkStatus();
  }));
  return n;
}

}  // namespace gorank::storage

#endif  // GORANK_TESTS_STORAGE_SCRATCH_TABLE_H_
