// Benchmarks of gomoku_domain on a 100-move position: the forbidden-point
// scan of every empty point (with and without building the analyses), and
// the check of the whole 100-move record.
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "services/rules/gomoku/board.h"
#include "services/rules/gomoku/checker.h"
#include "services/rules/gomoku/forbidden.h"
#include "services/rules/gomoku/record.h"

namespace gorank::rules::gomoku {
namespace {

// Longest run of `color` through `p` (which holds `color`).
int LongestRun(const Board& board, Point p, Stone color) {
  constexpr int kStep[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  int best = 0;
  for (const auto& s : kStep) {
    int n = 1;
    for (int sign : {-1, 1}) {
      Point q{p.col + sign * s[0], p.row + sign * s[1]};
      while (q.OnBoard() && board.At(q) == color) {
        ++n;
        q = Point{q.col + sign * s[0], q.row + sign * s[1]};
      }
    }
    best = n > best ? n : best;
  }
  return best;
}

// A game-like record of `moves` moves: black opens on H8, every later move
// lands within two points of an earlier stone, and nobody makes five. The
// pseudo-random sequence is fixed, so every run measures the same position.
GameRecord GameLikeRecord(int moves) {
  uint32_t state = 20240501;
  auto next = [&state](uint32_t bound) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % bound;
  };
  Board board;
  GameRecord record;
  std::vector<Point> stones;
  while (static_cast<int>(record.moves.size()) < moves) {
    const Stone color =
        record.moves.size() % 2 == 0 ? Stone::kBlack : Stone::kWhite;
    Point p = kCenter;
    if (!stones.empty()) {
      const Point near = stones[next(static_cast<uint32_t>(stones.size()))];
      p = Point{near.col + static_cast<int>(next(5)) - 2,
                near.row + static_cast<int>(next(5)) - 2};
    }
    if (!p.OnBoard() || !board.IsEmpty(p)) continue;
    board.Set(p, color);
    if (LongestRun(board, p, color) >= 5) {
      board.Set(p, Stone::kEmpty);
      continue;
    }
    stones.push_back(p);
    record.moves.push_back(
        {static_cast<int>(record.moves.size()) + 1, color, p, {}});
  }
  return record;
}

Board FinalBoard(const GameRecord& record) {
  Board board;
  for (const RecordedMove& m : record.moves) board.Set(*m.point, m.color);
  return board;
}

void BM_FindForbiddenPoints100Moves(benchmark::State& state) {
  const Board board = FinalBoard(GameLikeRecord(100));
  size_t found = 0;
  for (auto _ : state) {
    const std::vector<MoveAnalysis> points = FindForbiddenPoints(board);
    found = points.size();
    benchmark::DoNotOptimize(points.data());
  }
  state.counters["forbidden_points"] = static_cast<double>(found);
  state.counters["empty_points"] = kNumPoints - board.StoneCount();
}
BENCHMARK(BM_FindForbiddenPoints100Moves);

void BM_IsForbiddenPointEveryEmptyPoint100Moves(benchmark::State& state) {
  const Board board = FinalBoard(GameLikeRecord(100));
  for (auto _ : state) {
    int forbidden = 0;
    for (int i = 0; i < kNumPoints; ++i) {
      const Point p = Point::FromIndex(i);
      if (board.IsEmpty(p)) forbidden += IsForbiddenPoint(board, p);
    }
    benchmark::DoNotOptimize(forbidden);
  }
}
BENCHMARK(BM_IsForbiddenPointEveryEmptyPoint100Moves);

void BM_CheckRecord100Moves(benchmark::State& state) {
  const GameRecord record = GameLikeRecord(100);
  for (auto _ : state) {
    absl::StatusOr<CheckReport> report = CheckRecord(record);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_CheckRecord100Moves);

}  // namespace
}  // namespace gorank::rules::gomoku
