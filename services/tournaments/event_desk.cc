#include "services/tournaments/event_desk.h"

#include <sys/random.h>

#include <algorithm>
#include <cstdint>

#include "services/common/status_macros.h"
#include "services/tournaments/event_json.h"

namespace gorank::tournaments {
namespace {

std::string IdText(EventId id) { return std::to_string(id.value); }

absl::Status CheckActsFor(const auth::Caller& caller, const std::string& prefix,
                          const std::string& what) {
  if (caller.ActsFor(prefix)) return absl::OkStatus();
  return absl::PermissionDeniedError(caller.Describe() + " may not change " +
                                     what + ": it is organised by agency " +
                                     prefix +
                                     " (only that agency's operators and the "
                                     "national admin may)");
}

// ListEvents' name_contains: at most 100 bytes, no control characters.
absl::Status CheckNameText(const std::string& text) {
  if (text.size() > 100) {
    return absl::InvalidArgumentError("name_contains is longer than 100 bytes");
  }
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          "name_contains contains a control character");
    }
  }
  return absl::OkStatus();
}

bool IsPrefix(const std::string& p) {
  return p.size() == 3 && std::all_of(p.begin(), p.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

absl::StatusOr<ResultFile> ReadFile(ResultFileFormat format,
                                    const std::string& text) {
  switch (format) {
    case ResultFileFormat::kEgf:
      return ReadEgf(text);
    case ResultFileFormat::kCsv:
      return ReadCsv(text);
  }
  return absl::InvalidArgumentError("format must be egf or csv");
}

// A pairing seed from the kernel's CSPRNG; never 0 (0 asks for a draw).
uint64_t DrawSeed() {
  uint64_t seed = 0;
  while (seed == 0) {
    if (getrandom(&seed, sizeof seed, 0) != sizeof seed) seed = 0;
  }
  return seed;
}

}  // namespace

ChangeRecord EventDesk::Change(const auth::Caller& caller,
                               const std::string& action, EventId id) const {
  ChangeRecord c;
  c.time_unix = clock_->NowSeconds();
  c.actor = caller.Describe();
  c.action = action;
  c.subject = "event:" + IdText(id);
  return c;
}

absl::Status EventDesk::CheckDescription(const Event& event) const {
  if (!IsPrefix(event.organiser_prefix)) {
    return absl::InvalidArgumentError(
        "organiser_prefix must be an agency's three-digit "
        "region prefix (\"000\" national), got '" +
        event.organiser_prefix + "'");
  }
  GORANK_RETURN_IF_ERROR(catalogue_->CheckEvent(event));
  return ValidateEvent(event);
}

absl::StatusOr<Event> EventDesk::Create(const auth::Caller& caller,
                                        const Event& event) {
  GORANK_RETURN_IF_ERROR(CheckDescription(event));
  GORANK_RETURN_IF_ERROR(
      CheckActsFor(caller, event.organiser_prefix, "an event"));
  Event fresh = event;
  fresh.id = EventId{};
  fresh.closed = false;
  if (fresh.pairing.seed == 0) fresh.pairing.seed = DrawSeed();
  ChangeRecord c = Change(caller, "event.create", EventId{});
  c.after = EventToJson(fresh);
  return repo_->CreateEvent(fresh, c);
}

absl::StatusOr<Event> EventDesk::Get(EventId id) const {
  return repo_->GetEvent(id);
}

absl::StatusOr<Page<Event>> EventDesk::List(const EventFilter& filter,
                                            const PageArgs& page) const {
  auto date = [](const std::optional<Date>& d) {
    return d ? d->ToString() : std::string();
  };
  PageQuery query =
      PageQuery("ListEvents")
          .With("organiser_prefix", filter.organiser_prefix)
          .With("competition", filter.competition)
          .With("starts_on_or_after", date(filter.starts_on_or_after))
          .With("starts_on_or_before", date(filter.starts_on_or_before));
  // Only when set, so that the tokens of the ascending list stay as they were.
  if (filter.newest_first) query.With("order", "newest_first");
  if (filter.player) query.With("player_id", filter.player->value);
  if (!filter.name_contains.empty()) {
    GORANK_RETURN_IF_ERROR(CheckNameText(filter.name_contains));
    query.With("name_contains", filter.name_contains);
  }
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kEventPage, query, "si", page));
  EventFilter f = filter;
  f.after_start.reset();
  f.after_id = 0;
  if (request.after) {
    auto start = Date::Parse(request.after->Text(0));
    if (!start.ok()) {
      return absl::InvalidArgumentError(
          "page_token is not one this server gave (not a date)");
    }
    f.after_start = *start;
    f.after_id = request.after->Int(1);
  }
  f.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(std::vector<Event> found, repo_->ListEvents(f));
  return CutPage(std::move(found), request, query, [](const Event& e) {
    return PageKey().Add(e.start.ToString()).Add(e.id.value);
  });
}

