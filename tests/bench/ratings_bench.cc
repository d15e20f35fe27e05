// Full recompute of the rating book: 1,000,000 synthetic games among 50,000
// players (fixed seed), and the incremental cost of closing one event.
// Built, not registered as a test. Run:
//   build-<x>/tests/ratings/ratings_bench --benchmark_min_time=2
#include <memory>
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
  static const auto* const kGamesData = new std::vector<RatedGame>(
      testing::SyntheticGames(kPlayers, kGames, kSeed));
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

// Closing events one at a time on a book holding the whole earlier history:
// the last 100 events (80 games each), applied incrementally. The copy and
// destruction of the book are outside the timing.
void BM_IncrementalCloseEvents(benchmark::State& state) {
  constexpr size_t kLast = 100;
  const std::vector<RatedEvent> events = *GroupIntoEvents(Games());
  RatingBook base(RatingSettings{});
  for (size_t i = 0; i + kLast < events.size(); ++i)
    (void)base.ApplyEvent(events[i]);
  for (auto _ : state) {
    state.PauseTiming();
    auto book = std::make_unique<RatingBook>(base);
    state.ResumeTiming();
    for (size_t i = events.size() - kLast; i < events.size(); ++i) {
      if (!book->ApplyEvent(events[i]).ok())
        state.SkipWithError("apply failed");
    }
    state.PauseTiming();
    book.reset();
    state.ResumeTiming();
  }
  state.counters["us_per_event"] = benchmark::Counter(
      static_cast<double>(kLast) * state.iterations(),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_IncrementalCloseEvents)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

}  // namespace
}  // namespace gorank::ratings
