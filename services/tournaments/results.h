// Entries and results of one event (SPEC section 4): the entrants
// (registered players or guests), teams with their board order, every game
// with its outcome by colour, forfeits, handicap, komi and warnings, byes,
// withdrawals, and recorded play-offs or drawings of lots. Value types plus
// one validation function; standings.h turns them into places.
#ifndef GORANK_SERVICES_TOURNAMENTS_RESULTS_H_
#define GORANK_SERVICES_TOURNAMENTS_RESULTS_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/registry/player.h"
#include "services/registry/rank.h"
#include "services/tournaments/event.h"

namespace gorank::tournaments {

// An entrant's number inside its event (1..N, also the EGF row number).
struct EntrantId {
  int value = 0;
  auto operator<=>(const EntrantId&) const = default;
};

// A team's number inside its event (1..T).
struct TeamId {
  int value = 0;
  auto operator<=>(const TeamId&) const = default;
};

struct Entrant {
  EntrantId id;
  // The registry's player id; empty for a guest, who is known only by name
  // and rank.
  std::optional<registry::PlayerId> player_id;
  std::string family_name;  // may contain spaces; EGF writes them as '_'
  std::string given_name;
  std::optional<registry::Rank> rank;
  std::string country;  // ISO 3166-1 alpha-2
  std::string club;
  std::string egd_pin;  // 8 digits when known
  std::optional<TeamId> team;
  // Rounds completed before the entrant withdrew: 0 = before the start,
  // empty = did not withdraw.
  std::optional<int> withdrawn_after_round;

  // "family given"; without the space when both parts are written in a
  // non-Latin script ("张三").
  std::string DisplayName() const;
};

struct Team {
  TeamId id;
  std::string name;
  std::vector<EntrantId> board_order;  // board 1 first
  std::optional<int> withdrawn_after_round;
};

enum class Outcome {
  kUnknown = 0,  // not yet known: blocks the standings
  kBlackWins,
  kWhiteWins,
  kDraw,      // jigo
  kBothLose,  // double forfeit (with forfeit = true) or both lost
};

enum class GameKind {
  kRegular = 0,
  // A play-off that separates entrants tied for a place (including a
  // knockout's third-place play-off); it does not score points.
  kPlacePlayoff,
};

struct Game {
  int round = 0;  // 1-based; in a relay, the game's order number
  int board = 0;  // team formats: 1-based board; 0 otherwise
  EntrantId black;
  EntrantId white;
  // False when the file did not say who had which colour; black/white are
  // then just the two sides.
  bool colours_known = true;
  Outcome outcome = Outcome::kUnknown;
  bool forfeit = false;  // result by default, not played over the board
  GameKind kind = GameKind::kRegular;
  int handicap = 0;            // stones; 0 = even
  std::optional<int> komi_x2;  // overrides the event's komi for this game
  int black_warnings = 0;
  int white_warnings = 0;
};

// A round without an opponent that scores `points` (2 = a full bye, the
// EGF "0+"; 1 = "0="; 0 = a free round "0-").
struct Bye {
  int round = 0;
  EntrantId entrant;
  std::optional<TeamId> team;  // team byes (team Swiss)
  int points = 2;
};

enum class TieDecisionMethod { kPlayoff = 0, kLots };

// The recorded outcome of a play-off or a drawing of lots among entrants
// (or teams) equal on every criterion, best first. Never invented: a tie
// with no decision stays "pending play-off" where sharing is forbidden.
struct TieDecision {
  TieDecisionMethod method = TieDecisionMethod::kPlayoff;
  std::vector<int> order;  // entrant ids (team ids in team formats)
};

struct EventResults {
  std::vector<Entrant> entrants;
  std::vector<Team> teams;
  std::vector<Game> games;
  std::vector<Bye> byes;
  std::vector<TieDecision> tie_decisions;
};

// Checks the results against the event before any standings are computed,
// and reports every problem at once: INVALID_ARGUMENT whose message lists
// duplicate or non-positive ids, guests without a name or rank, games with
// an unknown entrant or team board, a player against themself, rounds
// outside 1..R (Swiss) or non-positive, an entrant paired twice in a round
// (outside knockout matches), negative warnings or handicap, a side with two
// warnings recorded as not losing, and tie decisions naming unknown ids.
// OK otherwise. Thread-safe.
absl::Status ValidateResults(const Event& event, const EventResults& results);

// Points a side scores for a game: 2 win, 1 draw, 0 loss/unknown/double
// forfeit. `black` selects the side.
int GamePoints(const Game& game, bool black);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_RESULTS_H_
