// RatingRepository: where the served ratings and the promotion proposals
// are kept. The ratings domain owns this interface; storage/ implements it
// over SQLite and PostgreSQL (storage/sql_rating_repository.h). The stored
// rating table is what the read RPCs answer from; it is written either as a
// whole (a full recompute) or one event at a time (an event closed), each write
// in one transaction with its audit-log entry. Every mutating call takes the
// ChangeRecord that the implementation appends to the audit log.
#ifndef GORANK_SERVICES_RATINGS_RATING_REPOSITORY_H_
#define GORANK_SERVICES_RATINGS_RATING_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/change.h"
#include "services/common/date.h"
#include "services/common/paging.h"
#include "services/ratings/promotion.h"
#include "services/ratings/rating_book.h"

namespace gorank::ratings {

// Everything a full recompute stores.
struct RatingSnapshot {
  std::vector<EventKey> events;       // application order
  std::vector<PlayerRating> players;  // by ascending id
  // (player, change), by player then event order.
  std::vector<std::pair<PlayerId, RatingChange>> history;
  std::string table_sha256;  // of RatingBook::SerializeTable()
};

// What closing one event changes.
struct RatingDelta {
  EventKey event;
  std::vector<PlayerRating> players;  // the new standing of each player
  std::vector<std::pair<PlayerId, RatingChange>> changes;  // at `event`
  std::string table_sha256;  // of the whole table after the event
  int64_t players_total = 0;
};

// A starting rating imported for a player (rankctl rating import, SPEC
// section 5): the rating book seeds the player with it instead of the rank
// of their first rated game, in every recompute. Table rating_starts.
struct RatingStart {
  PlayerId player;
  double gor = 0.0;
  std::optional<double> pro_elo;
  Date as_of;
  // "import FILE sha256:HEX line N as of YYYY-MM-DD".
  std::string origin;
  int64_t recorded_unix = 0;

  friend bool operator==(const RatingStart&, const RatingStart&) = default;
};

// What storing imported starts changes: the starts (new or replacing an
// earlier start) and the rating rows of their players.
struct StartsDelta {
  std::vector<RatingStart> starts;    // by ascending player
  std::vector<PlayerRating> players;  // the new rows of those players
  std::string table_sha256;           // of the whole table afterwards
  int64_t events = 0;                 // the applied events (unchanged)
  int64_t players_total = 0;
};

// One way a rating file may name a player (rating_import.h decides which
// ways a value is tried).
struct PlayerLookup {
  enum class Kind { kId = 1, kResidentId = 2, kExternalId = 3 };
  Kind kind = Kind::kId;
  // kId: the id in decimal; kResidentId: the normalised number;
  // kExternalId: the external id.
  std::string value;
  // kExternalId only: the agency; "" for every agency.
  std::string agency_prefix;
};
// A registered player a lookup found.
struct PlayerMatch {
  PlayerId player;
  std::string agency_prefix;  // the player's agency
  PlayerLookup::Kind kind = PlayerLookup::Kind::kId;
  std::string external_id;  // kExternalId: the id within that agency
};

struct RatingState {
  std::string table_sha256;  // "" when nothing was ever stored
  int64_t events = 0;
  int64_t players = 0;
};

enum class ProposalState {
  kPending = 1,
  kApproved = 2,
  kRejected = 3,
  kSuperseded = 4,
};
const char* ProposalStateName(ProposalState state);

struct StoredProposal {
  int64_t id = 0;
  Proposal proposal;
  ProposalState state = ProposalState::kPending;
  Date as_of;
  int64_t created_unix = 0;
  std::string decided_by;  // Caller::Describe() of the decision
  std::string decision_reason;
  std::optional<int64_t> decided_unix;
  std::string certificate_number;  // set when an approval issued one
};

struct ProposalFilter {
  std::optional<ProposalState> state;  // absent: every state
  std::optional<PlayerId> player;      // absent: every player
  std::string agency_prefix;           // "": every agency's players
  int64_t after_id = 0;                // paging: ids above this
  int limit = 50;
};

// Where a page of the rating list starts: after the row of `player`, whose
// rating (GoR, or with pro_list the pro rating) is `rating`.
struct RatingListPosition {
  double rating = 0.0;
  PlayerId player;
};

// Which rows of a rating list (rating_lists.h), keyset-paged like
// ListRatingsAfter. Every set filter narrows the list.
struct RatingListQuery {
  bool pro_list = false;
  // "YYYY-MM": the kept list of that month (KeepMonths); "": the current
  // table.
  std::string month;
  std::string agency_prefix;  // "": every agency
  // Bounds of the registered Go rank's ordinal (registry::Rank::Ordinal); a
  // bound excludes players without a Go rank.
  std::optional<int> min_rank_ordinal;
  std::optional<int> max_rank_ordinal;
  // Only players whose last rated event is on or after this day.
  std::optional<Date> active_since;
  std::optional<RatingListPosition> after;  // nullopt: from the top
  int limit = 50;                           // > 0
};

// One row of a rating list: the rating and what the public sees of the
// player (the current name; in a kept month the agency and rank of then).
struct RatingListRow {
  PlayerRating rating;
  std::string name;
  std::string latin_name;
  std::string agency_prefix;
  std::optional<int> rank_ordinal;  // the registered Go rank
  std::optional<Date> last_rated;   // the last rated event's date
};

// A month whose list is kept.
struct KeptMonth {
  std::string month;  // "YYYY-MM"
  int64_t players = 0;
  int64_t pro_players = 0;
  int64_t taken_unix = 0;

