#include "storage/storage_stats.h"

#include "services/common/status_macros.h"

namespace gorank::storage {
namespace {
constexpr char kCountCertificates[] = "SELECT count(*) FROM certificates";
}  // namespace

absl::StatusOr<int64_t> CountIssuedCertificates(Database& db) {
  int64_t count = 0;
  GORANK_RETURN_IF_ERROR(db.Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kCountCertificates));
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (row) count = st->Int(0);
    return absl::OkStatus();
  }));
  return count;
}

}  // namespace gorank::storage
