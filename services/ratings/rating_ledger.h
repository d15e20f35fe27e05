// RatingLedger: keeps the stored rating table (RatingRepository) equal to
// the rating book of every closed event. It holds the current RatingBook in
// memory and writes through the repository:
//   - Recompute: a full, deterministic recompute from every closed event
//     (event_ratings.h), compared with the stored table by SHA-256 of the
//     canonical table text, stored (as a whole) when it differs.
//   - LoadOrRecompute: what rankd runs at start. The stored table is read
//     back into the book (RatingBook::Restore) when its stored digest is
//     the digest of the table read back under the current settings; a full
//     recompute runs only when the table is missing, its digest is wrong
//     (a changed table or changed settings) or it cannot be read back.
//     Either way the memory book and the stored table agree afterwards.
//   - EventClosed: the incremental path. The closed event's games are
//     applied to a copy of the book (RatingBook::ApplyEvent) and only that
//     event's rows are stored; the book and the table then equal a full
//     recompute byte for byte (same code, same order). An event already in
//     the book is a no-op (idempotent); a back-dated event (one that sorts
//     before the last applied event) falls back to a full recompute.
//   - ImportStarts: imported starting ratings (rating_import.h) are set in
//     a copy of the book and stored with their players' rows; every full
//     recompute seeds those players from their stored start.
// Pure C++ over the EventRepository and RatingRepository interfaces.
#ifndef GORANK_SERVICES_RATINGS_RATING_LEDGER_H_
#define GORANK_SERVICES_RATINGS_RATING_LEDGER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/clock.h"
#include "services/ratings/rating_book.h"
#include "services/ratings/rating_import.h"
#include "services/ratings/rating_repository.h"
#include "services/tournaments/event_repository.h"

namespace gorank::ratings {

struct RecomputeReport {
  int64_t events = 0;
  int64_t games = 0;  // rated games
  int64_t players = 0;
  std::string table_sha256;  // hex, of RatingBook::SerializeTable()
  bool changed = false;      // differs from the stored table
  bool stored = false;       // the recomputed table was written
  // LoadOrRecompute only: the stored table was loaded and no recompute ran
  // (games is then 0: not counted); otherwise why the recompute ran.
  bool loaded = false;
  std::string recompute_reason;
};

// Lower-case hex SHA-256 of the book's canonical table text. Thread-safe.
std::string TableSha256(const RatingBook& book);

// Thread-safe: one mutex serialises recomputes and event updates. Does not
// own its collaborators.
class RatingLedger {
 public:
  RatingLedger(const tournaments::EventRepository* events,
               RatingRepository* repo, const Clock* clock,
               RatingSettings settings)
      : events_(events), repo_(repo), clock_(clock), settings_(settings) {}

  // Recomputes from every closed event; unless `dry_run`, stores the result
  // when it differs from the stored table (audited as `actor`) and makes it
  // the current book. Errors of RecomputeFromEvents (INVALID_ARGUMENT naming
  // an event whose results cannot be rated) and of the repository.
  absl::StatusOr<RecomputeReport> Recompute(const std::string& actor,
                                            bool dry_run);

  // Loads the stored table as the current book when it is there and its
  // digest is right (see the file comment; report.loaded), else runs
  // Recompute(actor, dry_run) (report.recompute_reason says why). Loading
  // writes nothing. Errors: those of Recompute and of the repository's
  // State().
  absl::StatusOr<RecomputeReport> LoadOrRecompute(const std::string& actor,
                                                  bool dry_run);

  // Full recomputes run so far by this ledger (Recompute, LoadOrRecompute,
  // and the fallbacks of EventClosed and ImportStarts). Thread-safe.
  int64_t recomputes() const { return recomputes_.load(); }

  // Applies the closed event `id` (see the file comment). OK and nothing
  // written when the event has no rated games or is already applied.
  // FAILED_PRECONDITION when the event is not closed; errors of the
  // repositories and of EventGames otherwise.
  absl::Status EventClosed(tournaments::EventId id, const std::string& actor);

  // Checks `file` (PlanStartImport, against the current book and the
  // stored starts, as of the clock's today) and, unless it is a dry run or
  // rows were refused without skip_bad, stores the good rows' starts
  // (audited as `actor`, one transaction) and sets them in the book.
  // Errors: those of PlanStartImport (INVALID_ARGUMENT, RESOURCE_EXHAUSTED
  // for the file as a whole) and of the repository.
  absl::StatusOr<StartImportReport> ImportStarts(const StartImport& file,
                                                 const std::string& actor);

  const RatingSettings& settings() const { return settings_; }

  // Runs `hook` (under the ledger's lock) before every write of the rating
  // table (recompute, event, imported starts); an error from it stops the
  // write and is returned. rankd keeps the ended months' lists there
  // (rating_lists.h), so that a month's list is the table as the month
  // ended. Call before the ledger is shared; not thread-safe.
  void SetBeforeWrite(std::function<absl::Status()> hook) {
    before_write_ = std::move(hook);
  }

 private:
  // REQUIRES: mu_ held. With `stored_table_wrong` the result is stored
  // (unless `dry_run`) even when its digest equals the stored digest.
  absl::StatusOr<RecomputeReport> RecomputeLocked(
      const std::string& actor, bool dry_run, bool stored_table_wrong = false);
  absl::Status BeforeWrite() const {
    return before_write_ ? before_write_() : absl::OkStatus();
  }
  ChangeRecord Change(const std::string& actor, const std::string& action,
                      const std::string& subject,
                      const std::string& after) const;

  const tournaments::EventRepository* events_;
  RatingRepository* repo_;
  const Clock* clock_;
  RatingSettings settings_;
  std::mutex mu_;
  std::optional<RatingBook> book_;  // guarded by mu_; set by a recompute
  std::atomic<int64_t> recomputes_{0};
  std::function<absl::Status()> before_write_;
};

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_LEDGER_H_
