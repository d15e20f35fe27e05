// Pairing benchmark (issue #20: one round of 1,000 players within 1 s on
// the 2-core machine): a 1,000-player Swiss and a 1,000-player McMahon
// event paired at round 5, after four rounds paired by the engine itself
// with deterministic results (the stronger player wins, every ninth game
// goes the other way, every 23rd is a draw), with some players unranked
// and three clubs avoided for the first two rounds.
#include <benchmark/benchmark.h>

#include <string>

#include "services/tournaments/pairing.h"

namespace gorank::tournaments {
namespace {

struct Setup {
  Event event;
  EventResults results;
};

Setup MakeEvent(int players, bool mcmahon, int rounds_played) {
  Setup s;
  s.event.name = "bench";
  s.event.format.kind = FormatKind::kSwiss;
  s.event.format.rounds = 9;
  s.event.pairing.seed = 20261202;
  s.event.pairing.same_club_rounds = 2;
  if (mcmahon) {
    s.event.pairing.system = PairingSystem::kMcMahon;
    s.event.pairing.mcmahon_bar = registry::Rank::FromString("3d");
    s.event.pairing.mcmahon_floor = registry::Rank::FromString("20k");
  }
  for (int i = 1; i <= players; ++i) {
    Entrant e;
    e.id = EntrantId{i};
    e.family_name = "P" + std::to_string(i);
    const int level = (i * 37) % 35;  // 0..34 -> 5d..30k
    e.rank =
        registry::Rank::FromString(level < 5 ? std::to_string(5 - level) + "d"
                                             : std::to_string(level - 4) + "k");
    e.club = "C" + std::to_string(i % 3);
    e.country = "CN";
    s.results.entrants.push_back(e);
  }
  int serial = 0;
  for (int round = 1; round <= rounds_played; ++round) {
    absl::StatusOr<RoundPairing> p = PairRound(s.event, s.results, round, {});
    if (!p.ok()) abort();
    for (const PairedBoard& b : p->boards) {
      Game g;
      g.round = round;
      g.white = b.white;
      g.black = b.black;
      g.handicap = b.handicap;
      ++serial;
      const auto& w = s.results.entrants[b.white.value - 1];
      const auto& k = s.results.entrants[b.black.value - 1];
      const bool white_stronger = *w.rank > *k.rank;
      const bool upset = serial % 9 == 0;
      g.outcome = serial % 23 == 0          ? Outcome::kDraw
                  : white_stronger != upset ? Outcome::kWhiteWins
                                            : Outcome::kBlackWins;
      s.results.games.push_back(g);
    }
    for (const Bye& b : p->byes) s.results.byes.push_back(b);
  }
  return s;
}

void BM_PairRound5(benchmark::State& state) {
  const Setup s =
      MakeEvent(static_cast<int>(state.range(0)), state.range(1) != 0, 4);
  for (auto _ : state) {
    absl::StatusOr<RoundPairing> p = PairRound(s.event, s.results, 5, {});
    benchmark::DoNotOptimize(p);
    if (!p.ok()) state.SkipWithError(p.status().ToString().c_str());
  }
}
BENCHMARK(BM_PairRound5)
    ->ArgNames({"players", "mcmahon"})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({200, 0})
    ->Unit(benchmark::kMillisecond);

void BM_PairRound1(benchmark::State& state) {
  const Setup s = MakeEvent(static_cast<int>(state.range(0)), false, 0);
  for (auto _ : state) {
    absl::StatusOr<RoundPairing> p = PairRound(s.event, s.results, 1, {});
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_PairRound1)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gorank::tournaments
