// sqlite_insert_bench: the raw SQLite limit rankd's issuance is compared
// with (tests/bench/ratios.sh, issue #19). THREADS threads, each with its
// own connection to one fresh database file (WAL, synchronous=FULL, as
// rankd opens it), each committing single-insert transactions (BEGIN
// IMMEDIATE, one INSERT of a row shaped like a certificate's, COMMIT) with
// a statement prepared once. SQLite has one writer at a time: the threads
// take a process mutex around each transaction instead of SQLite's
// busy-handler sleeps, so the figure is the disk's, not the retry loop's.
//
//   sqlite_insert_bench --db FILE [--threads 4] [--seconds 5]
//
// FILE must not exist (it is created, and left for the caller to remove).
// Prints "RESULT mode=sqlite threads=N ok=... errors=... ops_per_s=...
// p50_ms=... p99_ms=..."; exit status 0 when every transaction committed,
// 1 on an SQLite error, 2 for bad arguments.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSchema = R"sql(
CREATE TABLE certificates(
  number TEXT PRIMARY KEY CHECK (length(number) = 9),
  discipline TEXT NOT NULL DEFAULT 'go',
  prefix TEXT NOT NULL,
  year INTEGER NOT NULL,
  serial INTEGER NOT NULL,
  player_id INTEGER NOT NULL,
  grade_ordinal INTEGER NOT NULL,
  issue_date TEXT NOT NULL,
  basis INTEGER NOT NULL,
  basis_reference TEXT NOT NULL,
  issued_by TEXT NOT NULL,
  issued_unix INTEGER NOT NULL,
  notice_until_unix INTEGER NOT NULL DEFAULT 0,
  request_id TEXT UNIQUE,
  UNIQUE (prefix, year, serial)
) STRICT;
CREATE INDEX certificates_by_player ON certificates(player_id);
)sql";

constexpr const char* kInsert =
    "INSERT INTO certificates(number, prefix, year, serial, player_id, "
    "grade_ordinal, issue_date, basis, basis_reference, issued_by, "
    "issued_unix, request_id) VALUES (?1, '000', ?2, ?3, ?4, 25, ?5, 1, "
    "'sqlite_insert_bench', 'token:1 national-admin', ?6, ?7)";

bool Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::fprintf(stderr, "sqlite_insert_bench: %s: %s\n", sql,
                 error ? error : "?");
    sqlite3_free(error);
    return false;
  }
  return true;
}

sqlite3* Open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::fprintf(stderr, "sqlite_insert_bench: cannot open %s: %s\n",
                 path.c_str(), db ? sqlite3_errmsg(db) : "?");
    return nullptr;
  }
  if (!Exec(db, "PRAGMA busy_timeout=5000; PRAGMA synchronous=FULL;")) {
    sqlite3_close(db);
    return nullptr;
  }
  return db;
}

struct Shared {
  std::string path;
  Clock::time_point stop_at;
  std::mutex writer;
  std::atomic<int64_t> next{0};
};

struct Result {
  std::vector<int64_t> latencies_us;
  int64_t errors = 0;
};

void Worker(Shared* shared, Result* r) {
  sqlite3* db = Open(shared->path);
  sqlite3_stmt* st = nullptr;
  if (db == nullptr ||
      sqlite3_prepare_v2(db, kInsert, -1, &st, nullptr) != SQLITE_OK) {
    if (db) std::fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
    ++r->errors;
    sqlite3_close(db);
    return;
  }
  while (Clock::now() < shared->stop_at) {
    const int64_t k = shared->next.fetch_add(1);
    const int year = 2025 - static_cast<int>(k / 9999);
    const int serial = static_cast<int>(k % 9999) + 1;
    char number[16], date[16], request[32];
    std::snprintf(number, sizeof number, "000%02d%04d", year % 100, serial);
    std::snprintf(date, sizeof date, "%04d-01-15", year);
    std::snprintf(request, sizeof request, "bench-%lld",
                  static_cast<long long>(k));
    const Clock::time_point start = Clock::now();
    bool ok;
    {
      std::lock_guard<std::mutex> lock(shared->writer);
      ok = Exec(db, "BEGIN IMMEDIATE");
      if (ok) {
        sqlite3_bind_text(st, 1, number, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, year);
        sqlite3_bind_int(st, 3, serial);
        sqlite3_bind_int64(st, 4, 1 + k % 8);
        sqlite3_bind_text(st, 5, date, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 6, 1767225600 + k);
        sqlite3_bind_text(st, 7, request, -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
        if (!ok) std::fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db));
        sqlite3_reset(st);
        ok = Exec(db, ok ? "COMMIT" : "ROLLBACK") && ok;
      }
    }
    if (!ok) {
      ++r->errors;
      break;
    }
    r->latencies_us.push_back(
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() -
                                                              start)
            .count());
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
}

double PercentileMs(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t i =
      std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()));
  return sorted[i] / 1000.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int threads = 4;
  double seconds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--db") {
      path = argv[i + 1];
    } else if (flag == "--threads") {
      threads = std::atoi(argv[i + 1]);
    } else if (flag == "--seconds") {
      seconds = std::atof(argv[i + 1]);
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty() || argc % 2 == 0 || threads < 1 || threads > 256 ||
      !(seconds > 0)) {
    std::fprintf(stderr,
                 "usage: sqlite_insert_bench --db FILE [--threads 4] "
                 "[--seconds 5]\n");
    return 2;
  }
  sqlite3* setup = Open(path);
  if (setup == nullptr) return 1;
  // journal_mode is a property of the file: set once, kept by every
  // connection.
  const bool ready =
      Exec(setup, "PRAGMA journal_mode=WAL") && Exec(setup, kSchema);
  sqlite3_close(setup);
  if (!ready) return 1;

  Shared shared;
  shared.path = path;
  std::vector<Result> results(threads);
  std::vector<std::thread> workers;
  const Clock::time_point start = Clock::now();
  shared.stop_at = start + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(seconds));
  for (int t = 0; t < threads; ++t)
    workers.emplace_back(Worker, &shared, &results[t]);
  for (std::thread& t : workers) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<int64_t> latencies;
  int64_t errors = 0;
  for (const Result& r : results) {
    latencies.insert(latencies.end(), r.latencies_us.begin(),
                     r.latencies_us.end());
    errors += r.errors;
  }
  std::sort(latencies.begin(), latencies.end());
  const int64_t ok = static_cast<int64_t>(latencies.size());
  std::printf(
      "RESULT mode=sqlite threads=%d ok=%lld errors=%lld ops_per_s=%.1f "
      "p50_ms=%.2f p99_ms=%.2f\n",
      threads, static_cast<long long>(ok), static_cast<long long>(errors),
      elapsed > 0 ? ok / elapsed : 0.0, PercentileMs(latencies, 0.50),
      PercentileMs(latencies, 0.99));
  return ok > 0 && errors == 0 ? 0 : 1;
}
