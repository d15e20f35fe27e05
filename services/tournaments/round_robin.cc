// Round-robin standings (SPEC section 4): points 2/1/0, then rule (A) kept
// as the integer 2 x SB_cn (twice "beaten opponents' points + half the drawn
// opponents' points"), then fewer warnings, then a shared place or a
// recorded play-off / lots.
//
// Withdrawals: withdrawn before the start -> voided (a redraw). Otherwise p
// = games over the board, S = (N - 1) x cycles: 2p < S voids every result of
// the player (they leave the standings, their games vanish for everyone);
// 2p >= S turns every meeting still missing into a forfeit won by the
// opponent. Missing meetings between two withdrawn players score nothing.
#include <algorithm>
#include <map>
#include <set>

#include "services/tournaments/standings_internal.h"

namespace gorank::tournaments::internal {
namespace {

using PairKey = std::pair<int, int>;

PairKey KeyOf(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

bool OverTheBoard(const Game& g) {
  return g.kind == GameKind::kRegular && !g.forfeit;
}

// Applies the withdrawal rules; returns the ids voided and the games that
// count (recorded ones minus voided, plus synthetic forfeits).
std::vector<Game> ApplyWithdrawals(const Event& event, const EventResults& r,
                                   std::set<int>& voided) {
  const int n = static_cast<int>(r.entrants.size());
  const int scheduled = (n - 1) * event.format.cycles;
  std::map<int, int> played;
  for (const Game& g : r.games) {
    if (!OverTheBoard(g)) continue;
    ++played[g.black.value];
    ++played[g.white.value];
  }
  std::set<int> forfeiting;  // withdrawn, 2p >= S
  for (const Entrant& e : r.entrants) {
    if (!e.withdrawn_after_round.has_value()) continue;
    const int p = played[e.id.value];
    if (*e.withdrawn_after_round == 0 || 2 * p < scheduled) {
      voided.insert(e.id.value);
    } else {
      forfeiting.insert(e.id.value);
    }
  }
  std::vector<Game> games;
  std::map<PairKey, int> meetings;
  for (const Game& g : r.games) {
    if (g.kind != GameKind::kRegular) continue;
    if (voided.count(g.black.value) || voided.count(g.white.value)) continue;
    games.push_back(g);
    ++meetings[KeyOf(g.black.value, g.white.value)];
  }
  for (int w : forfeiting) {
    for (const Entrant& o : r.entrants) {
      const int id = o.id.value;
      if (id == w || voided.count(id) || forfeiting.count(id)) continue;
      for (int m = meetings[KeyOf(w, id)]; m < event.format.cycles; ++m) {
        Game forfeit;
        forfeit.black = EntrantId{id};
        forfeit.white = EntrantId{w};
        forfeit.outcome = Outcome::kBlackWins;
        forfeit.forfeit = true;
        forfeit.colours_known = false;
        games.push_back(forfeit);
      }
    }
  }
  return games;
}

// Gives each synthetic forfeit (round 0) of `games` the first round after
// the withdrawal in which both sides are free, else a round after the last.
void PlaceForfeits(const EventResults& r, int rounds,
                   std::vector<Game>& games) {
  std::set<std::pair<int, int>> busy;  // (round, entrant)
  for (const Game& g : games) {
    if (g.round < 1) continue;
    busy.insert({g.round, g.black.value});
    busy.insert({g.round, g.white.value});
  }
  for (const Bye& b : r.byes) busy.insert({b.round, b.entrant.value});
  std::map<int, int> after;
  for (const Entrant& e : r.entrants) {
    if (e.withdrawn_after_round) after[e.id.value] = *e.withdrawn_after_round;
  }
  for (Game& g : games) {
    if (g.round >= 1) continue;
    int round = after[g.white.value] + 1;
    while (round <= rounds && (busy.count({round, g.black.value}) ||
                               busy.count({round, g.white.value}))) {
      ++round;
    }
    while (busy.count({round, g.black.value}) ||
           busy.count({round, g.white.value})) {
      ++round;
    }
    g.round = round;
    busy.insert({round, g.black.value});
    busy.insert({round, g.white.value});
  }
}

}  // namespace

absl::StatusOr<EventResults> RoundRobinCountedResults(
    const Event& event, const EventResults& results) {
  std::set<int> voided;
  EventResults counted = results;
  counted.games = ApplyWithdrawals(event, results, voided);
  int rounds = 0;
  for (const Game& g : results.games) rounds = std::max(rounds, g.round);
  for (const Bye& b : results.byes) rounds = std::max(rounds, b.round);
  PlaceForfeits(results, rounds, counted.games);
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) counted.games.push_back(g);
  }
  std::erase_if(counted.byes, [&](const Bye& b) {
    return voided.count(b.entrant.value) > 0;
  });
  return counted;
}

absl::StatusOr<Standings> RoundRobinStandings(const Event& event,
                                              const EventResults& results) {
  Standings standings;
  std::set<int> voided;
  const std::vector<Game> games = ApplyWithdrawals(event, results, voided);
  std::map<int, int> points, warnings;
  std::set<int> played;
  for (const Game& g : games) {
    points[g.black.value] += GamePoints(g, true);
    points[g.white.value] += GamePoints(g, false);
    warnings[g.black.value] += g.black_warnings;
    warnings[g.white.value] += g.white_warnings;
    if (OverTheBoard(g)) {
      played.insert(g.black.value);
      played.insert(g.white.value);
    }
  }
  // 2 x SB_cn: a win adds 2 x the opponent's points, a draw adds them once.
  std::map<int, int64_t> rule_a2;
  for (const Game& g : games) {
    rule_a2[g.black.value] += GamePoints(g, true) * points[g.white.value];
    rule_a2[g.white.value] += GamePoints(g, false) * points[g.black.value];
  }
  standings.criteria_names = {kCritPoints, kCritRuleA, kCritWarnings};
  std::vector<ScoredRow> rows;
  for (const Entrant& e : results.entrants) {
    const int id = e.id.value;
    if (voided.count(id)) {
      standings.voided.push_back(e.id);
      continue;
    }
    ScoredRow row;
    row.row.id = id;
    row.row.name = e.DisplayName();
    const Rational a(rule_a2[id], 2);
    row.row.criteria = {points[id], a, warnings[id]};
    row.key = {points[id], a, -warnings[id]};
    if (e.withdrawn_after_round.has_value()) {
      row.row.note = "withdrew after round " +
                     std::to_string(*e.withdrawn_after_round) +
                     "; remaining games forfeited";
    }
    rows.push_back(std::move(row));
  }
  standings.entrants_played = static_cast<int>(played.size());
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               results.tie_decisions, standings);
  return standings;
}

}  // namespace gorank::tournaments::internal
