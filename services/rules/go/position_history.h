// The positions a game has passed through, for superko and cycle detection.
// A lookup is by key (the Zobrist hash, combined with the side to move for
// situational superko) and is confirmed by comparing the full board, so a
// hash collision can never produce a false repetition.
//
// Thread-compatible.
#ifndef GORANK_SERVICES_RULES_GO_POSITION_HISTORY_H_
#define GORANK_SERVICES_RULES_GO_POSITION_HISTORY_H_

#include <cstdint>
#include <vector>

namespace gorank::rules::go {

class PositionHistory {
 public:
  // Forgets everything; every later position is `cell_count` bytes. Room
  // for `expected_positions` is reserved at once (growing the snapshot
  // buffer move by move costs more than the rest of the check).
  void Reset(int cell_count, int expected_positions = 0);

  // Remembers that after move `move_number` (0 = the starting position) the
  // position was `cells` (cell_count bytes), under `key`.
  void Add(uint64_t key, const uint8_t* cells, int move_number);

  // The move number of the earliest remembered position with this key and
  // exactly these cells, or -1 when there is none.
  int Find(uint64_t key, const uint8_t* cells) const;

  // Cheap pre-test: whether any remembered position has this key (a hit
  // still needs Find() to rule out a hash collision).
  bool ContainsKey(uint64_t key) const;

  int size() const { return static_cast<int>(moves_.size()); }

 private:
  void Grow();

  int cell_count_ = 0;
  std::vector<uint8_t> snapshots_;  // size() * cell_count_ bytes
  std::vector<int> moves_;          // move number of each snapshot
  // Open addressing, linear probing; slot = entry index + 1, 0 when empty.
  std::vector<uint64_t> slot_keys_;
  std::vector<int32_t> slots_;
};

}  // namespace gorank::rules::go

#endif  // GORANK_SERVICES_RULES_GO_POSITION_HISTORY_H_
