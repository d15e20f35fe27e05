// Team standings (SPEC section 4). Every game scores 2/1/0 board points; a
// match (the games of two teams in one round) gives 2/1/0 match points by
// comparing board points. Criteria: round robin - match points, board
// points, board 1's points over the event, board 2's, ...; Swiss - the
// total MP + SOS/R - R (as K = MP*R + SOS - R*R), then board points and the
// boards (or match points first when the event says so). Fully equal teams
// share the place.
//
// Withdrawals: played results stand. In a team round robin every match
// still missing against a withdrawn team is lost by it 2-0 on every board,
// and those board points count for the opponent. In a team Swiss the team
// is not paired again and, in its opponents' SOS, counts MP + A x unplayed
// (A = MP / matches played, capped at 1). A team bye scores 2 match points
// and 2 board points a board, and adds a virtual R-point opponent to SOS.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "services/tournaments/standings_internal.h"

namespace gorank::tournaments::internal {
namespace {

struct TeamTally {
  int match_points = 0;
  int board_points = 0;
  std::vector<int> board;  // points per board, index 0 = board 1
  int matches_before_withdrawal = 0;
  Rational sos;
  bool played = false;
};

struct MatchSide {
  int board_points = 0;
  bool over_the_board = false;
};

using MatchKey = std::tuple<int, int, int>;  // round, lower team, higher team

absl::Status Invalid(const Game& g, const std::string& why) {
  return absl::InvalidArgumentError("round " + std::to_string(g.round) +
                                    " game " + std::to_string(g.black.value) +
                                    " v " + std::to_string(g.white.value) +
                                    ": " + why);
}

}  // namespace

absl::StatusOr<Standings> TeamStandings(const Event& event,
                                        const EventResults& results) {
  const int boards = event.format.boards;
  const bool swiss = event.format.kind == FormatKind::kTeamSwiss;
  std::map<int, int> team_of;
  for (const Entrant& e : results.entrants) {
    if (e.team.has_value()) team_of[e.id.value] = e.team->value;
  }
  std::map<int, TeamTally> tally;
  std::map<int, const Team*> teams;
  for (const Team& t : results.teams) {
    teams[t.id.value] = &t;
    tally[t.id.value].board.assign(boards, 0);
  }
  std::map<MatchKey, std::map<int, MatchSide>> matches;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    if (!team_of.count(g.black.value) || !team_of.count(g.white.value)) {
      return Invalid(g, "both players of a team game need a team");
    }
    const int tb = team_of[g.black.value], tw = team_of[g.white.value];
    if (tb == tw) return Invalid(g, "both players are in the same team");
    if (g.board < 1 || g.board > boards) {
      return Invalid(g, "board must be 1.." + std::to_string(boards));
    }
    MatchKey key{g.round, std::min(tb, tw), std::max(tb, tw)};
    for (bool black : {true, false}) {
      const int team = black ? tb : tw;
      const int p = GamePoints(g, black);
      matches[key][team].board_points += p;
      matches[key][team].over_the_board |= !g.forfeit;
      tally[team].board_points += p;
      tally[team].board[g.board - 1] += p;
    }
  }
  // Team round robin: missing matches against withdrawn teams, 2-0 a board.
  if (!swiss) {
    std::map<std::pair<int, int>, int> met;
    for (const auto& [key, sides] : matches) {
      ++met[{std::get<1>(key), std::get<2>(key)}];
    }
    for (const Team& w : results.teams) {
      if (!w.withdrawn_after_round.has_value()) continue;
      for (const Team& o : results.teams) {
        if (o.id == w.id || o.withdrawn_after_round.has_value()) continue;
        const std::pair<int, int> pair{std::min(w.id.value, o.id.value),
                                       std::max(w.id.value, o.id.value)};
        for (int m = met[pair]; m < event.format.cycles; ++m) {
          MatchKey key{-(m + 1), pair.first, pair.second};  // synthetic round
          matches[key][o.id.value].board_points = 2 * boards;
          matches[key][w.id.value].board_points = 0;
          tally[o.id.value].board_points += 2 * boards;
          for (int& b : tally[o.id.value].board) b += 2;
        }
      }
    }
  }
  std::vector<TeamMatchResult> match_list;
  for (const auto& [key, sides] : matches) {
    const int a = std::get<1>(key), b = std::get<2>(key);
    const int pa = sides.count(a) ? sides.at(a).board_points : 0;
    const int pb = sides.count(b) ? sides.at(b).board_points : 0;
    const int ma = pa > pb ? 2 : pa == pb ? 1 : 0;
    tally[a].match_points += ma;
    tally[b].match_points += 2 - ma;
    match_list.push_back({std::get<0>(key), a, b, pa, pb, ma, 2 - ma});
    for (int t : {a, b}) {
      const bool otb = sides.count(t) && sides.at(t).over_the_board;
      tally[t].played |= otb;
      const auto& w = teams[t]->withdrawn_after_round;
      if (otb && (!w.has_value() || std::get<0>(key) <= *w)) {
        ++tally[t].matches_before_withdrawal;
      }
    }
  }
  for (const Bye& b : results.byes) {
    if (!b.team.has_value() || !tally.count(b.team->value)) continue;
    TeamTally& t = tally[b.team->value];
    t.match_points += b.points;
    t.board_points += b.points * boards;
    for (int& v : t.board) v += b.points;
  }
  if (swiss) {
    const int r = event.format.rounds;
    std::map<int, Rational> contribution;
    for (const Team& t : results.teams) {
      const TeamTally& x = tally[t.id.value];
      contribution[t.id.value] =
          t.withdrawn_after_round.has_value()
              ? WithdrawnScore(x.match_points, x.matches_before_withdrawal, r,
                               *t.withdrawn_after_round)
              : Rational(x.match_points);
    }
    for (const auto& [key, sides] : matches) {
      const int a = std::get<1>(key), b = std::get<2>(key);
      tally[a].sos += contribution[b];
      tally[b].sos += contribution[a];
    }
    for (const Bye& b : results.byes) {
      if (b.team.has_value() && b.points > 0) tally[b.team->value].sos += r;
    }
  }

