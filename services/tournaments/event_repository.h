// EventRepository: where events and their results are kept. The domain owns
// this interface; storage/ implements it over SQLite and PostgreSQL, and tests
// use an in-memory fake (tests/tournaments/fake_event_repository.h). Every
// implementation must pass the same contract test
// (tests/tournaments/event_repository_contract.h). Every mutating call takes
// the ChangeRecord that the implementation appends to the audit log in the
// same transaction as the change.
#ifndef GORANK_SERVICES_TOURNAMENTS_EVENT_REPOSITORY_H_
#define GORANK_SERVICES_TOURNAMENTS_EVENT_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/change.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

struct EventFilter {
  std::string organiser_prefix;  // "" = any
  std::string competition;       // "" = any
  std::optional<Date> starts_on_or_after;
  std::optional<Date> starts_on_or_before;
  // The list's order: start date, then id, ascending; both descending when
  // set (newest first).
  bool newest_first = false;
  // Only the events in which this registered player is an entrant.
  std::optional<registry::PlayerId> player;
  // Only events whose name contains this text; ASCII letters match in
  // either case ("" = any).
  std::string name_contains;
  // Keyset paging in the list's order: only events after the one that
  // starts on `after_start` with id `after_id` (nullopt: from the first);
  // at most `limit` (0: every one).
  std::optional<Date> after_start;
  int64_t after_id = 0;
  int limit = 0;
};

// Implementations are thread-safe: every method may be called concurrently.
class EventRepository {
 public:
  virtual ~EventRepository() = default;

  // Stores a new event and returns it with its id assigned (the id in
  // `event` is ignored). The audit entry gets the subject "event:<id>".
  // INVALID_ARGUMENT when ValidateEvent fails.
  virtual absl::StatusOr<Event> CreateEvent(const Event& event,
                                            const ChangeRecord& audit) = 0;

  // NOT_FOUND when no event has this id.
  virtual absl::StatusOr<Event> GetEvent(EventId id) const = 0;

  // Replaces the event's description (including `closed`). NOT_FOUND when
  // unknown; INVALID_ARGUMENT when ValidateEvent fails; FAILED_PRECONDITION
  // when the stored event is closed (a closed event never changes again).
  virtual absl::Status UpdateEvent(const Event& event,
                                   const ChangeRecord& audit) = 0;

  // Events matching every set field of `filter`, ordered by start date,
  // then id (both descending with filter.newest_first).
  virtual absl::StatusOr<std::vector<Event>> ListEvents(
      const EventFilter& filter) const = 0;

  // The event's entrants, teams, games, byes and tie decisions (empty
  // results for a new event). NOT_FOUND when the event is unknown.
  virtual absl::StatusOr<EventResults> GetResults(EventId id) const = 0;

  // Replaces the event's results as a whole, atomically. NOT_FOUND when the
  // event is unknown; INVALID_ARGUMENT when ValidateResults fails;
  // FAILED_PRECONDITION when the event is closed (nothing is stored then),
  // unless only the tie decisions differ from the stored results
  // (OnlyTieDecisionsDiffer: a tie left pending at the close is decided).
  virtual absl::Status SaveResults(EventId id, const EventResults& results,
                                   const ChangeRecord& audit) = 0;

  // Ids of the events in which the registry player `player_id` is an
  // entrant, ordered by start date then id.
  virtual absl::StatusOr<std::vector<EventId>> EventsOfPlayer(
      registry::PlayerId player_id) const = 0;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_EVENT_REPOSITORY_H_
