#pragma once
// A free-list allocator for coroutine frames, and for the other small blocks a
// simulation makes per rank.
//
// A simulation with a million ranks creates and destroys frames of a handful of
// sizes millions of times; recycling them by size class keeps malloc off the hot
// path and frames small. Per-rank tables (a rank's allocations, an algorithm's
// requests) are blocks of the same kind and use the same pool through Allocator:
// a rank's table then costs a free-list pop, not a malloc, and the tables of
// ranks set up one after another lie side by side. Single-threaded by design (the
// kernel has no threads).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>

namespace mpisim::sim::frame_pool {

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// Blocks currently allocated, frames and tables (for leak tests: zero after every run).
std::int64_t live_frames() noexcept;

// An allocator for std::vector of small per-rank tables.
template <typename T>
struct Allocator {
  using value_type = T;
  Allocator() = default;
  template <typename U>
  Allocator(const Allocator<U>&) noexcept {}  // NOLINT: rebinding, as std::allocator
  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(frame_pool::allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { frame_pool::deallocate(p, n * sizeof(T)); }
  template <typename U>
  friend bool operator==(const Allocator&, const Allocator<U>&) noexcept { return true; }
};

}  // namespace mpisim::sim::frame_pool
