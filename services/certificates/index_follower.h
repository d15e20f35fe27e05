// IndexFollower: keeps a PublicIndex coherent with the writes of other rankd
// instances on the same database, as the indexed repositories keep it
// coherent with this instance's own writes.
//
// The feed (ChangeFeed) is the audit log: every committed write appends
// entries in the same transaction, numbered in commit order (the writers'
// lock), naming each row it wrote ("certificates:110250001", "players:42").
// The follower reads the entries after its position, refreshes the
// certificates, players, objections' certificates and agencies they name
// through the index's Refresh* paths (read back from the database, so the
// index holds the state after the entry, never an older one), and advances.
// It waits for a wake-up notice between rounds (PostgreSQL NOTIFY on the
// primary: milliseconds), and polls every `poll` when none comes (a hot
// standby receives no notices).
//
// Bound: while the follower keeps up, an index answer reflects every write
// committed more than `poll` plus one round (a query and the read-backs)
// earlier. When it has not caught up with the feed for `stale_after` (the
// connection broke, the database is away, a read-back fails, a burst of
// writes on another instance takes longer), the index is set aside
// (PublicIndex::SetStale): Verify and LookupRank read the database, which is
// exact, until the follower has caught up again. So an answer from the
// index is never older than `stale_after` (plus one watchdog period).
//
// On a broken connection the follower connects again and replays from its
// position (the log is append-only: the position stays valid); when the log
// is shorter than the position (another database) or the index was
// invalidated (a read-back of a local write failed), it rebuilds the index
// (position taken before the rebuild, then replayed from there).
//
// Thread-safe. Owns two threads between Start and Stop (or destruction);
// owns nothing it is given, which must outlive it.
#ifndef GORANK_SERVICES_CERTIFICATES_INDEX_FOLLOWER_H_
#define GORANK_SERVICES_CERTIFICATES_INDEX_FOLLOWER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "services/certificates/certificate_repository.h"
#include "services/certificates/public_index.h"
#include "services/registry/registry_repository.h"

namespace gorank::certificates {

// One entry of the feed: its position (audit log seq) and the rows it wrote
// that the public index holds, as "table:key" (tables certificates,
// players, objections, agencies).
struct FeedChange {
  int64_t seq = 0;
  std::vector<std::string> rows;
};

// The source of changes (storage/pg_change_feed.h on PostgreSQL). Used by
// one thread, except Interrupt.
class ChangeFeed {
 public:
  virtual ~ChangeFeed() = default;
  // Opens the connection (again, closing a broken one) and subscribes to
  // the wake-up notices. UNAVAILABLE while the database cannot be reached.
  virtual absl::Status Connect() = 0;
  // The newest position (0: an empty log).
  virtual absl::StatusOr<int64_t> Head() = 0;
  // The entries after `seq`, in order, at most `limit` positions on
  // (seq + 1 .. seq + limit; positions without an entry are left out).
  virtual absl::StatusOr<std::vector<FeedChange>> After(int64_t seq,
                                                        int limit) = 0;
  // Returns when a wake-up notice arrives (or one arrived since the last
  // call), Interrupt was called, or `timeout` passed: OK in each case.
  // UNAVAILABLE when the connection broke.
  virtual absl::Status Wait(std::chrono::milliseconds timeout) = 0;
  // Ends the current or next Wait, and cancels a query in flight.
  // Thread-safe.
  virtual void Interrupt() = 0;
};

struct FollowerOptions {
  // The longest wait between two rounds without a notice.
  std::chrono::milliseconds poll{250};
  // Not caught up for this long: the index is set aside. REQUIRES: > poll.
  std::chrono::milliseconds stale_after{1000};
  // Positions read per query.
  int batch = 1000;
  // A missing position (an earlier writer's commit not visible yet) is
  // waited for this long, then skipped.
  std::chrono::milliseconds gap_wait{1000};
};

// What the follower did, for the log and the metrics.
struct FollowerStats {
  int64_t position = 0;       // the last entry applied
  bool connected = false;     // the feed answers
  bool stale = false;         // the index is set aside
  int64_t applied = 0;        // entries applied since start
  int64_t reconnects = 0;     // connections opened after the first
  int64_t rebuilds = 0;       // index rebuilds
  double seconds_behind = 0;  // since the follower was last caught up
};

class IndexFollower {
 public:
  // Events for the log: `error` false for information (connected again,
  // fresh again), true for trouble (lost, stale, rebuild failed).
  using Listener = std::function<void(bool error, const std::string& what)>;

  // `certs` and `registry` read the rows back (the plain repositories, not
  // the indexed ones).
  IndexFollower(PublicIndex* index, CertificateRepository* certs,
                registry::RegistryRepository* registry, ChangeFeed* feed,
                FollowerOptions options, Listener listener = nullptr);
  ~IndexFollower();  // Stop()
  IndexFollower(const IndexFollower&) = delete;
  IndexFollower& operator=(const IndexFollower&) = delete;

  // The index was built after the feed was at `position` (Head() read
  // before Build): follow from there.
  void SetPosition(int64_t position);
  // Starts the follower and watchdog threads. REQUIRES: not started.
  void Start();
  // Stops and joins them. Idempotent.
  void Stop();

  // One round on the calling thread (the follower thread runs these; tests
  // call it without Start): connects when needed, rebuilds when needed,
  // applies every entry after the position. OK when caught up.
  absl::Status CatchUp();
  // The watchdog's check at `now`: sets the index aside or back.
  void CheckFreshness(std::chrono::steady_clock::time_point now);

  FollowerStats stats() const;

 private:
  absl::Status Rebuild();
  // Applies `changes` (in order, from position_ + 1); false when a gap
  // stopped it before the end.
  absl::StatusOr<bool> Apply(const std::vector<FeedChange>& changes);
  absl::Status Refresh(const std::vector<std::string>& rows);
  void Run();
  void Watch();
  void Tell(bool error, const std::string& what);

  PublicIndex* index_;
  CertificateRepository* certs_;
  registry::RegistryRepository* registry_;
  ChangeFeed* feed_;
  const FollowerOptions options_;
  Listener listener_;

  // Follower thread state (CatchUp's caller).
  bool connected_ = false;
  bool ever_connected_ = false;
  std::chrono::steady_clock::time_point gap_since_{};
  int64_t gap_at_ = -1;
  std::string last_error_;

  mutable std::mutex mu_;  // guards the stats below and stop_
  std::condition_variable stop_cv_;
  bool stop_ = false;
  FollowerStats stats_;
  std::chrono::steady_clock::time_point fresh_as_of_;
  std::atomic<int64_t> position_{0};
  std::thread follower_;
  std::thread watchdog_;
};

}  // namespace gorank::certificates

#endif  // GORANK_SERVICES_CERTIFICATES_INDEX_FOLLOWER_H_