absl::StatusOr<EventResults> EventDesk::Results(EventId id) const {
  return repo_->GetResults(id);
}

absl::StatusOr<std::vector<PlayerPlace>> EventDesk::PlacesOf(
    registry::PlayerId player, const std::vector<Event>& events) const {
  std::vector<PlayerPlace> out;
  for (const Event& event : events) {
    GORANK_ASSIGN_OR_RETURN(EventResults results, repo_->GetResults(event.id));
    absl::StatusOr<Standings> standings = ComputeStandings(event, results);
    if (!standings.ok()) continue;  // stored results that no longer fit
    for (const Entrant& e : results.entrants) {
      if (e.player_id != player) continue;
      int row_id = e.id.value;
      if (standings->teams) {
        if (!e.team) continue;
        row_id = e.team->value;
      }
      for (const StandingRow& row : standings->rows) {
        if (row.id != row_id) continue;
        out.push_back(PlayerPlace{event.id, e.id, row.place, row.state,
                                  row.place_label, standings->status});
        break;
      }
      break;
    }
  }
  return out;
}

absl::StatusOr<Event> EventDesk::Writable(const auth::Caller& caller,
                                          EventId id) const {
  GORANK_ASSIGN_OR_RETURN(Event stored, repo_->GetEvent(id));
  GORANK_RETURN_IF_ERROR(
      CheckActsFor(caller, stored.organiser_prefix, "event " + IdText(id)));
  if (stored.closed) {
    return absl::FailedPreconditionError("event " + IdText(id) +
                                         " is closed: its results are final");
  }
  return stored;
}

absl::StatusOr<Event> EventDesk::Update(const auth::Caller& caller,
                                        const Event& event) {
  GORANK_ASSIGN_OR_RETURN(Event stored, Writable(caller, event.id));
  GORANK_RETURN_IF_ERROR(
      CheckActsFor(caller, event.organiser_prefix, "an event"));
  GORANK_RETURN_IF_ERROR(CheckDescription(event));
  if (event.pairing.seed != 0 && event.pairing.seed != stored.pairing.seed) {
    return absl::InvalidArgumentError(
        "event.pairing.seed is read-only (drawn when the event was created, "
        "so that its pairings can be reproduced): send 0 or the stored seed");
  }
  Event updated = event;
  updated.closed = false;
  updated.pairing.seed = stored.pairing.seed;
  ChangeRecord c = Change(caller, "event.update", event.id);
  c.before = EventToJson(stored);
  c.after = EventToJson(updated);
  GORANK_RETURN_IF_ERROR(repo_->UpdateEvent(updated, c));
  return updated;
}

absl::StatusOr<Standings> EventDesk::Store(const auth::Caller& caller,
                                           const Event& event,
                                           const EventResults& before,
                                           const EventResults& after,
                                           const std::string& action,
                                           const std::string* audit_after) {
  // ComputeStandings runs ValidateResults and the format's structure
  // checks, so nothing that cannot be ranked is stored.
  GORANK_ASSIGN_OR_RETURN(Standings standings, ComputeStandings(event, after));
  ChangeRecord c = Change(caller, action, event.id);
  c.before = ResultsToJson(before);
  c.after = audit_after != nullptr ? *audit_after : ResultsToJson(after);
  GORANK_RETURN_IF_ERROR(repo_->SaveResults(event.id, after, c));
  return standings;
}

