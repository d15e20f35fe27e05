// Benchmarks of the Go rules check (built, not run by ctest):
//   rules_bench --benchmark_filter=.
// BM_BoardPlay:            the incremental board alone, per move (19x19).
// BM_ReplayCheckPerMove:   CheckGame on a parsed 250-move 19x19 record with
//                          situational superko (replay, superko lookups,
//                          count, result check), reported per move.
// BM_RecordThroughput:     CheckRecords on the raw bytes of the same record
//                          (charset check, parse, replay, count), per record.
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "services/rules/go/board.h"
#include "services/rules/go/check.h"
#include "services/rules/sgf/sgf.h"

namespace gorank::rules::go {
namespace {

constexpr int kMoves = 250;

// A deterministic 250-move 19x19 game of random legal (simple-ko) moves.
std::vector<Point> RandomGame() {
  std::mt19937_64 rng(42);
  Board board(19);
  std::vector<Point> moves;
  Color c = Color::kBlack;
  while (static_cast<int>(moves.size()) < kMoves) {
    Point p{static_cast<int>(rng() % 19), static_cast<int>(rng() % 19)};
    if (board.Play(c, p) != Board::PlayResult::kOk) continue;
    moves.push_back(p);
    c = Opponent(c);
  }
  return moves;
}

std::string RecordOf(const std::vector<Point>& moves) {
  std::string sgf =
      "(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[7.5]RU[Chinese]PB[Black]PW[White]RE[W+R]";
  Color c = Color::kBlack;
  for (Point p : moves) {
    sgf += ";" + std::string(ColorLetter(c)) + "[" + ToSgf(p) + "]";
    c = Opponent(c);
  }
  return sgf + ")";
}

void BM_BoardPlay(benchmark::State& state) {
  std::vector<Point> moves = RandomGame();
  for (auto _ : state) {
    Board board(19);
    Color c = Color::kBlack;
    for (Point p : moves) {
      benchmark::DoNotOptimize(board.Play(c, p));
      c = Opponent(c);
    }
    benchmark::DoNotOptimize(board.hash());
  }
  state.SetItemsProcessed(state.iterations() * kMoves);
}
BENCHMARK(BM_BoardPlay);

void BM_ReplayCheckPerMove(benchmark::State& state) {
  absl::StatusOr<sgf::Collection> c =
      sgf::ParseCollection(RecordOf(RandomGame()));
  if (!c.ok()) return state.SkipWithError("parse failed");
  CheckOptions options;  // situational superko by default
  for (auto _ : state) {
    absl::StatusOr<GameReport> r = CheckGame(c->games[0], options);
    if (!r.ok() || r->failed()) return state.SkipWithError("check failed");
    benchmark::DoNotOptimize(r->count.margin_half_points);
  }
  state.SetItemsProcessed(state.iterations() * kMoves);
}
BENCHMARK(BM_ReplayCheckPerMove);

void BM_RecordThroughput(benchmark::State& state) {
  std::string bytes = RecordOf(RandomGame());
  CheckOptions options;
  for (auto _ : state) {
    absl::StatusOr<std::vector<GameReport>> r = CheckRecords(bytes, options);
    if (!r.ok()) return state.SkipWithError("check failed");
    benchmark::DoNotOptimize(r->front().count.margin_half_points);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(bytes.size()));
}
BENCHMARK(BM_RecordThroughput);

}  // namespace
}  // namespace gorank::rules::go
