// Standings benchmarks: a 1,000-player 9-round Swiss and a 64-team
// 4-board team Swiss (7 rounds). Results are generated deterministically
// (no randomness): in every round neighbours in id order play and the
// lower id wins, with a draw every seventh game.
#include <benchmark/benchmark.h>

#include "services/tournaments/standings.h"

namespace gorank::tournaments {
namespace {

Game MakeGame(int round, int a, int b, int board, int serial) {
  Game g;
  g.round = round;
  g.board = board;
  g.black = EntrantId{a};
  g.white = EntrantId{b};
  g.outcome = serial % 7 == 0 ? Outcome::kDraw : Outcome::kBlackWins;
  return g;
}

void BM_SwissStandings(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const int rounds = 9;
  Event event;
  event.name = "bench";
  event.format.kind = FormatKind::kSwiss;
  event.format.rounds = rounds;
  EventResults results;
  for (int i = 1; i <= players; ++i) {
    Entrant e;
    e.id = EntrantId{i};
    e.family_name = "P" + std::to_string(i);
    e.rank = registry::Rank::FromString("1d");
    results.entrants.push_back(e);
  }
  int serial = 0;
  for (int r = 1; r <= rounds; ++r) {
    // Pair i with i + r (mod players) over disjoint pairs: a fixed shift.
    std::vector<bool> busy(players + 1, false);
    for (int i = 1; i <= players; ++i) {
      const int j = (i - 1 + r) % players + 1;
      if (busy[i] || busy[j] || i == j) continue;
      busy[i] = busy[j] = true;
      results.games.push_back(MakeGame(r, i, j, 0, ++serial));
    }
    for (int i = 1; i <= players; ++i) {
      if (!busy[i])
        results.byes.push_back(Bye{r, EntrantId{i}, std::nullopt, 2});
    }
  }
  for (auto _ : state) {
    auto s = ComputeStandings(event, results);
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(std::to_string(results.games.size()) + " games");
}
BENCHMARK(BM_SwissStandings)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_TeamSwissStandings(benchmark::State& state) {
  const int teams = static_cast<int>(state.range(0));
  const int boards = 4, rounds = 7;
  Event event;
  event.name = "bench";
  event.format.kind = FormatKind::kTeamSwiss;
  event.format.rounds = rounds;
  event.format.boards = boards;
  EventResults results;
  for (int t = 1; t <= teams; ++t) {
    Team team;
    team.id = TeamId{t};
    team.name = "T" + std::to_string(t);
    for (int b = 0; b < boards; ++b) {
      Entrant e;
      e.id = EntrantId{(t - 1) * boards + b + 1};
      e.family_name = "P" + std::to_string(e.id.value);
      e.rank = registry::Rank::FromString("1d");
      e.team = team.id;
      team.board_order.push_back(e.id);
      results.entrants.push_back(e);
    }
    results.teams.push_back(team);
  }
  int serial = 0;
  for (int r = 1; r <= rounds; ++r) {
    for (int t = 1; t <= teams; t += 2) {
      const int u = (t - 1 + 2 * r - 1) % teams + 1;  // odd shift: t != u
      for (int b = 1; b <= boards; ++b) {
        results.games.push_back(MakeGame(r, (t - 1) * boards + b,
                                         (u - 1) * boards + b, b, ++serial));
      }
    }
  }
  for (auto _ : state) {
    auto s = ComputeStandings(event, results);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_TeamSwissStandings)->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gorank::tournaments