absl::StatusOr<Standings> EventDesk::SaveResults(const auth::Caller& caller,
                                                 EventId id,
                                                 const EventResults& results) {
  std::lock_guard<std::mutex> lock(results_mu_);
  GORANK_ASSIGN_OR_RETURN(Event event, Writable(caller, id));
  GORANK_ASSIGN_OR_RETURN(EventResults before, repo_->GetResults(id));
  return Store(caller, event, before, results, "results.save");
}

absl::StatusOr<Standings> EventDesk::RecordRound(const auth::Caller& caller,
                                                 EventId id, int round,
                                                 const std::vector<Game>& games,
                                                 const std::vector<Bye>& byes) {
  if (round < 1) return absl::InvalidArgumentError("round must be 1 or more");
  std::string problems;
  for (const Game& g : games) {
    if (g.round != round || g.kind != GameKind::kRegular) {
      problems += "; game " + std::to_string(g.black.value) + "-" +
                  std::to_string(g.white.value) +
                  " is not a regular game of round " + std::to_string(round);
    }
  }
  for (const Bye& b : byes) {
    if (b.round != round) {
      problems += "; a bye of entrant " + std::to_string(b.entrant.value) +
                  " names round " + std::to_string(b.round);
    }
  }
  if (!problems.empty()) return absl::InvalidArgumentError(problems.substr(2));
  std::lock_guard<std::mutex> lock(results_mu_);
  GORANK_ASSIGN_OR_RETURN(Event event, Writable(caller, id));
  GORANK_ASSIGN_OR_RETURN(EventResults before, repo_->GetResults(id));
  EventResults after = before;
  std::erase_if(after.games, [round](const Game& g) {
    return g.kind == GameKind::kRegular && g.round == round;
  });
  std::erase_if(after.byes, [round](const Bye& b) { return b.round == round; });
  after.games.insert(after.games.end(), games.begin(), games.end());
  after.byes.insert(after.byes.end(), byes.begin(), byes.end());
  return Store(caller, event, before, after, "results.record_round");
}

