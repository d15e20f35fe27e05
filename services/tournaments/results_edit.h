// Changing part of an event's results (EditResults): add entrants (a
// registered player by id, or a guest), set teams with their board order,
// set or remove single games, set byes, record or cancel withdrawals, and
// record play-offs or drawings of lots - leaving everything not named as it
// is. One correction of one game changes that game alone.
#ifndef GORANK_SERVICES_TOURNAMENTS_RESULTS_EDIT_H_
#define GORANK_SERVICES_TOURNAMENTS_RESULTS_EDIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/entrant_matching.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

struct EntrantEntry {
  std::optional<registry::PlayerId> player_id;  // a registered player, or
  Entrant guest;                                // a guest (id ignored)
  std::optional<registry::Rank>
      rank;  // the rank played at, if not the registered one
};

struct TeamEntry {
  int id = 0;  // 0 = the next free id
  std::string name;
  std::vector<registry::PlayerId> board_player_ids;  // board 1 first
};

struct GameRef {
  int round = 0;
  EntrantId a;  // either colour
  EntrantId b;
};

struct Withdrawal {
  std::optional<EntrantId> entrant;  // exactly one of entrant and team
  std::optional<TeamId> team;
  int after_round = 0;
  bool undo = false;
};

struct ResultsEdit {
  std::vector<EntrantEntry> add_entrants;
  std::vector<TeamEntry> set_teams;
  std::vector<Game> set_games;
  std::vector<GameRef> remove_games;
  std::vector<Bye> set_byes;
  std::vector<Withdrawal> withdrawals;
  std::vector<TieDecision> tie_decisions;

  bool empty() const {
    return add_entrants.empty() && set_teams.empty() && set_games.empty() &&
           remove_games.empty() && set_byes.empty() && withdrawals.empty() &&
           tie_decisions.empty();
  }
};

struct EditOutcome {
  EventResults results;
  std::vector<std::string> changes;  // one line per change
};

// `before` with `edit` applied, in the order of ResultsEdit's fields:
//   - a registered entrant gets the next id, the registry's name (Chinese,
//     else Latin), rank (unless `rank` is given), agency as club, country CN;
//   - a team replaces the team of its id (members not in its board order
//     leave it); board players not yet entrants are added;
//   - a game replaces the game of its round and kind between the same two
//     entrants (either colour), else is added; a bye replaces that
//     entrant's bye of its round;
//   - a tie decision replaces one about the same set of ids.
// INVALID_ARGUMENT listing every problem: an empty edit, a player already
// entered (or entered twice), a guest without a name or rank, a team or
// withdrawal naming an unknown entrant or team, a removal of a game that is
// not there, a negative after_round. NOT_FOUND for an unregistered player.
// The result is NOT validated as a whole (EventDesk does that before
// storing). `directory` may be null when no entrant is added by id.
absl::StatusOr<EditOutcome> ApplyEdit(const EventResults& before,
                                      const ResultsEdit& edit,
                                      const PlayerDirectory* directory);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_RESULTS_EDIT_H_
