#include "storage/sql_event_repository.h"

#include "services/common/status_macros.h"
#include "services/tournaments/event_json.h"
#include "services/tournaments/standings.h"
#include "storage/audit_log.h"

namespace gorank::storage {

using tournaments::Event;
using tournaments::EventId;
using tournaments::EventResults;

namespace {

constexpr char kInsertEvent[] =
    "INSERT INTO events(name, start_date, end_date, organiser_prefix, "
    "competition, "
    "closed, description) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)";
constexpr char kUpdateEvent[] =
    "UPDATE events SET name = ?2, start_date = ?3, end_date = ?4, "
    "organiser_prefix = ?5, "
    "competition = ?6, closed = ?7, description = ?8 WHERE id = ?1";
constexpr char kEventById[] =
    "SELECT id, closed, description FROM events WHERE id = ?1";
// ListEvents' player (?8, 0 = any) and name (?9: a LIKE pattern over the
// lower-cased name, '' = any) filters.
#define EVENT_PLAYER_AND_NAME                                            \
  "(?8 = 0 OR EXISTS (SELECT 1 FROM event_players p WHERE p.event_id = " \
  "events.id AND p.player_id = ?8)) "                                    \
  "AND (?9 = '' OR LOWER(name) LIKE ?9 ESCAPE '!') "
constexpr char kListEvents[] =
    "SELECT id, closed, description FROM events "
    "WHERE (?1 = '' OR organiser_prefix = ?1) AND (?2 = '' OR competition = "
    "?2) "
    "AND (?3 = '' OR start_date >= ?3) AND (?4 = '' OR start_date <= ?4) "
    "AND (?5 = '' OR start_date > ?5 OR (start_date = ?5 AND id > ?6)) "
    "AND " EVENT_PLAYER_AND_NAME "ORDER BY start_date, id LIMIT ?7";
constexpr char kListEventsNewestFirst[] =
    "SELECT id, closed, description FROM events "
    "WHERE (?1 = '' OR organiser_prefix = ?1) AND (?2 = '' OR competition = "
    "?2) "
    "AND (?3 = '' OR start_date >= ?3) AND (?4 = '' OR start_date <= ?4) "
    "AND (?5 = '' OR start_date < ?5 OR (start_date = ?5 AND id < ?6)) "
    "AND " EVENT_PLAYER_AND_NAME "ORDER BY start_date DESC, id DESC LIMIT ?7";
constexpr char kResultsOf[] =
    "SELECT e.id, r.results FROM events e LEFT JOIN event_results r ON "
    "r.event_id = e.id "
    "WHERE e.id = ?1";
constexpr char kPutResults[] =
    "INSERT INTO event_results(event_id, results) VALUES(?1, ?2) "
    "ON CONFLICT(event_id) DO UPDATE SET results = excluded.results";
constexpr char kClearPlayers[] =
    "DELETE FROM event_players WHERE event_id = ?1";
constexpr char kInsertPlayer[] =
    "INSERT INTO event_players(event_id, entrant_id, player_id) VALUES(?1, ?2, "
    "?3)";
constexpr char kPlayerExists[] = "SELECT 1 FROM players WHERE id = ?1";
constexpr char kEventsOfPlayer[] =
    "SELECT e.id FROM events e WHERE EXISTS (SELECT 1 FROM event_players p "
    "WHERE p.event_id = e.id AND p.player_id = ?1) ORDER BY e.start_date, e.id";

std::string DateText(const Date& d) { return d.IsValid() ? d.ToString() : ""; }

// "" for no name filter, else %text% with ASCII letters lower-cased and the
// LIKE wildcards escaped (escape character '!').
std::string NamePattern(const std::string& text) {
  if (text.empty()) return "";
  std::string out = "%";
  for (char c : text) {
    if (c == '%' || c == '_' || c == '!') out += '!';
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out + "%";
}

absl::Status NotFound(EventId id) {
  return absl::NotFoundError("no event with id " + std::to_string(id.value));
}

// Reads (id, closed, description); the columns are authoritative for id
// and closed.
absl::StatusOr<Event> ReadEvent(const Statement& st) {
  GORANK_ASSIGN_OR_RETURN(Event e, tournaments::EventFromJson(st.Text(2)));
  e.id = EventId{st.Int(0)};
  e.closed = st.Int(1) != 0;
  return e;
}

absl::StatusOr<Event> LoadEvent(Connection& c, EventId id) {
  GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kEventById));
  st->Bind(1, id.value);
  GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
  if (!row) return NotFound(id);
  return ReadEvent(*st);
}

// Binds name, dates, organiser, competition, closed and description from
// parameter `first` on.
void BindEventColumns(Statement& st, const Event& e, int first) {
  st.Bind(first, e.name)
      .Bind(first + 1, DateText(e.start))
      .Bind(first + 2, DateText(e.end))
      .Bind(first + 3, e.organiser_prefix)
      .Bind(first + 4, e.competition)
      .Bind(first + 5, int64_t{e.closed ? 1 : 0})
      .Bind(first + 6, tournaments::EventToJson(e));
}

absl::Status ClosedError(EventId id) {
  return absl::FailedPreconditionError("event " + std::to_string(id.value) +
                                       " is closed: its results are final");
}

// Replaces the event's player index; INVALID_ARGUMENT naming every entrant
// whose player id is not registered.
absl::Status WritePlayerIndex(Connection& c, EventId id,
                              const EventResults& results) {
  std::string unknown;
  for (const tournaments::Entrant& e : results.entrants) {
    if (!e.player_id) continue;
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPlayerExists));
    st->Bind(1, e.player_id->value);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) {
      unknown += "; entrant " + std::to_string(e.id.value) + " names player " +
                 std::to_string(e.player_id->value) + ", who is not registered";
    }
  }
  if (!unknown.empty()) return absl::InvalidArgumentError(unknown.substr(2));
  GORANK_ASSIGN_OR_RETURN(auto clear, c.Prepare(kClearPlayers));
  clear->Bind(1, id.value);
  GORANK_RETURN_IF_ERROR(clear->Run());
  clear.reset();
  for (const tournaments::Entrant& e : results.entrants) {
    if (!e.player_id) continue;
    GORANK_ASSIGN_OR_RETURN(auto ins, c.Prepare(kInsertPlayer));
    ins->Bind(1, id.value)
        .Bind(2, int64_t{e.id.value})
        .Bind(3, e.player_id->value);
    GORANK_RETURN_IF_ERROR(ins->Run());
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Event> SqlEventRepository::CreateEvent(
    const Event& event, const ChangeRecord& audit) {
  GORANK_RETURN_IF_ERROR(tournaments::ValidateEvent(event));
  Event stored = event;
  GORANK_RETURN_IF_ERROR(db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kInsertEvent));
    stored.id = EventId{};
    BindEventColumns(*st, stored, 1);
    GORANK_RETURN_IF_ERROR(st->Run());
    stored.id = EventId{c.LastInsertRowId()};
    ChangeRecord audited = audit;
    audited.subject = "event:" + std::to_string(stored.id.value);
    return AppendAudit(c, audited).status();
  }));
  return stored;
}

