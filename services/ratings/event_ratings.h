// The read side of the served ratings, before ratings are stored: every
// closed event of an EventRepository turned into rated games (event_games.h)
// and a full, deterministic Recompute over them. A gRPC handler for
// GetRating / GetRatingHistory can call RecomputeFromEvents on each request
// and answer from the returned book (RatingBook::Find / History). This costs
// one pass over every closed event per call; it is fine while the event
// store is small and is meant to be replaced by a stored, incrementally
// updated book (RatingBook::ApplyEvent on close).
//
// Event order: events are ordered by EventKey (closing date, then order,
// then id); the adapter's order is the numeric tournament event id, so two
// events closing the same day are applied in the order they were created.
#ifndef GORANK_SERVICES_RATINGS_EVENT_RATINGS_H_
#define GORANK_SERVICES_RATINGS_EVENT_RATINGS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "services/ratings/rated_game.h"
#include "services/ratings/rating_book.h"
#include "services/tournaments/event_repository.h"

namespace gorank::ratings {

// Every rated-game candidate (see EventGames) of every closed event in
// `events`; open events are skipped. Errors: those of ListEvents and
// GetResults (passed through), and INVALID_ARGUMENT from EventGames for a
// closed event whose results cannot be mapped (the message names the
// event). Thread-safe when `events` is (EventRepository implementations
// are).
absl::StatusOr<std::vector<RatedGame>> ClosedEventGames(
    const tournaments::EventRepository& events);

// Recompute(settings, ClosedEventGames(events)). Errors: those of
// ClosedEventGames and Recompute. Thread-safe as ClosedEventGames.
absl::StatusOr<RatingBook> RecomputeFromEvents(
    const tournaments::EventRepository& events, const RatingSettings& settings);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_EVENT_RATINGS_H_
