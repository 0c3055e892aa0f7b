#pragma once
// Bulk memory: large, long-lived arrays (per-rank state, pool chunks) on huge pages.
//
// A run with a million ranks touches gigabytes of fresh memory once; on a virtual
// machine the page faults of 4 KiB pages cost as much as the simulation itself.
// Blocks of at least kHugeBytes are mapped on their own, aligned to 2 MiB and
// advised as transparent huge pages (Linux, when the system allows it); smaller
// ones come from operator new. The contents do not depend on where memory comes
// from, so this changes speed only, never a result.
#include <cstddef>
#include <vector>

#include "sim/allocator.hpp"

namespace mpisim::sim::bulk {

inline constexpr std::size_t kHugeBytes = std::size_t{2} << 20;

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// An allocator for std::vector of per-rank state.
template <typename T>
using Allocator = FunctionAllocator<T, &bulk::allocate, &bulk::deallocate>;

template <typename T>
using Vector = std::vector<T, Allocator<T>>;

}  // namespace mpisim::sim::bulk
