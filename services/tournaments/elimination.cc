// Places decided by elimination (SPEC section 4, readings taken):
//   knockout - single, double or n-loss: an entrant is out when it has lost
//     `lives` ties; entrants out in the same round share the place below
//     everyone still in or out later, which gives 1, 2, 3=, 5=, 9=, 17= for
//     a full bracket. A recorded place play-off (e.g. for third place)
//     separates the two it involves. A tie (the games of one pair in one
//     round, best-of-n allowed) goes to the side with more points.
//   relay (擂台赛) - games in order (Game::round is the order number); the
//     loser leaves (a draw or double forfeit sends both away); a team is
//     out when its last player has left; teams rank by order of elimination.
//   match - best of n between two entrants: more points wins once the
//     majority is reached or all n games are played.
// An unfinished knockout, relay or match is reported as pending results.
#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include "services/tournaments/standings_internal.h"

namespace gorank::tournaments::internal {
namespace {

Standings Pending(const std::string& reason, bool teams) {
  Standings s;
  s.status = StandingsStatus::kPendingResults;
  s.pending_reason = reason;
  s.teams = teams;
  return s;
}

// Place play-offs recorded as games become tie decisions, winner first.
std::vector<TieDecision> WithPlayoffGames(const EventResults& r) {
  std::vector<TieDecision> decisions = r.tie_decisions;
  for (const Game& g : r.games) {
    if (g.kind != GameKind::kPlacePlayoff) continue;
    const bool black_first = GamePoints(g, true) >= GamePoints(g, false);
    TieDecision d;
    d.order = black_first ? std::vector<int>{g.black.value, g.white.value}
                          : std::vector<int>{g.white.value, g.black.value};
    decisions.push_back(d);
  }
  return decisions;
}

std::set<int> OverTheBoardPlayers(const std::vector<Game>& games) {
  std::set<int> played;
  for (const Game& g : games) {
    if (g.forfeit) continue;
    played.insert(g.black.value);
    played.insert(g.white.value);
  }
  return played;
}

}  // namespace

absl::StatusOr<Standings> KnockoutStandings(const Event& event,
                                            const EventResults& results) {
  // (round, lower id, higher id) -> points of lower, points of higher
  std::map<std::tuple<int, int, int>, std::pair<int, int>> ties;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    const bool black_low = g.black.value < g.white.value;
    auto& t = ties[{g.round, std::min(g.black.value, g.white.value),
                    std::max(g.black.value, g.white.value)}];
    t.first += GamePoints(g, black_low);
    t.second += GamePoints(g, !black_low);
  }
  std::map<int, int> losses, won, out_in;
  for (const auto& [key, pts] : ties) {
    const auto [round, a, b] = key;
    if (pts.first == pts.second) {
      return Pending("round " + std::to_string(round) + ": tie " +
                         std::to_string(a) + " v " + std::to_string(b) +
                         " is level; record the deciding game",
                     false);
    }
    const int winner = pts.first > pts.second ? a : b;
    const int loser = winner == a ? b : a;
    ++won[winner];
    if (out_in.count(loser)) {
      return absl::InvalidArgumentError("round " + std::to_string(round) +
                                        ": entrant " + std::to_string(loser) +
                                        " plays after being eliminated");
    }
    if (++losses[loser] >= event.format.lives) out_in[loser] = round;
  }
  Standings standings;
  standings.criteria_names = {kCritTiesWon, kCritEliminatedIn};
  std::vector<ScoredRow> rows;
  int still_in = 0;
  for (const Entrant& e : results.entrants) {
    const int id = e.id.value;
    const bool never_played = !won.count(id) && !losses.count(id);
    if (e.withdrawn_after_round == 0 && never_played) {
      standings.voided.push_back(e.id);
      continue;
    }
    const bool out = out_in.count(id) > 0;
    if (!out) ++still_in;
    ScoredRow row;
    row.row.id = id;
    row.row.name = e.DisplayName();
    row.row.criteria = {won[id], out ? out_in[id] : 0};
    row.key = {out ? out_in[id] : INT_MAX};
    rows.push_back(std::move(row));
  }
  if (still_in > 1) {
    return Pending(
        std::to_string(still_in) + " entrants are still in the knockout",
        false);
  }
  standings.entrants_played =
      static_cast<int>(OverTheBoardPlayers(results.games).size());
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               WithPlayoffGames(results), standings);
  return standings;
}

