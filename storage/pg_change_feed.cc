#include "storage/pg_change_feed.h"

#include <libpq-fe.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

#include "storage/database.h"
#include "storage/own_audit_entries.h"

namespace gorank::storage {
namespace {

constexpr char kSchema[] = "SELECT current_schema(), pg_is_in_recovery()";
constexpr char kListen[] = "LISTEN rankd_changes";
constexpr char kHead[] = "SELECT coalesce(max(seq), 0) FROM audit_log";
// The rows each entry names of the tables the public index holds (the
// "rows" object of the entry, audit_entry.h), with the entry's leaf hash;
// entries naming none come back once with a NULL row, so that every
// position read is seen.
constexpr char kAfter[] =
    "SELECT a.seq, r.k, encode(a.leaf_hash, 'hex') FROM audit_log a "
    "LEFT JOIN LATERAL ("
    "SELECT k FROM jsonb_object_keys("
    "convert_from(a.entry, 'UTF8')::jsonb -> 'rows') AS k "
    "WHERE k ~ '^(certificates|players|objections|agencies):') r ON true "
    "WHERE a.seq > $1::bigint AND a.seq <= $1::bigint + $2::bigint "
    "ORDER BY a.seq";

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

PgChangeFeed::PgChangeFeed(std::string url, OwnAuditEntries* own)
    : url_(std::move(url)),
      own_(own),
      wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

PgChangeFeed::~PgChangeFeed() {
  Close();
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void PgChangeFeed::Close() {
  {
    std::lock_guard<std::mutex> lock(cancel_mu_);
    if (cancel_ != nullptr) PQfreeCancel(cancel_);
    cancel_ = nullptr;
  }
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
}

absl::Status PgChangeFeed::Broken(const std::string& what) {
  std::string msg =
      conn_ != nullptr ? Trimmed(PQerrorMessage(conn_)) : "not connected";
  if (!notice_.empty()) msg += " (server: " + notice_ + ")";
  notice_.clear();
  Close();
  return absl::UnavailableError("change feed on " + DisplayAddress(url_) +
                                ": " + what + ": " + msg);
}

absl::Status PgChangeFeed::Connect() {
  Close();
  // The URL's own settings win over these (expand_dbname: later keywords
  // override earlier ones); keepalives find a silent peer in about 25 s.
  const char* keys[] = {"connect_timeout",
                        "application_name",
                        "keepalives",
                        "keepalives_idle",
                        "keepalives_interval",
                        "keepalives_count",
                        "dbname",
                        nullptr};
  const char* values[] = {"5", "rankd-index-feed", "1",    "10", "5",
                          "3", url_.c_str(),       nullptr};
  conn_ = PQconnectdbParams(keys, values, 1);
  if (conn_ == nullptr || PQstatus(conn_) != CONNECTION_OK)
    return Broken("connecting");
  // libpq prints the server's notices to stderr, among them the FATAL of a
  // terminated session: that one is kept for the error it comes with, the
  // others (none expected of these SELECTs) are dropped.
  notice_.clear();
  PQsetNoticeProcessor(
      conn_,
      [](void* self, const char* message) {
        if (std::string_view(message).substr(0, 5) == "FATAL")
          static_cast<PgChangeFeed*>(self)->notice_ = Trimmed(message);
      },
      this);
  PGresult* r = PQexec(conn_, kSchema);
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
    PQclear(r);
    return Broken("reading the schema");
  }
  schema_ = PQgetvalue(r, 0, 0);
  const bool standby = std::string(PQgetvalue(r, 0, 1)) == "t";
  PQclear(r);
  // A hot standby takes no LISTEN (and would deliver no notice).
  if (!standby) {
    r = PQexec(conn_, kListen);
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) return Broken("LISTEN");
  }
  std::lock_guard<std::mutex> lock(cancel_mu_);
  cancel_ = PQgetCancel(conn_);
  return absl::OkStatus();
}

absl::StatusOr<int64_t> PgChangeFeed::Head() {
  if (conn_ == nullptr) return Broken("reading the head");
  PGresult* r = PQexec(conn_, kHead);
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
    PQclear(r);
    return Broken("reading the head");
  }
  const int64_t head = std::atoll(PQgetvalue(r, 0, 0));
  PQclear(r);
  return head;
}

absl::StatusOr<std::vector<certificates::FeedChange>> PgChangeFeed::After(
    int64_t seq, int limit) {
  if (conn_ == nullptr) return Broken("reading the log");
  const std::string from = std::to_string(seq);
  const std::string count = std::to_string(limit);
  const char* params[] = {from.c_str(), count.c_str()};
  PGresult* r =
      PQexecParams(conn_, kAfter, 2, nullptr, params, nullptr, nullptr, 0);
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    PQclear(r);
    return Broken("reading the log after " + from);
  }
  std::vector<certificates::FeedChange> out;
  bool own = false;  // out.back() is this process's own entry
  for (int i = 0; i < PQntuples(r); ++i) {
    const int64_t at = std::atoll(PQgetvalue(r, i, 0));
    if (out.empty() || out.back().seq != at) {
      out.emplace_back();
      out.back().seq = at;
      own = own_ != nullptr && own_->Take(at, PQgetvalue(r, i, 2));
    }
    if (!own && !PQgetisnull(r, i, 1))
      out.back().rows.push_back(PQgetvalue(r, i, 1));
  }
  PQclear(r);
  return out;
}

bool PgChangeFeed::TakeNotices() {
  bool hit = noticed_;
  noticed_ = false;
  while (PGnotify* n = PQnotifies(conn_)) {
    // This process's own commits wake nothing: their entries are in the
    // index already (own_audit_entries.h); the next wake-up or poll reads
    // past them.
    const bool own = own_ != nullptr && own_->IsWriterPid(n->be_pid);
    if (!own &&
        (n->extra == nullptr || n->extra[0] == '\0' || schema_ == n->extra)) {
      hit = true;
      ++wake_ups_;
    }
    PQfreemem(n);
  }
  return hit;
}

absl::Status PgChangeFeed::Wait(std::chrono::milliseconds timeout) {
  if (conn_ == nullptr) return Broken("waiting");
  if (TakeNotices()) return absl::OkStatus();
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return absl::OkStatus();
    pollfd fds[2] = {{PQsocket(conn_), POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int n = ::poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Broken("poll");
    if (n == 0) return absl::OkStatus();
    if (fds[1].revents != 0) {
      uint64_t v;
      while (::read(wake_fd_, &v, sizeof(v)) > 0) {
      }
      return absl::OkStatus();
    }
    if (fds[0].revents != 0) {
      if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK)
        return Broken("waiting for a notice");
      if (TakeNotices()) return absl::OkStatus();
    }
  }
}

void PgChangeFeed::Interrupt() {
  const uint64_t one = 1;
  if (wake_fd_ >= 0) (void)!::write(wake_fd_, &one, sizeof(one));
  std::lock_guard<std::mutex> lock(cancel_mu_);
  if (cancel_ != nullptr) {
    char err[256];
    PQcancel(cancel_, err, sizeof(err));
  }
}

}  // namespace gorank::storage
