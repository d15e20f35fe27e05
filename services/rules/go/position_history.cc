#include "services/rules/go/position_history.h"

#include <cstring>

namespace gorank::rules::go {
namespace {

constexpr size_t kInitialSlots = 256;

size_t SlotOf(uint64_t key, size_t mask) {
  return static_cast<size_t>((key ^ (key >> 29)) & mask);
}

}  // namespace

void PositionHistory::Reset(int cell_count, int expected_positions) {
  cell_count_ = cell_count;
  snapshots_.clear();
  moves_.clear();
  size_t wanted =
      expected_positions > 0 ? static_cast<size_t>(expected_positions) : 0;
  snapshots_.reserve(wanted * cell_count);
  moves_.reserve(wanted);
  size_t slots = kInitialSlots;
  while (slots < 2 * wanted + 2) slots *= 2;
  slot_keys_.assign(slots, 0);
  slots_.assign(slots, 0);
}

void PositionHistory::Add(uint64_t key, const uint8_t* cells, int move_number) {
  if ((moves_.size() + 1) * 2 > slots_.size()) Grow();
  int32_t entry = static_cast<int32_t>(moves_.size());
  size_t used = snapshots_.size();
  snapshots_.resize(used + cell_count_);
  std::memcpy(snapshots_.data() + used, cells, cell_count_);
  moves_.push_back(move_number);
  size_t mask = slots_.size() - 1;
  size_t slot = SlotOf(key, mask);
  while (slots_[slot] != 0) slot = (slot + 1) & mask;
  slots_[slot] = entry + 1;
  slot_keys_[slot] = key;
}

int PositionHistory::Find(uint64_t key, const uint8_t* cells) const {
  if (slots_.empty()) return -1;
  size_t mask = slots_.size() - 1;
  int best = -1;
  for (size_t slot = SlotOf(key, mask); slots_[slot] != 0;
       slot = (slot + 1) & mask) {
    if (slot_keys_[slot] != key) continue;
    int entry = slots_[slot] - 1;
    const uint8_t* snapshot =
        snapshots_.data() + static_cast<size_t>(entry) * cell_count_;
    if (std::memcmp(snapshot, cells, cell_count_) != 0) continue;  // collision
    if (best < 0 || moves_[entry] < best) best = moves_[entry];
  }
  return best;
}

bool PositionHistory::ContainsKey(uint64_t key) const {
  if (slots_.empty()) return false;
  size_t mask = slots_.size() - 1;
  for (size_t slot = SlotOf(key, mask); slots_[slot] != 0;
       slot = (slot + 1) & mask) {
    if (slot_keys_[slot] == key) return true;
  }
  return false;
}

void PositionHistory::Grow() {
  std::vector<uint64_t> old_keys = std::move(slot_keys_);
  std::vector<int32_t> old_slots = std::move(slots_);
  size_t capacity = old_slots.empty() ? kInitialSlots : old_slots.size() * 2;
  slot_keys_.assign(capacity, 0);
  slots_.assign(capacity, 0);
  size_t mask = capacity - 1;
  for (size_t i = 0; i < old_slots.size(); ++i) {
    if (old_slots[i] == 0) continue;
    size_t slot = SlotOf(old_keys[i], mask);
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = old_slots[i];
    slot_keys_[slot] = old_keys[i];
  }
}

}  // namespace gorank::rules::go