  Standings standings;
  standings.teams = true;
  // Played matches by round, then the forfeited ones (synthetic rounds < 1).
  std::stable_sort(match_list.begin(), match_list.end(),
                   [](const TeamMatchResult& x, const TeamMatchResult& y) {
                     return (x.round < 1) == (y.round < 1) ? false
                                                           : x.round >= 1;
                   });
  standings.matches = std::move(match_list);
  standings.criteria_names = {kCritMatchPoints};
  if (swiss) {
    standings.criteria_names.push_back(kCritSos);
    standings.criteria_names.push_back(kCritTotal);
  }
  standings.criteria_names.push_back(kCritBoardPoints);
  for (int b = 1; b <= boards; ++b) {
    standings.criteria_names.push_back("board " + std::to_string(b));
  }
  std::vector<ScoredRow> rows;
  for (const Team& t : results.teams) {
    const TeamTally& x = tally[t.id.value];
    if (x.played) ++standings.entrants_played;
    ScoredRow row;
    row.row.id = t.id.value;
    row.row.name = t.name;
    row.row.criteria = {x.match_points};
    if (swiss) {
      const int r = event.format.rounds;
      const Rational k = Rational(x.match_points * r) + x.sos - r * r;
      row.row.criteria.push_back(x.sos);
      row.row.criteria.push_back(k / Rational(r));
      if (event.format.swiss_ranking == SwissRanking::kPointsFirst) {
        row.key.push_back(x.match_points);
      }
      row.key.push_back(k);
    } else {
      row.key.push_back(x.match_points);
    }
    row.row.criteria.push_back(x.board_points);
    row.key.push_back(x.board_points);
    for (int v : x.board) {
      row.row.criteria.push_back(v);
      row.key.push_back(v);
    }
    if (t.withdrawn_after_round.has_value()) {
      row.row.note =
          "withdrew after round " + std::to_string(*t.withdrawn_after_round);
    }
    rows.push_back(std::move(row));
  }
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               results.tie_decisions, standings);
  return standings;
}

}  // namespace gorank::tournaments::internal
