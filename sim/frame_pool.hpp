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
// simulation runs on one thread; bulk's helper only prepares memory).
#include <cstddef>
#include <cstdint>

#include "sim/allocator.hpp"

namespace mpisim::sim::frame_pool {

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// Blocks currently allocated, frames and tables (for leak tests: zero after every run).
std::int64_t live_frames() noexcept;

// An allocator for std::vector of small per-rank tables.
template <typename T>
using Allocator = FunctionAllocator<T, &frame_pool::allocate, &frame_pool::deallocate>;

}  // namespace mpisim::sim::frame_pool
