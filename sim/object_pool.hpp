#pragma once
// A free-list pool for objects created and destroyed at event rate (messages,
// requests): no malloc on the hot path once warm, stable addresses. Blocks come
// from bulk memory (huge pages when large); a free slot holds the free list's link.
// In a large block the slots ahead of the ones handed out are prepared (made
// resident by bulk's helper) a few megabytes at a time.
#include <algorithm>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "sim/bulk.hpp"

namespace mpisim::sim {

template <typename T>
class ObjectPool {
 public:
  ObjectPool() = default;
  ObjectPool(const ObjectPool&) = delete;
  ObjectPool& operator=(const ObjectPool&) = delete;

  template <typename... Args>
  T* make(Args&&... args) {
    Slot* slot = free_;
    if (slot != nullptr) {
      free_ = slot->next;
    } else {
      if (fresh_ == fresh_end_) grow();
      slot = fresh_++;
    }
    ++live_;
    return std::construct_at(reinterpret_cast<T*>(slot->bytes), std::forward<Args>(args)...);
  }

  void release(T* p) noexcept {
    std::destroy_at(p);
    Slot* slot = std::launder(reinterpret_cast<Slot*>(p));
    slot->next = free_;
    free_ = slot;
    --live_;
  }

  std::size_t live() const noexcept { return live_; }

  // Objects still alive at the end (a run stopped by a deadlock, an error or a
  // limit leaves some) are destroyed here, so nothing they own leaks.
  ~ObjectPool() {
    destroy_live();
    for (const Block& b : blocks_) bulk::deallocate(b.slots, b.count * sizeof(Slot));
  }

 private:
  union Slot {
    Slot* next;  // while free
    alignas(T) unsigned char bytes[sizeof(T)];
  };
  struct Block {
    Slot* slots;
    std::size_t count;
  };

  // Blocks double (up to 64 MiB), so a pool of millions of objects lies in a few
  // large blocks: huge pages, few page faults. A new block's slots are handed out
  // in order as they are needed, so the memory it holds is touched only then. In a
  // block of kPrepareWhole bytes or more they are handed out a step (a huge page's
  // worth) at a time, and entering a step prepares the one two steps ahead: what
  // is prepared is what will soon be touched, and no more.
  void grow() {
    constexpr std::size_t kStep = std::max<std::size_t>(1, bulk::kHugeBytes / sizeof(Slot));
    if (fresh_end_ != block_end_) {  // the next step of the same block
      fresh_end_ = std::min(block_end_, fresh_ + kStep);
      if (block_end_ - fresh_end_ > static_cast<std::ptrdiff_t>(kStep))
        bulk::prepare(fresh_end_ + kStep, std::min<std::size_t>(kStep, block_end_ - fresh_end_ - kStep) * sizeof(Slot));
      return;
    }
    constexpr std::size_t kMaxBlock = std::max<std::size_t>(64, (std::size_t{64} << 20) / sizeof(Slot));
    const std::size_t n = blocks_.empty() ? 64 : std::min(2 * blocks_.back().count, kMaxBlock);
    Slot* b = static_cast<Slot*>(bulk::allocate_unprepared(n * sizeof(Slot)));
    blocks_.push_back({b, n});
    fresh_ = b;
    block_end_ = b + n;
    if (n * sizeof(Slot) < bulk::kPrepareWhole) {
      fresh_end_ = block_end_;
      return;
    }
    fresh_end_ = b + kStep;
    bulk::prepare(fresh_end_, 2 * kStep * sizeof(Slot));
  }

 public:
  // Calls f on every object alive, in the order of the pool's slots (the same
  // for the same sequence of makes and releases).
  template <typename F>
  void for_each_live(F&& f) const {
    if (live_ == 0) return;
    std::vector<Slot*> free;
    for (Slot* s = free_; s != nullptr; s = s->next) free.push_back(s);
    std::sort(free.begin(), free.end(), std::less<Slot*>());  // a lookup order only
    for (const Block& block : blocks_)
      for (std::size_t i = 0; i < block.count; ++i) {
        Slot* s = &block.slots[i];
        if (&block == &blocks_.back() && s == fresh_) break;
        if (!std::binary_search(free.begin(), free.end(), s, std::less<Slot*>()))
          f(*reinterpret_cast<const T*>(s->bytes));
      }
  }

 private:
  void destroy_live() {
    if (live_ == 0) return;
    std::vector<Slot*> free;
    for (Slot* s = free_; s != nullptr; s = s->next) free.push_back(s);
    std::sort(free.begin(), free.end(), std::less<Slot*>());  // a lookup order only
    for (const Block& block : blocks_)
      for (std::size_t i = 0; i < block.count; ++i) {
        Slot* s = &block.slots[i];
        if (&block == &blocks_.back() && s == fresh_) break;  // the newest block's slots from here on were never used
        if (!std::binary_search(free.begin(), free.end(), s, std::less<Slot*>()))
          std::destroy_at(reinterpret_cast<T*>(s->bytes));
      }
  }

  std::vector<Block> blocks_;
  Slot* free_ = nullptr;       // released slots
  Slot* fresh_ = nullptr;      // the newest block's slots never handed out: [fresh_, block_end_)
  Slot* fresh_end_ = nullptr;  // where the step being handed out ends
  Slot* block_end_ = nullptr;
  std::size_t live_ = 0;
};

}  // namespace mpisim::sim
