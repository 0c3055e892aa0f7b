#pragma once
// Bulk memory: large, long-lived arrays (per-rank state, pool chunks) on huge pages.
//
// A run with a million ranks touches gigabytes of fresh memory once; on a virtual
// machine the page faults of 4 KiB pages cost as much as the simulation itself.
// Blocks of at least kHugeBytes are mapped on their own, aligned to 2 MiB and
// advised as transparent huge pages (Linux, when the system allows it); smaller
// ones come from operator new. The contents do not depend on where memory comes
// from, so this changes speed only, never a result.
//
// Even on huge pages, the first touch of fresh memory is paid in the kernel (it
// zeroes every page, and a virtual machine's host backs it then). prepare() hands
// that work to a helper thread, which makes a range resident ahead of the run's
// first touch, on the second core. The helper only asks the kernel to populate the
// range (madvise MADV_POPULATE_WRITE): it never reads or writes a byte of it, so it
// cannot change what the simulation sees, and the simulation itself stays on one
// thread.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/allocator.hpp"

namespace mpisim::sim::bulk {

inline constexpr std::size_t kHugeBytes = std::size_t{2} << 20;

// A block of at least `bytes`. A block of kPrepareWhole bytes or more is prepared
// whole, from its end towards its start (the arrays it serves are filled from the
// start at once: the helper and the first touch meet in the middle).
inline constexpr std::size_t kPrepareWhole = std::size_t{8} << 20;
void* allocate(std::size_t bytes);
// The same, never prepared: for pools, which prepare what they will hand out next.
void* allocate_unprepared(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

// Asks the helper to make [p, p + bytes) resident, from its start, soon. A hint:
// nothing happens where it is not supported (sanitizer builds, other systems,
// kernels before Linux 5.14) or for a range below a huge page. A range that is
// unmapped before the helper reaches it is dropped.
void prepare(void* p, std::size_t bytes) noexcept;

// Waits until the helper has nothing left to do (for tests).
void drain() noexcept;

// Zeroed blocks for data that is written soon after it is taken: a simulated
// buffer's bytes. Small blocks come from calloc. Blocks of kZeroedMin bytes and
// more are carved, in the order they are taken, out of fresh mappings that the
// helper makes resident one mapping ahead, so a run that declares buffer after
// buffer finds its pages already there instead of faulting them in on the
// simulation's core. The bytes are zero either way: a mapping's pages are the
// kernel's fresh ones, and no address is handed out twice. A block given back
// returns its pages to the system at once.
inline constexpr std::size_t kZeroedMin = std::size_t{64} << 10;
// At least one byte, all zero; throws std::bad_alloc when there is no memory.
// `prepared` false: for blocks that may be touched only in part or not at all (an
// algorithm's scratch): carved the same way from mappings that the helper leaves
// alone, so their pages cost nothing until they are touched.
void* take_zeroed(std::size_t bytes, bool prepared = true);
// Gives back a block from take_zeroed (null: nothing).
void give_zeroed(void* p) noexcept;

// An allocator for std::vector of per-rank state.
template <typename T>
using Allocator = FunctionAllocator<T, &bulk::allocate, &bulk::deallocate>;

template <typename T>
using Vector = std::vector<T, Allocator<T>>;

}  // namespace mpisim::sim::bulk
