// The public index's change feed on PostgreSQL (certificates::ChangeFeed):
// its own libpq connection (application_name "rankd-index-feed") reads the
// audit log after a position and takes from each entry the rows it names of
// the tables the index holds; between rounds it waits on the socket for the
// NOTIFY that the audit log's trigger sends at each commit (pg_schema.cc:
// channel rankd_changes, payload the schema, so several registries on one
// server wake only their own followers). On a hot standby no notice
// arrives: Wait then returns at its timeout, and After reads the replayed
// log all the same.
//
// Thread-compatible, except Interrupt (thread-safe).
#ifndef GORANK_STORAGE_PG_CHANGE_FEED_H_
#define GORANK_STORAGE_PG_CHANGE_FEED_H_

#include <mutex>
#include <string>

#include "services/certificates/index_follower.h"

struct pg_conn;
struct pg_cancel;

namespace gorank::storage {

class OwnAuditEntries;

class PgChangeFeed : public certificates::ChangeFeed {
 public:
  // `url`: a postgresql:// URL (the primary, or a standby of it). Nothing
  // is opened before Connect. With `own` (which must outlive the feed), the
  // entries this process wrote (own_audit_entries.h) come back without
  // rows: the follower has nothing to read back for them.
  explicit PgChangeFeed(std::string url, OwnAuditEntries* own = nullptr);
  ~PgChangeFeed() override;
  PgChangeFeed(const PgChangeFeed&) = delete;
  PgChangeFeed& operator=(const PgChangeFeed&) = delete;

  absl::Status Connect() override;
  absl::StatusOr<int64_t> Head() override;
  absl::StatusOr<std::vector<certificates::FeedChange>> After(
      int64_t seq, int limit) override;
  absl::Status Wait(std::chrono::milliseconds timeout) override;
  void Interrupt() override;

  // Notices that woke a Wait so far: another process's commits (this
  // process's own, sent by its writer's server process, wake nothing).
  int64_t wake_ups() const { return wake_ups_; }

 private:
  void Close();
  // UNAVAILABLE naming `what` and libpq's message; closes the connection.
  absl::Status Broken(const std::string& what);
  // Takes the notices read so far; true when one is for this schema.
  bool TakeNotices();

  std::string url_;
  OwnAuditEntries* own_;
  std::string schema_;  // current_schema() of the session
  pg_conn* conn_ = nullptr;
  int wake_fd_ = -1;  // an eventfd: Interrupt
  bool noticed_ = false;
  int64_t wake_ups_ = 0;
  std::string notice_;  // the server's last notice (a FATAL before a cut)
  std::mutex cancel_mu_;
  pg_cancel* cancel_ = nullptr;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_PG_CHANGE_FEED_H_
