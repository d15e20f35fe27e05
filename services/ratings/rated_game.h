// Input value types of the rating systems: one game as the tournaments module
// (or a result-file import) hands it over, and the event that groups games.
// These types are owned by the ratings domain so that it depends on nothing
// but the registry's Rank; a thin adapter fills them from tournament results.
//
// Ordering: events are applied in EventKey order (closing date, then the
// order number among events closing that day, then the event id as a stable
// tie-break); inside an event games are kept in game_id order, which fixes the
// order in which per-game changes are summed and so makes every result
// bit-for-bit reproducible.
#ifndef GORANK_SERVICES_RATINGS_RATED_GAME_H_
#define GORANK_SERVICES_RATINGS_RATED_GAME_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/registry/player.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

// The registry's player id (services/registry/player.h): 0 is the missing
// opponent of a bye.
using PlayerId = registry::PlayerId;

// EGF tournament class, by thinking time (A >= 60 min basic / 75 adjusted,
// B >= 40/50, C >= 25/30, D internet events of national bodies >= 40/50).
// The class sets the weight of every game of the event (see egf.h).
enum class TimeClass { kA = 0, kB = 1, kC = 2, kD = 3 };

enum class GameResult {
  kBlackWin,
  kWhiteWin,
  kJigo,      // a draw: 0.5 each
  kNoResult,  // void / double forfeit / not played: never rated
};

// Identifies an event and its place in the rating order.
struct EventKey {
  Date date;          // the day the event closed (its last round)
  int64_t order = 0;  // order among events that close on the same date
  std::string event_id;

  friend auto operator<=>(const EventKey&, const EventKey&) = default;
};

// One game. Black receives the handicap.
struct RatedGame {
  std::string event_id;  // non-empty, <= 128 bytes, no control characters
  Date event_date;       // see EventKey::date
  int64_t event_order = 0;
  TimeClass time_class = TimeClass::kA;
  // Unique inside the event; orders the summation of changes (an adapter may
  // use round * 1000 + board).
  int64_t game_id = 0;
  PlayerId black;
  PlayerId white;  // PlayerId{0} for a bye
  // Rank each player declared for the event. Seeds a player's first rating
  // and decides whether the game enters the professional list (both pro).
  std::optional<registry::Rank> black_rank;
  std::optional<registry::Rank> white_rank;
  GameResult result = GameResult::kNoResult;
  // 0: even game with komi; 1: no komi (Black moves first); 2..9 stones.
  int handicap = 0;
  // Recorded for audit and other systems; the GoR 2021 formulas ignore it.
  double komi = 7.5;
  bool forfeit = false;             // decided without play
  bool bye = false;                 // no opponent
  bool under_minimum_time = false;  // below the event's minimum for rating

  // True when the game counts for ratings: played over the board, with a
  // result, not a bye/forfeit and not under the minimum time.
  bool IsRated() const {
    return !forfeit && !bye && !under_minimum_time &&
           result != GameResult::kNoResult;
  }
  // Score of Black: 1, 0.5 or 0. REQUIRES: result != kNoResult.
  double BlackScore() const;
};

// All games of one event, ready to be applied.
struct RatedEvent {
  EventKey key;
  TimeClass time_class = TimeClass::kA;
  std::vector<RatedGame> games;  // sorted by game_id, ids unique
};

// OK, or INVALID_ARGUMENT naming the event, the game and the offending field:
// empty/over-long/control-character event id, invalid event date, handicap
// outside 0..9, non-finite komi, a side id < 0, a non-bye game without two
// distinct positive players, a bye without a positive player in `black`.
// Thread-safe (pure).
absl::Status ValidateGame(const RatedGame& game);

// Groups `games` by event id, sorts the events by EventKey and each event's
// games by game_id. Unrated games are kept (they are validated and ignored
// by the rating systems).
// INVALID_ARGUMENT: any ValidateGame error; games of one event that disagree
// on date, order or time class; two games of one event with the same
// game_id. Thread-safe (pure).
absl::StatusOr<std::vector<RatedEvent>> GroupIntoEvents(
    std::vector<RatedGame> games);

// "A".."D".
const char* TimeClassName(TimeClass time_class);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATED_GAME_H_
