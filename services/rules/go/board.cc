#include "services/rules/go/board.h"

#include <cstdlib>
#include <cstring>

namespace gorank::rules::go {
namespace {

constexpr uint8_t kEmptyCell = 0;

struct ZobristTable {
  uint64_t keys[3][Board::kMaxCells];
  ZobristTable() {
    uint64_t state = 0x9E3779B97F4A7C15ULL ^ 20020101ULL;  // fixed seed
    for (auto& row : keys) {
      for (uint64_t& key : row) {
        // splitmix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        key = z ^ (z >> 31);
      }
    }
  }
};

const ZobristTable& Table() {
  static const ZobristTable* table = new ZobristTable();
  return *table;
}

}  // namespace

uint64_t ZobristKey(Color color, int index) {
  return Table().keys[static_cast<int>(color)][index];
}

Board::Board(int size) : size_(size), stride_(size + 2) {
  if (size < kMinBoardSize || size > kMaxBoardSize) std::abort();
  offsets_ = {1, -1, stride_, -stride_};
  cells_.fill(kBorder);
  for (int row = 0; row < size_; ++row) {
    for (int col = 0; col < size_; ++col)
      cells_[Index(Point{col, row})] = kEmptyCell;
  }
  Table();  // build the keys before any concurrent use
}

bool Board::IsSuicide(uint8_t color, int index) const {
  for (int off : offsets_) {
    int n = index + off;
    uint8_t v = cells_[n];
    if (v == kEmptyCell) return false;
    if (v == kBorder) continue;
    bool last_liberty = OnlyLibertyIs(head_[n], index);
    if (v == color ? !last_liberty : last_liberty) return false;
  }
  return true;
}

Board::PlayResult Board::Check(Color color, Point p) const {
  int index = Index(p);
  if (cells_[index] != kEmptyCell) return PlayResult::kOccupied;
  uint8_t c = static_cast<uint8_t>(color);
  if (index == ko_ && c == ko_color_) return PlayResult::kKoRecapture;
  if (IsSuicide(c, index)) return PlayResult::kSuicide;
  return PlayResult::kOk;
}

Board::PlayResult Board::Play(Color color, Point p) {
  PlayResult result = Check(color, p);
  if (result != PlayResult::kOk) return result;
  const int index = Index(p);
  const uint8_t c = static_cast<uint8_t>(color);
  const uint8_t opp = static_cast<uint8_t>(Opponent(color));
  cells_[index] = c;
  hash_ ^= ZobristKey(color, index);
  head_[index] = next_[index] = static_cast<int16_t>(index);
  stones_[index] = 1;
  libs_[index] = 0;
  lib_sum_[index] = lib_sq_[index] = 0;
  for (int off : offsets_) {
    int n = index + off;
    uint8_t v = cells_[n];
    if (v == kEmptyCell) {
      AddLiberty(index, n);
    } else if (v != kBorder) {
      RemoveLiberty(head_[n], index);
    }
  }
  for (int off : offsets_) {
    int n = index + off;
    if (cells_[n] == c && head_[n] != head_[index])
      Merge(head_[index], head_[n]);
  }
  int captured = 0;
  int captured_at = -1;
  for (int off : offsets_) {
    int n = index + off;
    if (cells_[n] == opp && libs_[head_[n]] == 0) {
      captured += RemoveChain(head_[n]);
      captured_at = n;
    }
  }
  captures_[c] += captured;
  int head = head_[index];
  if (captured == 1 && stones_[head] == 1 && libs_[head] == 1) {
    ko_ = captured_at;
    ko_color_ = opp;
  } else {
    ko_ = -1;
  }
  return PlayResult::kOk;
}

void Board::Merge(int a, int b) {
  if (stones_[a] < stones_[b]) std::swap(a, b);
  // Relabel b's ring to a, then splice the two rings.
  int s = b;
  do {
    head_[s] = static_cast<int16_t>(a);
    s = next_[s];
  } while (s != b);
  std::swap(next_[a], next_[b]);
  stones_[a] += stones_[b];
  libs_[a] += libs_[b];
  lib_sum_[a] += lib_sum_[b];
  lib_sq_[a] += lib_sq_[b];
}

int Board::RemoveChain(int head) {
  const Color color = static_cast<Color>(cells_[head]);
  int count = 0;
  int s = head;
  do {
    cells_[s] = kEmptyCell;
    hash_ ^= ZobristKey(color, s);
    ++count;
    s = next_[s];
  } while (s != head);
  do {
    for (int off : offsets_) {
      int n = s + off;
      uint8_t v = cells_[n];
      if (v != kEmptyCell && v != kBorder) AddLiberty(head_[n], s);
    }
    s = next_[s];
  } while (s != head);
  return count;
}

uint64_t Board::HashAfter(Color color, Point p) const {
  const int index = Index(p);
  const uint8_t opp = static_cast<uint8_t>(Opponent(color));
  uint64_t h = hash_ ^ ZobristKey(color, index);
  int seen[4];
  int seen_count = 0;
  for (int off : offsets_) {
    int n = index + off;
    if (cells_[n] != opp || !OnlyLibertyIs(head_[n], index)) continue;
    int head = head_[n];
    bool dup = false;
    for (int k = 0; k < seen_count; ++k) dup = dup || seen[k] == head;
    if (dup) continue;
    seen[seen_count++] = head;
    int s = head;
    do {
      h ^= ZobristKey(Opponent(color), s);
      s = next_[s];
    } while (s != head);
  }
  return h;
}

void Board::CellsAfter(Color color, Point p, uint8_t* out) const {
  const int index = Index(p);
  const uint8_t opp = static_cast<uint8_t>(Opponent(color));
  std::memcpy(out, cells_.data(), cell_count());
  out[index] = static_cast<uint8_t>(color);
  for (int off : offsets_) {
    int n = index + off;
    if (cells_[n] != opp || !OnlyLibertyIs(head_[n], index)) continue;
    int s = head_[n];
    do {
      out[s] = kEmptyCell;
      s = next_[s];
    } while (s != head_[n]);
  }
}

void Board::Setup(const std::vector<std::pair<Point, Color>>& changes) {
  for (const auto& [p, color] : changes)
    cells_[Index(p)] = static_cast<uint8_t>(color);
  Rebuild();
}

void Board::Rebuild() {
  hash_ = 0;
  ko_ = -1;
  for (int row = 0; row < size_; ++row) {
    for (int col = 0; col < size_; ++col) {
      int i = Index(Point{col, row});
      if (cells_[i] == kEmptyCell) continue;
      hash_ ^= ZobristKey(static_cast<Color>(cells_[i]), i);
      head_[i] = next_[i] = static_cast<int16_t>(i);
      stones_[i] = 1;
      libs_[i] = 0;
      lib_sum_[i] = lib_sq_[i] = 0;
    }
  }
  // Pass 1: every adjacency to an empty point is a pseudo-liberty of the
  // single-stone chain; pass 2 merges neighbours of one colour.
  for (int row = 0; row < size_; ++row) {
    for (int col = 0; col < size_; ++col) {
      int i = Index(Point{col, row});
      if (cells_[i] == kEmptyCell) continue;
      for (int off : offsets_) {
        if (cells_[i + off] == kEmptyCell) AddLiberty(i, i + off);
      }
    }
  }
  for (int row = 0; row < size_; ++row) {
    for (int col = 0; col < size_; ++col) {
      int i = Index(Point{col, row});
      if (cells_[i] == kEmptyCell) continue;
      for (int off : offsets_) {
        int n = i + off;
        if (cells_[n] == cells_[i] && head_[n] != head_[i])
          Merge(head_[i], head_[n]);
      }
    }
  }
}

std::optional<Point> Board::ko_point() const {
  if (ko_ < 0) return std::nullopt;
  return PointOf(ko_);
}

std::vector<Point> Board::ChainAt(Point p) const {
  std::vector<Point> out;
  int index = Index(p);
  if (cells_[index] == kEmptyCell) return out;
  int s = index;
  do {
    out.push_back(PointOf(s));
    s = next_[s];
  } while (s != index);
  return out;
}

int Board::LibertiesAt(Point p) const {
  int index = Index(p);
  if (cells_[index] == kEmptyCell) return 0;
  std::vector<int> seen;
  int s = index;
  do {
    for (int off : offsets_) {
      int n = s + off;
      if (cells_[n] != kEmptyCell) continue;
      bool dup = false;
      for (int x : seen) dup = dup || x == n;
      if (!dup) seen.push_back(n);
    }
    s = next_[s];
  } while (s != index);
  return static_cast<int>(seen.size());
}

}  // namespace gorank::rules::go
