// Adapter from a closed tournament event (tournaments::Event plus its
// EventResults) to the games the rating systems consume (RatedGame). It is
// the only place where the ratings module knows the tournament model; the
// rating book itself depends on nothing but the registry's Rank.
//
// Mapping (deterministic, so a full Recompute is reproducible):
//  - event id: the decimal tournaments::EventId; date: the event's end date
//    (its start date when no end is recorded); order: the caller's value.
//  - time class: tournaments A..D map to ratings A..D; an event of class X
//    or with no class is not rated and yields no games.
//  - game id: round * 1000 + n, where n (1..999) is the game's position
//    among the games of its round in results order (boards restart at 1 in
//    every team match, so the board number alone is not unique).
//  - only games between two registered players (Entrant::player_id set) are
//    returned; games involving a guest are dropped, byes are dropped.
//  - declared ranks come from the entrants; komi from the game, else the
//    event's rules; handicap as recorded.
//  - forfeits are kept with forfeit = true; unknown outcomes and double
//    losses become GameResult::kNoResult. Such games are returned (and
//    validated) but never rated (RatedGame::IsRated() is false).
#ifndef GORANK_SERVICES_RATINGS_EVENT_GAMES_H_
#define GORANK_SERVICES_RATINGS_EVENT_GAMES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "services/ratings/rated_game.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"

namespace gorank::ratings {

// The ratings class of a tournament time class; nullopt for X/unspecified
// (not rated). Thread-safe (pure).
std::optional<TimeClass> RatingTimeClass(tournaments::TimeClass time_class);

// The rated games of one event, sorted by game id. `event_order` orders the
// events that close on the same date (see EventKey).
// Errors:
//  FAILED_PRECONDITION: the event is not closed (its results may change).
//  INVALID_ARGUMENT: the event has no valid end or start date; a game names
//    an entrant that is not in `results`; a round below 1; more than 999
//    games in one round; any ValidateGame error of a produced game (e.g. a
//    handicap above 9, or one registered player on both sides).
// Thread-safe (pure).
absl::StatusOr<std::vector<RatedGame>> EventGames(
    const tournaments::Event& event, const tournaments::EventResults& results,
    int64_t event_order = 0);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_EVENT_GAMES_H_
