// The rating book: every player's current EGF rating (GoR) and professional
// Elo, and their history event by event, built by applying events in
// EventKey order. A full recompute is "apply every event, in order, to an
// empty book"; closing one more event is "apply it to the current book". The
// two give bit-identical books because both run the same code in the same
// order, and ApplyEvent refuses anything that would break that order.
//
// Event semantics (EGF): ratings are frozen for the whole event; each rated
// game produces a change for each side from the ratings at the start of the
// event (each change with its own bonus, weighted by the event's class);
// the changes are summed in game_id order and applied once at the end, and
// the -900 floor is applied to the result. A player seen for the first time
// is seeded from the rank declared in their first rated game of the event
// (egf.h EgfSeed); the professional list seeds from the declared pro rank
// (pro_rating.h). Unrated games (forfeit, bye, under the minimum time, no
// result) change nothing and are not counted.
#ifndef GORANK_SERVICES_RATINGS_RATING_BOOK_H_
#define GORANK_SERVICES_RATINGS_RATING_BOOK_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/ratings/egf.h"
#include "services/ratings/pro_rating.h"
#include "services/ratings/rated_game.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

struct RatingSettings {
  EgfSettings egf;
  ProEloSettings pro;

  friend bool operator==(const RatingSettings&,
                         const RatingSettings&) = default;
};

// A player's current standing.
struct PlayerRating {
  PlayerId player;
  double gor = 0.0;
  int64_t rated_games = 0;        // GoR-rated games, all events
  int64_t rated_events = 0;       // events with at least one rated game
  std::optional<double> pro_elo;  // absent: never played a pro-list game
  int64_t pro_games = 0;

  // EgfGrade(gor).
  registry::Rank Grade() const;
  friend bool operator==(const PlayerRating&, const PlayerRating&) = default;
};

// One player's change at one event.
struct RatingChange {
  EventKey event;
  double gor_before = 0.0;  // the seed for the player's first event
  double gor_after = 0.0;
  int games = 0;                     // rated games in the event
  std::optional<double> pro_before;  // set when pro_games > 0
  std::optional<double> pro_after;
  int pro_games = 0;

  friend bool operator==(const RatingChange&, const RatingChange&) = default;
};

// Thread-compatible: const methods may run concurrently; ApplyEvent needs
// exclusive access. Copyable.
class RatingBook {
 public:
  explicit RatingBook(RatingSettings settings);

  // Applies one closed event. On error the book is unchanged.
  // FAILED_PRECONDITION: the event's key is not after the last applied
  //   event's key (a back-dated or re-ordered event needs a full Recompute).
  // ALREADY_EXISTS: an event with this id was already applied.
  // INVALID_ARGUMENT: a game fails ValidateGame, disagrees with the event's
  //   key or time class, or game_ids are not strictly increasing; a player
  //   without a rating has no declared rank in any rated game of the event.
  absl::Status ApplyEvent(const RatedEvent& event);

  // Gives a player who has no rating yet an imported starting rating (e.g.
  // from the European Go Database) instead of a rank seed.
  // FAILED_PRECONDITION: the player is already in the book.
  // INVALID_ARGUMENT: id <= 0, or `gor` not finite or below the floor.
  absl::Status SeedRating(PlayerId player, double gor);

  // Sets the imported start of a player who has no rated event yet: a
  // player not in the book enters it with `gor` (and `pro_elo` on the
  // professional list, when set); a player who is in the book only through
  // an earlier start gets the new values. On error the book is unchanged.
  // FAILED_PRECONDITION: the player has a rated event.
  // INVALID_ARGUMENT: as SeedRating, or `pro_elo` not finite.
  absl::Status SetStart(PlayerId player, double gor,
                        std::optional<double> pro_elo);

  // Groups `games` (GroupIntoEvents) and applies each event in order; stops
  // at the first error, leaving the events before it applied.
  absl::Status ApplyGames(std::vector<RatedGame> games);

  // Absent when the player has no rated game.
  std::optional<PlayerRating> Find(PlayerId player) const;
  // Oldest first; empty when the player has no rated game.
  std::vector<RatingChange> History(PlayerId player) const;
  // Every player, by ascending id.
  std::vector<PlayerRating> Table() const;

