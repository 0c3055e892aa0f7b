#pragma once
// A free-list pool for objects created and destroyed at event rate (messages,
// requests): no malloc on the hot path once warm, stable addresses.
#include <algorithm>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace mpisim::sim {

template <typename T>
class ObjectPool {
 public:
  ObjectPool() = default;
  ObjectPool(const ObjectPool&) = delete;
  ObjectPool& operator=(const ObjectPool&) = delete;

  template <typename... Args>
  T* make(Args&&... args) {
    if (free_.empty()) grow();
    T* slot = free_.back();
    free_.pop_back();
    ++live_;
    return std::construct_at(slot, std::forward<Args>(args)...);
  }

  void release(T* p) noexcept {
    std::destroy_at(p);
    free_.push_back(p);
    --live_;
  }

  std::size_t live() const noexcept { return live_; }

  // Objects still alive at the end (a run stopped by a deadlock, an error or a
  // limit leaves some) are destroyed here, so nothing they own leaks.
  ~ObjectPool() {
    if (live_ == 0) return;
    std::vector<T*> free = free_;
    std::sort(free.begin(), free.end(), std::less<T*>());  // a lookup order only
    for (const auto& block : blocks_)
      for (std::size_t i = 0; i < block.second; ++i) {
        T* p = reinterpret_cast<T*>(&block.first[i]);
        if (!std::binary_search(free.begin(), free.end(), p, std::less<T*>())) std::destroy_at(p);
      }
  }

 private:
  struct alignas(T) Slot {
    unsigned char bytes[sizeof(T)];
  };
  void grow() {
    std::size_t n = blocks_.empty() ? 64 : blocks_.size() * 64;
    if (n > 65536) n = 65536;
    blocks_.emplace_back(std::make_unique<Slot[]>(n), n);
    Slot* b = blocks_.back().first.get();
    for (std::size_t i = n; i-- > 0;) free_.push_back(reinterpret_cast<T*>(&b[i]));
  }
  std::vector<std::pair<std::unique_ptr<Slot[]>, std::size_t>> blocks_;
  std::vector<T*> free_;
  std::size_t live_ = 0;
};

}  // namespace mpisim::sim
