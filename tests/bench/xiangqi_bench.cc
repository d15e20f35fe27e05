// Xiangqi benchmarks (xiangqi_bench, built, not run as a test):
//   BM_Perft/<position>/<depth>: legal-move generation, leaf nodes per
//     second ("nodes_per_s"), bulk-counted at the last ply as perft does;
//   BM_FairyStockfishPerft/<position>/<depth>: the same perft by the
//     fairy-stockfish binary in the same run (one process repeating it to
//     about 20 M nodes, its start-up time measured with "go perft 1" and
//     subtracted), skipped when the
//     binary is absent ($FAIRY_STOCKFISH or /usr/games/fairy-stockfish);
//   BM_CheckRecord/<notation>: whole records checked per second (a 120-ply
//     game from a seeded random playout, written in ICCS, WXF or Chinese,
//     read and checked from its bytes).
// Run: build/tests/rules/xiangqi/xiangqi_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "services/rules/xiangqi/checker.h"
#include "services/rules/xiangqi/notation.h"
#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {
namespace {

// The start, two middle games and an endgame (from the perft test's table).
const char* const kFens[] = {
    kStartFen,
    "1nbakab1r/2r5c/7cn/p1p1p1p2/7R1/2P1P1P1P/P1C6/R3B4/1C7/1NBAKA1N1 w - - 0 "
    "1",
    "3a1a3/9/3n1kC1b/2p1nC2p/3R3rP/6P2/p1P1r4/B1c2R3/3NAK3/3A3N1 w - - 0 1",
    "r2k5/9/9/9/c8/9/P8/9/9/4K3R w - - 0 1",
};
const int kDepths[] = {5, 4, 4, 5};

void BM_Perft(benchmark::State& state) {
  Position p = *Position::FromFen(kFens[state.range(0)]);
  const int depth = kDepths[state.range(0)];
  uint64_t nodes = 0;
  for (auto _ : state) nodes += p.Perft(depth);
  state.counters["nodes_per_s"] = benchmark::Counter(
      static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

std::string FairyStockfish() {
  if (const char* env = std::getenv("FAIRY_STOCKFISH")) return env;
  std::ifstream f("/usr/games/fairy-stockfish");
  return f.good() ? "/usr/games/fairy-stockfish" : "";
}

// Seconds one fairy-stockfish process takes for `repeat` times "go perft
// depth" on fen; *nodes is the sum of its answers.
double RunFairy(const std::string& binary, const std::string& fen, int depth,
                int repeat, unsigned long long* nodes) {
  const std::string input =
      "/tmp/xiangqi_bench_fsf_" + std::to_string(getpid());
  {
    std::ofstream in(input);
    in << "uci\nsetoption name UCI_Variant value xiangqi\nposition fen " << fen
       << "\n";
    for (int i = 0; i < repeat; ++i) in << "go perft " << depth << "\n";
    in << "quit\n";
  }
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = popen(("'" + binary + "' < " + input).c_str(), "r");
  char line[4096];
  *nodes = 0;
  while (p && std::fgets(line, sizeof line, p)) {
    unsigned long long n = 0;
    if (std::sscanf(line, "Nodes searched: %llu", &n) == 1) *nodes += n;
  }
  if (p) pclose(p);
  std::remove(input.c_str());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

void BM_FairyStockfishPerft(benchmark::State& state) {
  const std::string binary = FairyStockfish();
  if (binary.empty()) {
    state.SkipWithError("fairy-stockfish is not installed");
    return;
  }
  const std::string fen = kFens[state.range(0)];
  const int depth = kDepths[state.range(0)];
  uint64_t nodes = 0;
  // Enough repeats for about 20 M nodes, so its start-up time is small.
  Position p = *Position::FromFen(fen);
  const uint64_t once = p.Perft(depth);
  const int repeat = static_cast<int>(std::max<uint64_t>(1, 20000000 / once));
  for (auto _ : state) {
    unsigned long long n = 0, ignored = 0;
    const double startup = RunFairy(binary, fen, 1, 1, &ignored);
    const double total = RunFairy(binary, fen, depth, repeat, &n);
    state.SetIterationTime(total - startup > 1e-6 ? total - startup : 1e-6);
    nodes += n;
  }
  state.counters["nodes_per_s"] = benchmark::Counter(
      static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FairyStockfishPerft)
    ->DenseRange(0, 3)
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// A 120-ply game in notation n from a seeded random playout.
std::string RandomRecord(Notation n) {
  std::mt19937 rng(99);
  Position p = Position::Start();
  std::string moves;
  for (int ply = 0; ply < 120; ++ply) {
    MoveList legal;
    p.GenerateLegal(&legal);
    if (legal.size == 0) break;
    // Prefer quiet moves so the game stays long and rich in pieces.
    Move m = legal.moves[rng() % legal.size];
    for (int tries = 0; tries < 4 && p.at(To(m)) != kEmpty; ++tries)
      m = legal.moves[rng() % legal.size];
    if (ply % 2 == 0) moves += std::to_string(ply / 2 + 1) + ". ";
    moves += FormatMove(p, m, n) + " ";
    p.MakeMove(m);
  }
  return "[Game \"Chinese Chess\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result "
         "\"*\"]\n" +
         moves + "*\n";
}

void BM_CheckRecord(benchmark::State& state) {
  const Notation n = static_cast<Notation>(state.range(0));
  const std::string record = RandomRecord(n);
  for (auto _ : state) {
    absl::StatusOr<FileReport> r = CheckRecord(record);
    if (!r.ok() || r->games[0].failed()) {
      state.SkipWithError("the benchmark record does not check");
      return;
    }
    benchmark::DoNotOptimize(r);
  }
  state.counters["records_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CheckRecord)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gorank::rules::xiangqi
