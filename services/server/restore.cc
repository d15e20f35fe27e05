#include "services/server/restore.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "services/common/status_macros.h"
#include "storage/database.h"

namespace gorank::server {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

absl::Status RestoreDatabase(const std::string& backup_path, const std::string& db_path,
                             bool force) {
  if (!Exists(backup_path)) return absl::NotFoundError("no backup file " + backup_path);
  if (Exists(db_path + "-wal")) {
    return absl::FailedPreconditionError(
        db_path + "-wal exists: stop rankd (it closes the database cleanly) before restoring");
  }
  if (Exists(db_path) && !force) {
    return absl::FailedPreconditionError(db_path + " exists; add --force to replace it");
  }
  // Check a private copy, so the backup file itself is never modified.
  const std::string tmp = db_path + ".restore-tmp";
  {
    std::ifstream in(backup_path, std::ios::binary);
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
    if (!in || !out) return absl::UnavailableError("cannot copy " + backup_path + " to " + tmp);
  }
  {
    storage::DatabaseOptions options;
    options.reader_connections = 0;
    auto db = storage::Database::Open(tmp, options);  // integrity check + schema
    if (!db.ok()) {
      std::remove(tmp.c_str());
      return absl::Status(db.status().code(),
                          "the backup is not usable: " + std::string(db.status().message()));
    }
  }
  std::remove((tmp + "-wal").c_str());
  std::remove((tmp + "-shm").c_str());
  if (std::rename(tmp.c_str(), db_path.c_str()) != 0) {
    return absl::UnavailableError("cannot move the restored database to " + db_path);
  }
  ::chmod(db_path.c_str(), 0600);
  return absl::OkStatus();
}

}  // namespace gorank::server
