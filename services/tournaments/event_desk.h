// EventDesk: the tournament office behind TournamentService. It checks who
// may change an event (the national admin, or an operator of the agency
// that organises it), keeps a closed event closed, checks competitions
// against the catalogue, turns result files into results (checked whole
// before anything is stored), computes standings, and hands every change
// to the EventRepository with its audit record (before/after as JSON, see
// event_json.h). Reads take no caller: events, results and standings are
// public.
//
// Entrants are registered players wherever the registry can say so: an
// edit adds players by id (their name and rank from the registry), and an
// import links each row of the file (CSV: its player_id column; EGF: by
// name, agency/club and rank, see entrant_matching.h). A row the registry
// cannot settle alone is listed for the director to resolve, and nothing
// is stored from the file until every row is linked or declared a guest.
#ifndef GORANK_SERVICES_TOURNAMENTS_EVENT_DESK_H_
#define GORANK_SERVICES_TOURNAMENTS_EVENT_DESK_H_

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/common/clock.h"
#include "services/common/paging.h"
#include "services/tournaments/competition_catalogue.h"
#include "services/tournaments/entrant_matching.h"
#include "services/tournaments/event_repository.h"
#include "services/tournaments/pairing.h"
#include "services/tournaments/result_file.h"
#include "services/tournaments/results_edit.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments {

enum class ResultFileFormat { kEgf = 1, kCsv = 2 };

struct ClosedEvent {
  Event event;
  Standings standings;
};

struct ImportOptions {
  std::vector<RowResolution> resolutions;
  bool allow_guests = false;  // unresolved rows become guests
  bool dry_run = false;       // check everything, store nothing
  // Withdrawals the file cannot say: (row, rounds completed before it).
  std::vector<std::pair<int, int>> withdrawals;
};

struct ImportOutcome {
  ResultFile file;  // results with the links made
  std::vector<RowMatch> matches;
  int unresolved = 0;  // rows left ambiguous or unknown
  bool stored = false;
};

struct EditedResults {
  Standings standings;
  EventResults results;
  std::vector<std::string> changes;
};

struct PairedRound {
  RoundPairing pairing;
  bool stored = false;  // false for a dry run
};

// A registered player's place in one event: the row of the event's
// standings that is the player's (the team's row in a team event).
struct PlayerPlace {
  EventId event;
  EntrantId entrant;
  int place = 0;
  PlaceState state = PlaceState::kAlone;
  std::string place_label;
  StandingsStatus status = StandingsStatus::kFinal;
};

// The page sizes of ListEvents (page_size 0 gives the first number).
inline constexpr PageSpec kEventPage{100, 1000};

// Thread-safe. Does not own its collaborators. Changes to one desk's
// results are serialised (RecordRound reads, edits and writes back).
class EventDesk {
 public:
  EventDesk(
      EventRepository* repo, const Clock* clock,
      const CompetitionCatalogue* catalogue = &CompetitionCatalogue::Default())
      : repo_(repo), clock_(clock), catalogue_(catalogue) {}

  // Creates an event (id and `closed` ignored; a pairing seed of 0 is drawn
  // from the system's CSPRNG). INVALID_ARGUMENT when the
  // organiser prefix is not three digits, the competition or group is not
  // in the catalogue, or ValidateEvent fails; then PERMISSION_DENIED unless
  // the caller acts for `event.organiser_prefix`.
  absl::StatusOr<Event> Create(const auth::Caller& caller, const Event& event);

  // NOT_FOUND when unknown.
  absl::StatusOr<Event> Get(EventId id) const;
  // The events `filter` matches (its paging fields are set here), by start
  // date then id, one page (kEventPage). INVALID_ARGUMENT for a bad page
  // (paging.h), or a name_contains over 100 bytes or with a control
  // character.
  absl::StatusOr<Page<Event>> List(const EventFilter& filter,
                                   const PageArgs& page) const;
  absl::StatusOr<EventResults> Results(EventId id) const;
  // The place of `player` in each of `events` whose standings have a row
  // for the player (none for an event with pending results, an event whose
  // stored results do not fit its format, or a voided player), in the
  // order of `events`. NOT_FOUND when an event is unknown.
  absl::StatusOr<std::vector<PlayerPlace>> PlacesOf(
      registry::PlayerId player, const std::vector<Event>& events) const;

  // Replaces the description (`closed` and the pairing seed are kept as
  // stored; use Close). NOT_FOUND; PERMISSION_DENIED unless the caller acts
  // for both the stored and the new organiser; FAILED_PRECONDITION when
  // closed; INVALID_ARGUMENT as Create, or for a pairing seed other than 0
  // or the stored one (the seed is read-only).
  absl::StatusOr<Event> Update(const auth::Caller& caller, const Event& event);

  // Replaces the results as a whole and returns the new standings.
  // NOT_FOUND; PERMISSION_DENIED (caller does not act for the organiser);
  // FAILED_PRECONDITION when closed; INVALID_ARGUMENT listing every problem
  // (ValidateResults, or the format's structure) - nothing stored then.
  absl::StatusOr<Standings> SaveResults(const auth::Caller& caller, EventId id,
                                        const EventResults& results);

