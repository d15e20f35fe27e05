// The Go board of the rules engine: stones, chains and liberties kept up to
// date incrementally, captures, suicide and immediate-ko detection, and a
// Zobrist hash of the stones. Knows nothing of turns, records or scoring.
//
// Chains are circular stone lists with one representative per chain; each
// chain keeps pseudo-liberties (empty neighbours counted once per adjacent
// stone) with their sum and sum of squares, so "no liberties" and "exactly one
// liberty, at point p" are O(1) questions. The Zobrist table is generated
// from a fixed seed: hashes are the same in every run and process.
//
// Value type, ~13 KiB; thread-compatible (const methods may be called
// concurrently, mutation needs exclusive access).
#ifndef GORANK_SERVICES_RULES_GO_BOARD_H_
#define GORANK_SERVICES_RULES_GO_BOARD_H_

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "services/rules/go/types.h"

namespace gorank::rules::go {

class Board {
 public:
  // Padded layout: (size + 2)^2 cells, a border of kBorder around the board.
  static constexpr int kMaxCells = (kMaxBoardSize + 2) * (kMaxBoardSize + 2);
  static constexpr uint8_t kBorder = 3;

  enum class PlayResult {
    kOk,
    kOccupied,     // the point holds a stone
    kKoRecapture,  // retakes, at once, the single stone that just took a ko
    kSuicide,      // leaves its own chain without liberties, capturing nothing
  };

  // An empty board. REQUIRES: kMinBoardSize <= size <= kMaxBoardSize.
  explicit Board(int size);

  int size() const { return size_; }
  bool OnBoard(Point p) const {
    return p.col >= 0 && p.row >= 0 && p.col < size_ && p.row < size_;
  }
  // REQUIRES: OnBoard(p).
  Color At(Point p) const { return static_cast<Color>(cells_[Index(p)]); }

  // Whether `color` may place a stone at `p` (occupied point first, then the
  // immediate ko recapture, then suicide - captures are made before the
  // suicide test, so a move that captures is never suicide). Superko is not
  // the board's business (see PositionHistory). REQUIRES: OnBoard(p), color
  // is a stone colour.
  PlayResult Check(Color color, Point p) const;
  // Check() and, when kOk, places the stone and removes captured chains.
  // Otherwise the board is unchanged.
  PlayResult Play(Color color, Point p);
  // A pass: the stones stay, the ko ban lapses.
  void Pass() { ko_ = -1; }

  // The hash, and the cells, the board would have after Play(color, p).
  // REQUIRES: Check(color, p) == kOk. CellsAfter writes cell_count() bytes.
  uint64_t HashAfter(Color color, Point p) const;
  void CellsAfter(Color color, Point p, uint8_t* out) const;

  // Setup (SGF AB/AW/AE): sets each point to the colour given (kEmpty
  // removes), without captures, then rebuilds chains. Any position is
  // accepted, even chains without liberties. Clears the ko ban.
  // REQUIRES: every point OnBoard.
  void Setup(const std::vector<std::pair<Point, Color>>& changes);

  // Zobrist hash of the stones (0 for the empty board).
  uint64_t hash() const { return hash_; }
  // The padded cell array, for exact position comparison.
  const uint8_t* cells() const { return cells_.data(); }
  int cell_count() const { return stride_ * stride_; }
  // Stones `by` has captured so far (setup removals not included).
  int captures(Color by) const { return captures_[static_cast<int>(by)]; }
  // The point where the opponent of the last mover may not retake at once.
  std::optional<Point> ko_point() const;
  // Every stone of the chain through `p`; empty when `p` is empty.
  std::vector<Point> ChainAt(Point p) const;
  // Number of distinct liberties of the chain through `p` (0 when empty).
  int LibertiesAt(Point p) const;

  // Index <-> point in the padded layout.
  int Index(Point p) const { return (p.row + 1) * stride_ + p.col + 1; }
  Point PointOf(int index) const {
    return Point{index % stride_ - 1, index / stride_ - 1};
  }

 private:
  bool IsSuicide(uint8_t color, int index) const;
  // True when chain `head` has exactly one liberty and it is `index`.
  bool OnlyLibertyIs(int head, int index) const {
    int64_t n = libs_[head];
    return n > 0 && lib_sum_[head] == n * index &&
           n * lib_sq_[head] == lib_sum_[head] * lib_sum_[head];
  }
  void AddLiberty(int head, int index) {
    ++libs_[head];
    lib_sum_[head] += index;
    lib_sq_[head] += static_cast<int64_t>(index) * index;
  }
  void RemoveLiberty(int head, int index) {
    --libs_[head];
    lib_sum_[head] -= index;
    lib_sq_[head] -= static_cast<int64_t>(index) * index;
  }
  void Merge(int a, int b);
  int RemoveChain(int head);
  void Rebuild();

  int size_;
  int stride_;
  std::array<int, 4> offsets_;
  uint64_t hash_ = 0;
  int ko_ = -1;           // padded index, -1 when none
  uint8_t ko_color_ = 0;  // the colour that may not retake at ko_
  std::array<int, 3> captures_{};
  std::array<uint8_t, kMaxCells> cells_;
  std::array<int16_t, kMaxCells> head_;
  std::array<int16_t, kMaxCells> next_;
  std::array<int16_t, kMaxCells> stones_;
  std::array<int16_t, kMaxCells> libs_;
  std::array<int64_t, kMaxCells> lib_sum_;
  std::array<int64_t, kMaxCells> lib_sq_;
};

// The fixed Zobrist key of a stone of `color` at padded index `index`.
uint64_t ZobristKey(Color color, int index);

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_BOARD_H_
