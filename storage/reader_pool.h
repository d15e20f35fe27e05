// ReaderPool: the read-only connections a Database lends to one read at a
// time (both engines). Thread-safe.
#ifndef GORANK_STORAGE_READER_POOL_H_
#define GORANK_STORAGE_READER_POOL_H_

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "storage/database.h"

namespace gorank::storage {

template <typename Conn>
class ReaderPool {
 public:
  // Not while reads run.
  void Add(std::unique_ptr<Conn> c) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(c.get());
    all_.push_back(std::move(c));
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    free_.clear();
    all_.clear();
  }
  bool empty() const {
    std::lock_guard<std::mutex> lock(mu_);
    return all_.empty();
  }

  // Blocks until a connection is free.
  Conn* Acquire() {
    std::unique_lock<std::mutex> lock(mu_);
    if (free_.empty()) ++waits_;
    cv_.wait(lock, [&] { return !free_.empty(); });
    Conn* c = free_.back();
    free_.pop_back();
    return c;
  }
  void Release(Conn* c) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      free_.push_back(c);
    }
    cv_.notify_one();
  }

  Database::ReaderPoolStats Stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    Database::ReaderPoolStats stats;
    stats.size = static_cast<int>(all_.size());
    stats.in_use = static_cast<int>(all_.size() - free_.size());
    stats.waits = waits_;
    return stats;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int64_t waits_ = 0;
  std::vector<std::unique_ptr<Conn>> all_;
  std::vector<Conn*> free_;
};

}  // namespace gorank::storage

#endif  // GORANK_STORAGE_READER_POOL_H_
