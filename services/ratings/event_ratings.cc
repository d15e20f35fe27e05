#include "services/ratings/event_ratings.h"

#include <iterator>
#include <utility>

#include "services/common/status_macros.h"
#include "services/ratings/event_games.h"

namespace gorank::ratings {

absl::StatusOr<std::vector<RatedGame>> ClosedEventGames(
    const tournaments::EventRepository& events) {
  GORANK_ASSIGN_OR_RETURN(std::vector<tournaments::Event> all,
                          events.ListEvents(tournaments::EventFilter{}));
  std::vector<RatedGame> games;
  for (const tournaments::Event& event : all) {
    if (!event.closed) continue;
    GORANK_ASSIGN_OR_RETURN(tournaments::EventResults results,
                            events.GetResults(event.id));
    GORANK_ASSIGN_OR_RETURN(std::vector<RatedGame> event_games,
                            EventGames(event, results, event.id.value));
    games.insert(games.end(), std::make_move_iterator(event_games.begin()),
                 std::make_move_iterator(event_games.end()));
  }
  return games;
}

absl::StatusOr<RatingBook> RecomputeFromEvents(
    const tournaments::EventRepository& events,
    const RatingSettings& settings) {
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedGame> games,
                          ClosedEventGames(events));
  return Recompute(settings, std::move(games));
}

}  // namespace gorank::ratings
