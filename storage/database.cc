#include "storage/database.h"

#include "services/common/status_macros.h"
#include "storage/pg_database.h"
#include "storage/sqlite_database.h"

namespace gorank::storage {

absl::Status Statement::Run() {
  while (true) {
    GORANK_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return absl::OkStatus();
  }
}

absl::Status RunTransaction(
    Connection& c, bool write,
    const std::function<absl::Status(Connection&)>& fn) {
  if (write) c.TakeAuditEntries();  // a failed write's are not this one's
  c.ForgetAuditTip();
  GORANK_RETURN_IF_ERROR(write ? c.BeginWrite() : c.BeginRead());
  absl::Status s = fn(c);
  if (s.ok()) s = c.Commit();
  if (!s.ok()) c.Rollback();
  return s;
}

absl::Status Connection::RollbackTo(const std::string& name) {
  GORANK_RETURN_IF_ERROR(Exec("ROLLBACK TO SAVEPOINT " + name));
  ForgetAuditTip();
  return TakeWrittenRowDigests().status();
}

absl::StatusOr<std::map<std::string, std::string>>
Connection::TakeWrittenRowDigests() {
  GORANK_ASSIGN_OR_RETURN(std::unique_ptr<WrittenRowReads> reads,
                          SendWrittenRowReads());
  return reads->Take(/*hinted_only=*/false);
}

absl::StatusOr<std::vector<std::string>> CachedCatalogue(
    CatalogueCache& cache, const std::string& table,
    const std::function<absl::StatusOr<std::vector<std::string>>()>& load) {
  auto it = cache.find(table);
  if (it != cache.end()) return it->second;
  GORANK_ASSIGN_OR_RETURN(std::vector<std::string> answer, load());
  if (!answer.empty()) cache.emplace(table, answer);
  return answer;
}

std::vector<std::string> SplitWhenAllStartWith(
    const std::string& sql, std::initializer_list<const char*> verbs) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin < sql.size()) {
    size_t end = sql.find(';', begin);
    if (end == std::string::npos) end = sql.size();
    const size_t first = sql.find_first_not_of(' ', begin);
    if (first == std::string::npos || first >= end) return {};
    std::string part = sql.substr(first, end - first);
    bool known = false;
    for (const char* verb : verbs) known = known || part.rfind(verb, 0) == 0;
    if (!known) return {};
    parts.push_back(std::move(part));
    begin = end + 1;
  }
  return parts;
}

std::string DisplayAddress(const std::string& url) {
  if (!IsPostgresUrl(url)) return url;
  // postgresql://user:password@host/... -> postgresql://user:***@host/...
  const size_t scheme = url.find("://");
  const size_t at = url.find('@', scheme + 3);
  if (at == std::string::npos) return url;
  const size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

absl::StatusOr<std::unique_ptr<Database>> Database::Open(
    const std::string& address, const DatabaseOptions& options) {
  if (!options.read_replica.empty() && !IsPostgresUrl(options.read_replica)) {
    return absl::InvalidArgumentError(
        "a read replica is a PostgreSQL URL (postgresql://...), not " +
        options.read_replica);
  }
  if (IsPostgresUrl(address)) return PgDatabase::Open(address, options);
  if (!options.read_replica.empty()) {
    return absl::InvalidArgumentError(
        "a read replica needs the database on PostgreSQL; " + address +
        " is an SQLite file");
  }
  return SqliteDatabase::Open(address, options);
}

void Database::RefuseWrites(absl::Status why) {
  std::lock_guard<std::mutex> lock(refusal_mu_);
  refusal_ = std::move(why);
}

absl::Status Database::write_refusal() const {
  std::lock_guard<std::mutex> lock(refusal_mu_);
  return refusal_;
}

absl::StatusOr<int> Database::SchemaVersion() {
  int version = 0;
  GORANK_RETURN_IF_ERROR(Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(version, c.ReadSchemaVersion());
    return absl::OkStatus();
  }));
  return version;
}

}  // namespace gorank::storage