absl::StatusOr<Event> SqlEventRepository::GetEvent(EventId id) const {
  Event e;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(e, LoadEvent(c, id));
    return absl::OkStatus();
  }));
  return e;
}

absl::Status SqlEventRepository::UpdateEvent(const Event& event,
                                             const ChangeRecord& audit) {
  GORANK_RETURN_IF_ERROR(tournaments::ValidateEvent(event));
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(Event stored, LoadEvent(c, event.id));
    if (stored.closed) return ClosedError(event.id);
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kUpdateEvent));
    st->Bind(1, event.id.value);
    BindEventColumns(*st, event, 2);
    GORANK_RETURN_IF_ERROR(st->Run());
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<std::vector<Event>> SqlEventRepository::ListEvents(
    const tournaments::EventFilter& f) const {
  std::vector<Event> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(
        auto st,
        c.Prepare(f.newest_first ? kListEventsNewestFirst : kListEvents));
    st->Bind(1, f.organiser_prefix)
        .Bind(2, f.competition)
        .Bind(3, f.starts_on_or_after ? f.starts_on_or_after->ToString() : "")
        .Bind(4, f.starts_on_or_before ? f.starts_on_or_before->ToString() : "")
        .Bind(5, f.after_start ? f.after_start->ToString() : "")
        .Bind(6, f.after_id)
        .Bind(7, f.limit > 0 ? int64_t{f.limit} : INT64_MAX)
        .Bind(8, f.player ? f.player->value : int64_t{0})
        .Bind(9, NamePattern(f.name_contains));
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      GORANK_ASSIGN_OR_RETURN(Event e, ReadEvent(*st));
      out.push_back(std::move(e));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<EventResults> SqlEventRepository::GetResults(EventId id) const {
  EventResults results;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kResultsOf));
    st->Bind(1, id.value);
    GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
    if (!row) return NotFound(id);
    if (st->IsNull(1)) return absl::OkStatus();
    GORANK_ASSIGN_OR_RETURN(results, tournaments::ResultsFromJson(st->Text(1)));
    return absl::OkStatus();
  }));
  return results;
}

absl::Status SqlEventRepository::SaveResults(EventId id,
                                             const EventResults& results,
                                             const ChangeRecord& audit) {
  return db_->Write([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(Event event, LoadEvent(c, id));
    GORANK_RETURN_IF_ERROR(tournaments::ValidateResults(event, results));
    if (event.closed) {
      // A closed event takes only the decision of a tie left pending.
      GORANK_ASSIGN_OR_RETURN(auto read, c.Prepare(kResultsOf));
      read->Bind(1, id.value);
      GORANK_ASSIGN_OR_RETURN(bool row, read->Step());
      tournaments::EventResults stored;
      if (row && !read->IsNull(1)) {
        GORANK_ASSIGN_OR_RETURN(stored,
                                tournaments::ResultsFromJson(read->Text(1)));
      }
      read.reset();
      if (!tournaments::OnlyTieDecisionsDiffer(stored, results)) {
        return ClosedError(id);
      }
    }
    GORANK_RETURN_IF_ERROR(WritePlayerIndex(c, id, results));
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kPutResults));
    st->Bind(1, id.value).Bind(2, tournaments::ResultsToJson(results));
    GORANK_RETURN_IF_ERROR(st->Run());
    return AppendAudit(c, audit).status();
  });
}

absl::StatusOr<std::vector<EventId>> SqlEventRepository::EventsOfPlayer(
    registry::PlayerId player_id) const {
  std::vector<EventId> out;
  GORANK_RETURN_IF_ERROR(db_->Read([&](Connection& c) -> absl::Status {
    GORANK_ASSIGN_OR_RETURN(auto st, c.Prepare(kEventsOfPlayer));
    st->Bind(1, player_id.value);
    while (true) {
      GORANK_ASSIGN_OR_RETURN(bool row, st->Step());
      if (!row) break;
      out.push_back(EventId{st->Int(0)});
    }
    return absl::OkStatus();
  }));
  return out;
}

}  // namespace gorank::storage
