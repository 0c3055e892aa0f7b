#pragma once
// A free-list allocator for coroutine frames, and for the other small blocks a
// simulation makes per rank.
//
// A simulation with a million ranks creates and destroys frames of a handful of
// sizes millions of times; recycling them by size class keeps malloc off the hot
// path and frames small. Per-rank tables (a rank's allocations, an algorithm's
// requests) are blocks of the same kind and use the same pool through Allocator:
// a rank's table then costs a free-list pop, not a malloc, and the tables of
// ranks set up one after another lie side by side. An ArenaSet (below) puts the
// blocks of one owner beside that owner's own state instead, while it has room.
// Single-threaded by design (the simulation runs on one thread; bulk's helper
// only prepares memory).
#include <bit>
#include <cstddef>
#include <cstdint>

#include "sim/allocator.hpp"

namespace mpisim::sim::frame_pool {

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;
// A block from the pool even while an arena is entered: for what an owner keeps
// but seldom touches, so that its arena keeps room for the blocks it works on.
void* allocate_pooled(std::size_t bytes);

// Blocks currently allocated, frames and tables (for leak tests: zero after every run).
std::int64_t live_frames() noexcept;

// Slots with arenas: owner state and the blocks that owner makes, side by side.
//
// A million ranks, each visited in an order that jumps across them, pay for every
// separate place their state lies in (on a virtual machine, a page walk each). An
// ArenaSet lays out `count` slots of `stride` bytes: the first `head` bytes of slot
// i are its owner's (placed there by the caller), the rest is owner i's arena
// (up to 64 granules of 16 bytes; the stride is a multiple of 16).
// While enter(i) is in force, allocate() takes new blocks from arena i, as a stack
// (a block is reclaimed when every block above it is freed too), and from the
// pool once the arena is full: where a block lies never changes what it holds.
// A block may be freed at any time, under any arena; an ArenaSet destroyed while
// blocks of its arenas live keeps their memory until the last is freed.
class ArenaSet {
 public:
  ArenaSet(std::uint32_t count, std::size_t stride, std::size_t head);
  ~ArenaSet();
  ArenaSet(const ArenaSet&) = delete;
  ArenaSet& operator=(const ArenaSet&) = delete;

  void* slot(std::uint32_t i) const noexcept { return base_ + std::size_t{i} * stride_; }
  std::uint32_t count() const noexcept { return count_; }
  // New blocks come from arena i, while it has room (until another enter or leave).
  void enter(std::uint32_t i) noexcept;
  void leave() noexcept;

  // A block of arena i, marked (for blocks its owner must find again, as objects
  // to destroy at the end), or null when the arena has no room. Freed by
  // deallocate(), which clears the mark.
  void* allocate_marked(std::uint32_t i, std::size_t bytes) noexcept;
  bool owns(const void* p) const noexcept {
    return reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(base_) < std::size_t{count_} * stride_;
  }
  // The marked blocks still allocated, in slot and address order.
  template <typename F>
  void for_each_marked(F&& f) const {
    if (!any_marked()) return;
    for (std::uint32_t i = 0; i < count_; ++i)
      for (std::uint64_t m = marks(i); m != 0; m &= m - 1) f(block(i, static_cast<std::size_t>(std::countr_zero(m))));
  }

  struct Region;

 private:
  bool any_marked() const noexcept;
  std::uint64_t* meta_of(std::uint32_t i) const noexcept;
  std::uint64_t marks(std::uint32_t i) const noexcept;
  void* block(std::uint32_t i, std::size_t granule) const noexcept;

  char* base_ = nullptr;
  std::size_t stride_;
  std::uint32_t count_;
  Region* region_;
};

// An allocator for std::vector of small per-rank tables.
template <typename T>
using Allocator = FunctionAllocator<T, &frame_pool::allocate, &frame_pool::deallocate>;
// The same for tables that stay out of the arenas (allocate_pooled).
template <typename T>
using PooledAllocator = FunctionAllocator<T, &frame_pool::allocate_pooled, &frame_pool::deallocate>;

// While one lives, allocate() takes no block from the entered arena (as
// allocate_pooled); the arena is in force again when it goes. For coroutine
// frames, whose allocation cannot name a function of its own.
class OutsideArena {
 public:
  OutsideArena() noexcept;
  ~OutsideArena();
  OutsideArena(const OutsideArena&) = delete;
  OutsideArena& operator=(const OutsideArena&) = delete;

 private:
  ArenaSet::Region* region_;
  std::uint64_t* current_;
};

}  // namespace mpisim::sim::frame_pool