  size_t player_count() const { return players_.size(); }
  size_t event_count() const { return events_.size(); }
  // Absent before the first event.
  std::optional<EventKey> last_event() const;
  // Every applied event, in application (EventKey) order.
  const std::vector<EventKey>& events() const { return events_; }
  // Whether an event with this id was applied.
  bool HasEvent(const std::string& event_id) const {
    return event_ids_.contains(event_id);
  }
  const RatingSettings& settings() const { return settings_; }

  // Rebuilds a book from its stored form (what RatingRepository keeps):
  // `events` in application order, every player's current standing and
  // every (player, change) of the history; nothing is recomputed. Taken
  // from one book, they give that book back: the same SerializeTable,
  // SerializeHistory, Find and History, and later events apply to it as to
  // the original. INVALID_ARGUMENT: an event id twice or events out of
  // EventKey order, a player twice or with an id <= 0, a change of a player
  // not in `players`, naming an event not in `events`, or out of event
  // order for its player.
  static absl::StatusOr<RatingBook> Restore(
      RatingSettings settings, const std::vector<EventKey>& events,
      const std::vector<PlayerRating>& players,
      const std::vector<std::pair<PlayerId, RatingChange>>& history);

  // Canonical bytes of the table: a header naming the system and settings,
  // the event count and last event, then one line per player by ascending id
  // ("id\tgor\tgames\tevents\tpro_elo|-\tpro_games\n"). Doubles are written
  // in shortest round-trip form, so equal books give byte-identical text
  // and the text restores the exact values.
  std::string SerializeTable() const;
  // Canonical bytes of every player's history, by player id then event
  // order ("id\tevent_id\tdate\torder\tbefore\tafter\tgames\tpro_before|-
  // \tpro_after|-\tpro_games\n").
  std::string SerializeHistory() const;

 private:
  struct HistoryRecord {
    uint32_t event_index;
    int32_t games;
    int32_t pro_games;
    double gor_before, gor_after, pro_before, pro_after;
  };
  struct PlayerState {
    PlayerId id;
    double gor = 0.0;
    int64_t games = 0;
    int64_t events = 0;
    bool has_pro = false;
    double pro = 0.0;
    int64_t pro_games = 0;
    std::vector<HistoryRecord> history;
    // Scratch for the event being applied.
    double delta = 0.0, pro_delta = 0.0;
    double con = 0.0, bonus = 0.0, beta = 0.0;  // at the start of the event
    int32_t event_games = 0, event_pro_games = 0;
  };
  struct NewSeed {
    PlayerId id;
    std::optional<double> gor;  // absent: already rated
    std::optional<double> pro;
  };

  absl::Status CheckOrder(const RatedEvent& event) const;
  absl::StatusOr<std::vector<NewSeed>> CollectSeeds(
      const RatedEvent& event) const;
  void Commit(const RatedEvent& event, const std::vector<NewSeed>& seeds);
  void Prepare(uint32_t player_index, std::vector<uint32_t>& touched);
  void Accumulate(const RatedGame& game, double weight,
                  std::vector<uint32_t>& touched);
  PlayerRating ToRating(const PlayerState& state) const;
  std::vector<const PlayerState*> SortedPlayers() const;

  RatingSettings settings_;
  std::vector<EventKey> events_;
  absl::flat_hash_set<std::string> event_ids_;
  std::vector<PlayerState> players_;
  absl::flat_hash_map<PlayerId, uint32_t> index_;
};

// A full, deterministic recompute: an empty book, SeedRating for each
// entry of `imported` (by ascending id), then GroupIntoEvents(games) and
// ApplyEvent for each event in EventKey order. Errors as SeedRating,
// GroupIntoEvents and ApplyEvent. Thread-safe (pure).
absl::StatusOr<RatingBook> Recompute(
    const RatingSettings& settings, std::vector<RatedGame> games,
    const std::map<PlayerId, double>& imported = {});

// An imported start: GoR and, optionally, the professional rating.
struct StartValue {
  double gor = 0.0;
  std::optional<double> pro_elo;
};
// The same recompute with imported starts that may carry a professional
// rating (SetStart for each, by ascending id). Errors as SetStart,
// GroupIntoEvents and ApplyEvent. Thread-safe (pure).
absl::StatusOr<RatingBook> Recompute(
    const RatingSettings& settings, std::vector<RatedGame> games,
    const std::map<PlayerId, StartValue>& starts);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_BOOK_H_