absl::StatusOr<Standings> RelayStandings(const Event& event,
                                         const EventResults& results) {
  std::map<int, int> team_of;
  for (const Entrant& e : results.entrants) {
    if (e.team.has_value()) team_of[e.id.value] = e.team->value;
  }
  std::vector<Game> games;
  for (const Game& g : results.games) {
    if (g.kind == GameKind::kRegular) games.push_back(g);
  }
  std::stable_sort(
      games.begin(), games.end(),
      [](const Game& a, const Game& b) { return a.round < b.round; });
  std::set<int> left;
  std::map<int, int> team_wins, team_out_at;
  std::map<int, RelayPlayer> player;  // entrant id -> record
  std::set<int> teams_played;
  for (const Game& g : games) {
    for (EntrantId side : {g.black, g.white}) {
      if (!team_of.count(side.value)) {
        return absl::InvalidArgumentError(
            "relay game " + std::to_string(g.round) + ": entrant " +
            std::to_string(side.value) + " has no team");
      }
      if (left.count(side.value)) {
        return absl::InvalidArgumentError(
            "relay game " + std::to_string(g.round) + ": entrant " +
            std::to_string(side.value) + " already lost and left");
      }
      if (!g.forfeit) teams_played.insert(team_of[side.value]);
    }
    for (bool black : {true, false}) {
      const int id = black ? g.black.value : g.white.value;
      RelayPlayer& p = player[id];
      ++p.games_played;
      if (GamePoints(g, black) == 2) {
        ++p.games_won;
        ++team_wins[team_of[id]];
      } else {
        left.insert(id);
        p.left_after_game = g.round;
      }
    }
    for (const Team& t : results.teams) {
      if (team_out_at.count(t.id.value) || t.board_order.empty()) continue;
      const bool all_left =
          std::all_of(t.board_order.begin(), t.board_order.end(),
                      [&](EntrantId m) { return left.count(m.value) > 0; });
      if (all_left) team_out_at[t.id.value] = g.round;
    }
  }
  Standings standings;
  standings.teams = true;
  standings.criteria_names = {"games won", kCritEliminatedIn};
  std::vector<ScoredRow> rows;
  int still_in = 0;
  for (const Team& t : results.teams) {
    if (t.board_order.empty()) {
      return absl::InvalidArgumentError("relay team '" + t.name +
                                        "' has no playing order");
    }
    const bool out = team_out_at.count(t.id.value) > 0;
    if (!out) ++still_in;
    ScoredRow row;
    row.row.id = t.id.value;
    row.row.name = t.name;
    row.row.criteria = {team_wins[t.id.value],
                        out ? team_out_at[t.id.value] : 0};
    row.key = {out ? team_out_at[t.id.value] : INT_MAX};
    for (EntrantId m : t.board_order) {
      if (!left.count(m.value)) row.row.players_left.push_back(m.value);
      RelayPlayer p = player[m.value];
      p.entrant = m;
      p.team = t.id;
      for (const Entrant& e : results.entrants) {
        if (e.id == m) p.name = e.DisplayName();
      }
      standings.relay_players.push_back(std::move(p));
    }
    rows.push_back(std::move(row));
  }
  if (still_in > 1) {
    // Who is still in matters most while the relay runs.
    Standings pending = Pending(
        std::to_string(still_in) + " teams are still in the relay", true);
    pending.relay_players = std::move(standings.relay_players);
    return pending;
  }
  standings.entrants_played = static_cast<int>(teams_played.size());
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               results.tie_decisions, standings);
  return standings;
}

absl::StatusOr<Standings> MatchStandings(const Event& event,
                                         const EventResults& results) {
  if (results.entrants.size() != 2) {
    return absl::InvalidArgumentError("a match has exactly 2 entrants, got " +
                                      std::to_string(results.entrants.size()));
  }
  std::map<int, int> points;
  int games = 0;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    ++games;
    points[g.black.value] += GamePoints(g, true);
    points[g.white.value] += GamePoints(g, false);
  }
  const int n = event.format.best_of;
  const int a = points[results.entrants[0].id.value];
  const int b = points[results.entrants[1].id.value];
  if (games > n) {
    return absl::InvalidArgumentError("best of " + std::to_string(n) + " but " +
                                      std::to_string(games) +
                                      " games recorded");
  }
  if (std::max(a, b) <= n && games < n) {
    return Pending("match not decided after " + std::to_string(games) + " of " +
                       std::to_string(n) + " games",
                   false);
  }
  Standings standings;
  standings.criteria_names = {kCritPoints};
  std::vector<ScoredRow> rows;
  for (const Entrant& e : results.entrants) {
    ScoredRow row;
    row.row.id = e.id.value;
    row.row.name = e.DisplayName();
    row.row.criteria = {points[e.id.value]};
    row.key = {points[e.id.value]};
    rows.push_back(std::move(row));
  }
  standings.entrants_played =
      static_cast<int>(OverTheBoardPlayers(results.games).size());
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               results.tie_decisions, standings);
  return standings;
}

}  // namespace gorank::tournaments::internal