  friend bool operator==(const KeptMonth&, const KeptMonth&) = default;
};

// Implementations are thread-safe.
class RatingRepository {
 public:
  virtual ~RatingRepository() = default;

  // Replaces the whole stored rating table, history and state.
  virtual absl::Status ReplaceAll(const RatingSnapshot& snapshot,
                                  const ChangeRecord& audit) = 0;
  // Appends one event: its key, the changed players' rows and their history
  // rows, and the new state. ALREADY_EXISTS (nothing written) when the
  // event is stored already.
  virtual absl::Status AppendEvent(const RatingDelta& delta,
                                   const ChangeRecord& audit) = 0;
  virtual absl::StatusOr<RatingState> State() const = 0;
  // The whole stored table as ReplaceAll and AppendEvent left it, read in
  // one snapshot: the events in application order, players by ascending id,
  // history by player then event order, and the stored table_sha256 (not
  // checked here). Absent when nothing was ever stored. The default, for a
  // repository that cannot read it back: absent (rankd then recomputes).
  virtual absl::StatusOr<std::optional<RatingSnapshot>> LoadSnapshot() const {
    return std::optional<RatingSnapshot>{};
  }

  // NOT_FOUND when the player has no stored rating.
  virtual absl::StatusOr<PlayerRating> GetRating(PlayerId player) const = 0;
  // Oldest first; empty for a player without rated games.
  virtual absl::StatusOr<std::vector<RatingChange>> History(
      PlayerId player) const = 0;
  // By descending GoR (or, with `pro_list`, descending pro rating of the
  // players who have one), ties by ascending id; `offset` rows skipped.
  virtual absl::StatusOr<std::vector<PlayerRating>> ListRatings(
      bool pro_list, int64_t offset, int limit) const = 0;
  // The same list, keyset-paged: the rows after `after` (nullopt: from the
  // top) in the list's order, at most `limit` (> 0).
  virtual absl::StatusOr<std::vector<PlayerRating>> ListRatingsAfter(
      bool pro_list, const std::optional<RatingListPosition>& after,
      int limit) const = 0;
  // Every player with a stored rating, by ascending id.
  virtual absl::StatusOr<std::vector<PlayerId>> RatedPlayers() const = 0;

