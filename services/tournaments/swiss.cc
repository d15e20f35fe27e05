// Individual Swiss standings (SPEC section 4, readings taken).
//   P     points: 2 win, 1 draw, 0 loss; a bye scores its points (2 by
//         default); forfeits score like games; absent rounds score 0.
//   SOS   sum over the rounds of the opponent's score: P for an entrant
//         who stayed, the withdrawn-player score (P + A x unplayed, exact)
//         for one who withdrew; a bye adds a virtual opponent of R points;
//         an absent round adds nothing; forfeits and double forfeits count
//         like a game against that opponent.
//   total P + SOS/R - R, compared as K = P*R + SOS - R*R (exact).
// Ranking: K, then fewer warnings (the literal rule), or P, K, warnings
// when the event chose "points first". Played results of a withdrawn
// player stand.
#include <map>
#include <set>

#include "services/tournaments/standings_internal.h"

namespace gorank::tournaments::internal {

absl::StatusOr<Standings> SwissStandings(const Event& event,
                                         const EventResults& results) {
  const int rounds = event.format.rounds;
  std::map<int, int> points, warnings, played_before_withdrawal;
  std::map<int, const Entrant*> by_id;
  for (const Entrant& e : results.entrants) by_id[e.id.value] = &e;
  std::set<int> played;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    points[g.black.value] += GamePoints(g, true);
    points[g.white.value] += GamePoints(g, false);
    warnings[g.black.value] += g.black_warnings;
    warnings[g.white.value] += g.white_warnings;
    if (g.forfeit) continue;
    for (EntrantId side : {g.black, g.white}) {
      played.insert(side.value);
      const auto& w = by_id[side.value]->withdrawn_after_round;
      if (!w.has_value() || g.round <= *w) {
        ++played_before_withdrawal[side.value];
      }
    }
  }
  for (const Bye& b : results.byes) points[b.entrant.value] += b.points;

  // The score each entrant contributes to its opponents' SOS.
  std::map<int, Rational> score_for_opponents;
  for (const Entrant& e : results.entrants) {
    const int id = e.id.value;
    score_for_opponents[id] =
        e.withdrawn_after_round.has_value()
            ? WithdrawnScore(points[id], played_before_withdrawal[id], rounds,
                             *e.withdrawn_after_round)
            : Rational(points[id]);
  }
  std::map<int, Rational> sos;
  for (const Game& g : results.games) {
    if (g.kind != GameKind::kRegular) continue;
    sos[g.black.value] += score_for_opponents[g.white.value];
    sos[g.white.value] += score_for_opponents[g.black.value];
  }
  for (const Bye& b : results.byes) {
    if (b.points > 0) sos[b.entrant.value] += Rational(rounds);
  }

  Standings standings;
  standings.criteria_names = {kCritPoints, kCritSos, kCritTotal, kCritWarnings};
  const bool points_first =
      event.format.swiss_ranking == SwissRanking::kPointsFirst;
  std::vector<ScoredRow> rows;
  for (const Entrant& e : results.entrants) {
    const int id = e.id.value;
    if (e.withdrawn_after_round == 0) {  // a redraw: never in the event
      standings.voided.push_back(e.id);
      continue;
    }
    const Rational k = Rational(points[id]) * Rational(rounds) + sos[id] -
                       Rational(rounds) * Rational(rounds);
    ScoredRow row;
    row.row.id = id;
    row.row.name = e.DisplayName();
    row.row.criteria = {points[id], sos[id], k / Rational(rounds),
                        warnings[id]};
    if (points_first) {
      row.key = {points[id], k, -warnings[id]};
    } else {
      row.key = {k, -warnings[id]};
    }
    if (e.withdrawn_after_round.has_value()) {
      row.row.note = "withdrew after round " +
                     std::to_string(*e.withdrawn_after_round) + "; counts " +
                     score_for_opponents[id].ToString() + " in opponents' SOS";
    }
    rows.push_back(std::move(row));
  }
  standings.entrants_played = static_cast<int>(played.size());
  NumberPlaces(std::move(rows), event.shared_places_allowed,
               results.tie_decisions, standings);
  return standings;
}

}  // namespace gorank::tournaments::internal