absl::StatusOr<Standings> EventDesk::GetStandings(EventId id) const {
  GORANK_ASSIGN_OR_RETURN(Event event, repo_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(EventResults results, repo_->GetResults(id));
  return ComputeStandings(event, results);
}

absl::StatusOr<EditedResults> EventDesk::Edit(const auth::Caller& caller,
                                              EventId id,
                                              const ResultsEdit& edit) {
  std::lock_guard<std::mutex> lock(results_mu_);
  absl::StatusOr<Event> writable = Writable(caller, id);
  // A closed event still takes the play-off or lots of a tie left pending
  // at the close, and nothing else.
  const bool ties_only = !edit.tie_decisions.empty() &&
                         edit.add_entrants.empty() && edit.set_teams.empty() &&
                         edit.set_games.empty() && edit.remove_games.empty() &&
                         edit.set_byes.empty() && edit.withdrawals.empty();
  if (!writable.ok() &&
      !(ties_only && absl::IsFailedPrecondition(writable.status()))) {
    return writable.status();
  }
  GORANK_ASSIGN_OR_RETURN(Event event,
                          writable.ok() ? writable : repo_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(EventResults before, repo_->GetResults(id));
  if (event.closed) {
    GORANK_ASSIGN_OR_RETURN(Standings now, ComputeStandings(event, before));
    GORANK_RETURN_IF_ERROR(CheckDecidesPendingTies(now, edit.tie_decisions));
  }
  GORANK_ASSIGN_OR_RETURN(EditOutcome edited,
                          ApplyEdit(before, edit, directory_));
  GORANK_ASSIGN_OR_RETURN(
      Standings standings,
      Store(caller, event, before, edited.results, "results.edit"));
  return EditedResults{std::move(standings), std::move(edited.results),
                       std::move(edited.changes)};
}

namespace {

// Without a registry every row is unknown (or resolved by the director).
class NoDirectory final : public PlayerDirectory {
 public:
  absl::StatusOr<RegisteredPlayer> Get(registry::PlayerId id) const override {
    return absl::NotFoundError("no registry: player " +
                               std::to_string(id.value));
  }
  absl::StatusOr<std::vector<RegisteredPlayer>> FindByName(
      const std::string&) const override {
    return std::vector<RegisteredPlayer>{};
  }
};

}  // namespace

absl::StatusOr<ImportOutcome> EventDesk::Import(const auth::Caller& caller,
                                                EventId id,
                                                ResultFileFormat format,
                                                const std::string& text,
                                                const ImportOptions& options) {
  static const NoDirectory kNoDirectory;
  const PlayerDirectory& directory =
      directory_ != nullptr ? *directory_ : kNoDirectory;
  ImportOutcome out;
  const bool dry = id.value == 0 || options.dry_run;
  std::unique_lock<std::mutex> lock(results_mu_, std::defer_lock);
  Event event;
  if (id.value != 0) {
    lock.lock();
    GORANK_ASSIGN_OR_RETURN(event, Writable(caller, id));
  }
  GORANK_ASSIGN_OR_RETURN(out.file, ReadFile(format, text));
  GORANK_RETURN_IF_ERROR(ApplyWithdrawals(options.withdrawals, out.file));
  const FormatKind kind = event.format.kind;
  if (id.value != 0 &&
      (kind == FormatKind::kSwiss || kind == FormatKind::kTeamSwiss) &&
      out.file.event.format.rounds != event.format.rounds) {
    return absl::InvalidArgumentError(
        "the file has " + std::to_string(out.file.event.format.rounds) +
        " rounds but event " + IdText(id) + " is a Swiss of " +
        std::to_string(event.format.rounds) + " rounds");
  }
  GORANK_ASSIGN_OR_RETURN(out.matches,
                          MatchRows(out.file, directory, options.resolutions));
  for (const RowMatch& m : out.matches)
    out.unresolved += m.Unresolved() ? 1 : 0;
  if (dry) {
    // Show the links the matching would make; unresolved rows stay guests.
    for (const RowMatch& m : out.matches) {
      out.file.results.entrants[m.row - 1].player_id =
          m.Unresolved() || m.state == RowMatchState::kGuest ? std::nullopt
                                                             : m.player_id;
    }
    if (id.value != 0) {
      GORANK_RETURN_IF_ERROR(
          ComputeStandings(event, out.file.results).status());
    }
    return out;
  }
  GORANK_RETURN_IF_ERROR(
      ApplyMatches(out.matches, options.allow_guests, out.file.results));
  GORANK_ASSIGN_OR_RETURN(EventResults before, repo_->GetResults(id));
  GORANK_RETURN_IF_ERROR(
      Store(caller, event, before, out.file.results, "results.import")
          .status());
  out.stored = true;
  return out;
}

absl::StatusOr<std::string> EventDesk::Export(EventId id,
                                              ResultFileFormat format) const {
  GORANK_ASSIGN_OR_RETURN(Event event, repo_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(EventResults results, repo_->GetResults(id));
  if (format == ResultFileFormat::kCsv) return WriteCsv(event, results);
  if (IsTeamFormat(event.format.kind)) {
    return absl::FailedPreconditionError(
        "event " + IdText(id) +
        " is a team event; EGF files list players "
        "(export it as CSV)");
  }
  GORANK_ASSIGN_OR_RETURN(Standings standings,
                          ComputeStandings(event, results));
  const bool ranked = standings.status != StandingsStatus::kPendingResults;
  return WriteEgf(event, results, ranked ? &standings : nullptr, {});
}

absl::StatusOr<ClosedEvent> EventDesk::Close(const auth::Caller& caller,
                                             EventId id) {
  std::lock_guard<std::mutex> lock(results_mu_);
  GORANK_ASSIGN_OR_RETURN(Event event, Writable(caller, id));
  GORANK_ASSIGN_OR_RETURN(Standings standings, GetStandings(id));
  // Places awaiting a play-off or lots may stay pending: only those places
  // wait, and the decision is recorded later (Edit with tie decisions).
  if (standings.status == StandingsStatus::kPendingResults) {
    return absl::FailedPreconditionError(
        "event " + IdText(id) +
        " cannot be closed yet: " + standings.pending_reason);
  }
  Event closed = event;
  closed.closed = true;
  ChangeRecord c = Change(caller, "event.close", id);
  c.before = EventToJson(event);
  c.after = EventToJson(closed);
  GORANK_RETURN_IF_ERROR(repo_->UpdateEvent(closed, c));
  if (after_close_) after_close_(caller, closed);
  return ClosedEvent{closed, standings};
}

}  // namespace gorank::tournaments
