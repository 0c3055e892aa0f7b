#pragma once
// A free-list allocator for coroutine frames.
//
// A simulation with a million ranks creates and destroys frames of a handful of
// sizes millions of times; recycling them by size class keeps malloc off the hot
// path and frames small. Single-threaded by design (the kernel has no threads).
#include <cstddef>
#include <cstdint>

namespace mpisim::sim::frame_pool {

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// Frames currently allocated (for leak tests: zero after every run).
std::int64_t live_frames() noexcept;

}  // namespace mpisim::sim::frame_pool
