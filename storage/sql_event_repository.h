// EventRepository over the Database wrapper (SQLite or PostgreSQL; schema
// migration 5). An event is one row of `events`: the columns that filters and
// sorting need, plus the whole description as JSON
// (services/tournaments/event_json.h); its results are one JSON document in
// `event_results`, replaced as a whole; `event_players` indexes which
// registered players an event's entrants are. Every write runs in one
// transaction with its audit-log entry.
#ifndef GORANK_STORAGE_SQL_EVENT_REPOSITORY_H_
#define GORANK_STORAGE_SQL_EVENT_REPOSITORY_H_

#include "services/tournaments/event_repository.h"
#include "storage/database.h"

namespace gorank::storage {

// Thread-safe. Does not own the database. Beyond the interface's contract,
// SaveResults returns INVALID_ARGUMENT when an entrant names a player id
// the registry does not hold (nothing stored).
class SqlEventRepository : public tournaments::EventRepository {
 public:
  explicit SqlEventRepository(Database* db) : db_(db) {}

  absl::StatusOr<tournaments::Event> CreateEvent(
      const tournaments::Event& event, const ChangeRecord& audit) override;
  absl::StatusOr<tournaments::Event> GetEvent(
      tournaments::EventId id) const override;
  absl::Status UpdateEvent(const tournaments::Event& event,
                           const ChangeRecord& audit) override;
  absl::StatusOr<std::vector<tournaments::Event>> ListEvents(
      const tournaments::EventFilter& filter) const override;
  absl::StatusOr<tournaments::EventResults> GetResults(
      tournaments::EventId id) const override;
  absl::Status SaveResults(tournaments::EventId id,
                           const tournaments::EventResults& results,
                           const ChangeRecord& audit) override;
  absl::StatusOr<std::vector<tournaments::EventId>> EventsOfPlayer(
      registry::PlayerId player_id) const override;

 private:
  Database* db_;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_SQL_EVENT_REPOSITORY_H_
