// Full recompute of the rating book: 1,000,000 synthetic games among 50,000
// players (fixed seed), and the incremental cost of closing one event.
// Built, not registered as a test. Run:
//   build-<x>/tests/ratings/ratings_bench --benchmark_min_time=2
#include <vector>

#include "benchmark/benchmark.h"
#include "services/ratings/rating_book.h"
#include "tests/ratings/synthetic_games.h"

namespace gorank::ratings {
namespace {

constexpr int kPlayers = 50000;
constexpr int64_t kGames = 1000000;
constexpr uint64_t kSeed = 20240601;

const std::vector<RatedGame>& Games() {
  static const auto* const kGamesData =
      new std::vector<RatedGame>(testing::SyntheticGames(kPlayers, kGames, kSeed));
  return *kGamesData;
}

// Everything a recompute does: group and sort the games into events, then
// apply them in order to an empty book.
void BM_FullRecompute(benchmark::State& state) {
  const std::vector<RatedGame>& games = Games();
  for (auto _ : state) {
    absl::StatusOr<RatingBook> book = Recompute(RatingSettings{}, games);
    if (!book.ok()) state.SkipWithError("recompute failed");
    benchmark::DoNotOptimize(book);
  }
  state.SetItemsProcessed(state.iterations() * kGames);
  state.counters["games_per_s"] =
      benchmark::Counter(static_cast<double>(kGames) * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FullRecompute)->Unit(benchmark::kMillisecond)->UseRealTime();

// Applying already grouped events only (no grouping, no copying of input).
void BM_ApplyGroupedEvents(benchmark::State& state) {
  const std::vector<RatedEvent> events = *GroupIntoEvents(Games());
  for (auto _ : state) {
    RatingBook book(RatingSettings{});
    for (const RatedEvent& e : events) {
      if (!book.ApplyEvent(e).ok()) state.SkipWithError("apply failed");
    }
    benchmark::DoNotOptimize(book);
  }
  state.counters["games_per_s"] =
      benchmark::Counter(static_cast<double>(kGames) * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ApplyGroupedEvents)->Unit(benchmark::kMillisecond)->UseRealTime();

// Closing one more 80-game event on a book holding the whole history.
void BM_IncrementalCloseEvent(benchmark::State& state) {
  const std::vector<RatedEvent> events = *GroupIntoEvents(Games());
  RatingBook base(RatingSettings{});
  for (size_t i = 0; i + 1 < events.size(); ++i) (void)base.ApplyEvent(events[i]);
  for (auto _ : state) {
    state.PauseTiming();
    RatingBook book = base;
    state.ResumeTiming();
    if (!book.ApplyEvent(events.back()).ok()) state.SkipWithError("apply failed");
    benchmark::DoNotOptimize(book);
  }
}
BENCHMARK(BM_IncrementalCloseEvent)->Unit(benchmark::kMicrosecond)->Iterations(20);

}  // namespace
}  // namespace gorank::ratings
