#include "services/server/restore.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "services/common/status_macros.h"
#include "storage/database.h"
#include "storage/sqlite_database.h"

namespace gorank::server {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

absl::StatusOr<storage::CopyReport> MigrateDatabase(const std::string& from,
                                                    const std::string& to) {
  if (from == to)
    return absl::InvalidArgumentError("--migrate-to names the database itself");
  if (!storage::IsPostgresUrl(from) && !Exists(from)) {
    return absl::NotFoundError("no database " + from);
  }
  if (!storage::IsPostgresUrl(to) && Exists(to)) {
    return absl::FailedPreconditionError(to + " exists: copy into a new file");
  }
  storage::DatabaseOptions source_options;
  source_options.reader_connections = 1;
  GORANK_ASSIGN_OR_RETURN(std::unique_ptr<storage::Database> source,
                          storage::Database::Open(from, source_options));
  storage::DatabaseOptions target_options;
  target_options.reader_connections = 1;
  target_options.schema_only = true;
  auto target = storage::Database::Open(to, target_options);
  if (!target.ok()) return target.status();
  auto report = storage::CopyDatabase(*source, **target);
  if (!report.ok() && !storage::IsPostgresUrl(to)) {
    target->reset();
    std::remove(to.c_str());  // the new, empty file
  }
  return report;
}

absl::Status RestoreDatabase(const std::string& backup_path,
                             const std::string& db_path, bool force) {
  if (!Exists(backup_path))
    return absl::NotFoundError("no backup file " + backup_path);
  // An auditor's copy has no resident ID numbers: restoring it would drop
  // them from the registry. (A file that is no SQLite database fails below.)
  absl::StatusOr<bool> redacted = storage::HasResidentIdsRemoved(backup_path);
  if (redacted.ok() && *redacted) {
    return absl::FailedPreconditionError(
        backup_path +
        " is an auditor's backup: its resident ID numbers were removed, so "
        "it cannot replace the registry; restore a backup taken with the "
        "national admin's token");
  }
  if (storage::IsPostgresUrl(db_path))
    return MigrateDatabase(backup_path, db_path).status();
  if (Exists(db_path + "-wal")) {
    return absl::FailedPreconditionError(
        db_path +
        "-wal exists: stop rankd (it closes the database cleanly) before "
        "restoring");
  }
  if (Exists(db_path) && !force) {
    return absl::FailedPreconditionError(db_path +
                                         " exists; add --force to replace it");
  }
  // Check a private copy, so the backup file itself is never modified.
  const std::string tmp = db_path + ".restore-tmp";
  {
    std::ifstream in(backup_path, std::ios::binary);
    ::unlink(tmp.c_str());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) ::close(fd);  // private before it holds a single ID number
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
    if (!in || !out)
      return absl::UnavailableError("cannot copy " + backup_path + " to " +
                                    tmp);
  }
  {
    storage::DatabaseOptions options;
    options.reader_connections = 0;
    auto db =
        storage::Database::Open(tmp, options);  // integrity check + schema
    if (!db.ok()) {
      std::remove(tmp.c_str());
      return absl::Status(
          db.status().code(),
          "the backup is not usable: " + std::string(db.status().message()));
    }
  }
  std::remove((tmp + "-wal").c_str());
  std::remove((tmp + "-shm").c_str());
  if (std::rename(tmp.c_str(), db_path.c_str()) != 0) {
    return absl::UnavailableError("cannot move the restored database to " +
                                  db_path);
  }
  ::chmod(db_path.c_str(), 0600);
  return absl::OkStatus();
}

}  // namespace gorank::server