  // Replaces every regular game and bye of `round` with `games` and `byes`.
  // Errors as SaveResults, plus INVALID_ARGUMENT when `round` < 1 or a game
  // or bye names another round.
  absl::StatusOr<Standings> RecordRound(const auth::Caller& caller, EventId id,
                                        int round,
                                        const std::vector<Game>& games,
                                        const std::vector<Bye>& byes);

  // Applies `edit` (results_edit.h) to the stored results, checks the
  // whole (as SaveResults) and stores it: only what the edit names changes.
  // Errors as SaveResults, plus ApplyEdit's (NOT_FOUND for an unregistered
  // player, INVALID_ARGUMENT). A closed event takes only tie decisions that
  // each settle a tie left pending at the close (FAILED_PRECONDITION
  // otherwise, CheckDecidesPendingTies).
  absl::StatusOr<EditedResults> Edit(const auth::Caller& caller, EventId id,
                                     const ResultsEdit& edit);

  // Pairs `round` of a Swiss event (pairing.h PairRound with the event's
  // PairingSettings and stored results) and, unless `dry_run`, stores it:
  // every regular game and bye of `round` is replaced by the boards (games
  // with unknown outcome, board numbers, handicap and komi) and byes, in one
  // transaction with an audit entry ("results.pair_round") whose after-JSON
  // also names the round, the seed and the decisions. Serialised with the
  // other result changes. NOT_FOUND; PERMISSION_DENIED (caller does not act
  // for the organiser); INVALID_ARGUMENT when `round` is outside 1..R or an
  // adjustment is wrong (PairRound's); FAILED_PRECONDITION when the event is
  // closed or not an individual Swiss, when a game of `round` already has a
  // result, when a later round is already paired, when an earlier round has
  // a game with an unknown result, or when no pairing exists. Implemented
  // in event_desk_pairing.cc (target pairing_desk).
  absl::StatusOr<PairedRound> PairRound(const auth::Caller& caller, EventId id,
                                        int round,
                                        const PairingAdjustments& adjustments,
                                        bool dry_run);

  // NOT_FOUND; INVALID_ARGUMENT when the stored results do not fit the
  // event's format (e.g. after a format change). Pending results are an OK
  // answer with status kPendingResults.
  absl::StatusOr<Standings> GetStandings(EventId id) const;

  // Reads an EGF or CSV file and matches its rows to the registry
  // (MatchRows with options.resolutions). With `id` 0 or options.dry_run
  // nothing is stored and unresolved rows are not an error (the outcome
  // lists them). Otherwise the file's results replace the event's (the
  // event's description is not changed). INVALID_ARGUMENT listing every
  // problem as "line N: ..." (the file, a Swiss file's round count that
  // differs from the event's R, MatchRows' problems); FAILED_PRECONDITION
  // listing the unresolved rows unless options.allow_guests, or when
  // closed; NOT_FOUND; PERMISSION_DENIED. Nothing is stored unless
  // everything is right. Without a player directory every row is unknown.
  absl::StatusOr<ImportOutcome> Import(const auth::Caller& caller, EventId id,
                                       ResultFileFormat format,
                                       const std::string& text,
                                       const ImportOptions& options);

  // The event as a result file (EGF rows in standings order when the
  // standings are final or await only a play-off; CSV in id order).
  // NOT_FOUND; FAILED_PRECONDITION when a result is unknown, an entrant has
  // no rank, or (EGF) the event is a team event.
  absl::StatusOr<std::string> Export(EventId id, ResultFileFormat format) const;

  // Closes the event for good. NOT_FOUND; PERMISSION_DENIED;
  // FAILED_PRECONDITION when already closed or when results are unknown,
  // naming what is missing. Places awaiting a play-off or lots stay pending
  // (only those: the other places are final) until Edit records the
  // decision.
  // After the close is stored, runs the after-close hook (if set) before
  // returning; closes are serialised, so hooks see events in close order.
  absl::StatusOr<ClosedEvent> Close(const auth::Caller& caller, EventId id);

  // The registry, for entering players by id and matching imported rows.
  // Not owned. Set once, before serving.
  void SetPlayerDirectory(const PlayerDirectory* directory) {
    directory_ = directory;
  }

  // Runs after every successful Close (the ratings advance by the event).
  // The hook cannot undo the close; it reports its own failures. Set once,
  // before serving.
  void SetAfterClose(
      std::function<void(const auth::Caller&, const Event&)> hook) {
    after_close_ = std::move(hook);
  }

 private:
  absl::Status CheckDescription(const Event& event) const;
  // The stored event, when the caller may change it and it is open.
  absl::StatusOr<Event> Writable(const auth::Caller& caller, EventId id) const;
  // Checks, stores and returns the standings. The audit entry's after is
  // `after` as JSON unless `audit_after` is given. REQUIRES: results_mu_
  // held.
  absl::StatusOr<Standings> Store(const auth::Caller& caller,
                                  const Event& event,
                                  const EventResults& before,
                                  const EventResults& after,
                                  const std::string& action,
                                  const std::string* audit_after = nullptr);
  ChangeRecord Change(const auth::Caller& caller, const std::string& action,
                      EventId id) const;

  EventRepository* repo_;
  const Clock* clock_;
  const CompetitionCatalogue* catalogue_;
  const PlayerDirectory* directory_ = nullptr;
  std::mutex results_mu_;
  std::function<void(const auth::Caller&, const Event&)> after_close_;
};

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_EVENT_DESK_H_