  // Monthly lists (rating_lists.h). The defaults are those of a repository
  // without them: nothing kept, the write UNIMPLEMENTED.
  //
  // The rows of `query` in the list's order (descending GoR, or pro rating
  // of the players who have one; ties by ascending id), filters applied by
  // the query itself, at most query.limit; only players in the registry.
  // A month not kept has no rows.
  virtual absl::StatusOr<std::vector<RatingListRow>> ListRatingRows(
      const RatingListQuery& query) const {
    (void)query;
    return std::vector<RatingListRow>{};
  }
  // The kept months, newest first.
  virtual absl::StatusOr<std::vector<KeptMonth>> KeptMonths() const {
    return std::vector<KeptMonth>{};
  }
  // The first month whose end is watched (KeepMonths); absent before the
  // first KeepMonths.
  virtual absl::StatusOr<std::optional<std::string>> FirstWatchedMonth() const {
    return std::optional<std::string>{};
  }
  // In one transaction: records `first_month` as the first watched month
  // when none is recorded, then keeps the current table (with each player's
  // agency, Go rank and last rated date) as the list of every month of
  // `months` not kept yet (months already kept are left as they are, so
  // concurrent callers keep a month once), taken at `now_unix`, with one
  // audit entry (`audit`) when anything was written. Returns the months it
  // kept.
  virtual absl::StatusOr<std::vector<std::string>> KeepMonths(
      const std::vector<std::string>& months, const std::string& first_month,
      int64_t now_unix, const ChangeRecord& audit) {
    (void)months, (void)first_month, (void)now_unix, (void)audit;
    return absl::UnimplementedError("this repository keeps no monthly lists");
  }

  // Imported starts (rating_import.h). The defaults are those of a
  // repository without starts: none stored, the writes UNIMPLEMENTED.
  //
  // Stores imported starts (replacing a player's earlier start) and their
  // players' rating rows, and the new state, in one transaction with the
  // audit entries (`audit`, in order; one a chunk of starts). NOT_FOUND
  // (nothing written) when a start names a player who is not registered.
  virtual absl::Status StoreStarts(const StartsDelta& delta,
                                   const std::vector<ChangeRecord>& audit) {
    (void)delta, (void)audit;
    return absl::UnimplementedError("this repository cannot store starts");
  }
  // Every imported start, by ascending player.
  virtual absl::StatusOr<std::vector<RatingStart>> ListStarts() const {
    return std::vector<RatingStart>{};
  }
  // The player's imported start; absent when the player has none.
  virtual absl::StatusOr<std::optional<RatingStart>> GetStart(
      PlayerId player) const {
    (void)player;
    return std::optional<RatingStart>{};
  }
  // For each lookup (same order), the registered players it finds: none, one
  // or (an external id looked up in every agency) several, by ascending id.
  // One consistent snapshot.
  virtual absl::StatusOr<std::vector<std::vector<PlayerMatch>>> FindPlayers(
      const std::vector<PlayerLookup>& lookups) const {
    (void)lookups;
    return absl::UnimplementedError("this repository cannot look up players");
  }

  // Stores a new PENDING proposal and returns it with its id. When a
  // pending proposal for the same player and rule exists, returns that one
  // unchanged (nothing written).
  virtual absl::StatusOr<StoredProposal> AddProposal(
      const StoredProposal& proposal, const ChangeRecord& audit) = 0;
  // NOT_FOUND for an unknown id.
  virtual absl::StatusOr<StoredProposal> GetProposal(int64_t id) const = 0;
  // By ascending id.
  virtual absl::StatusOr<std::vector<StoredProposal>> ListProposals(
      const ProposalFilter& filter) const = 0;
  // Records a decision (state, decided_by, reason, decided_unix,
  // certificate_number of `decided`). FAILED_PRECONDITION when the stored
  // proposal is no longer pending; NOT_FOUND for an unknown id.
  virtual absl::Status DecideProposal(const StoredProposal& decided,
                                      const ChangeRecord& audit) = 0;
};

// The page sizes of ListRatings and ListProposals.
inline constexpr PageSpec kRatingPage{50, 500};
inline constexpr PageSpec kProposalPage{50, 500};

// One page of the rating list of `repo` (by descending GoR, or with
// `pro_list` descending pro rating, ties by ascending id). INVALID_ARGUMENT
// for a bad page (paging.h); the repository's errors.
absl::StatusOr<Page<PlayerRating>> ListRatingPage(const RatingRepository& repo,
                                                  bool pro_list,
                                                  const PageArgs& page);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_REPOSITORY_H_
