#pragma once
// Which bytes two arguments of one call both touch (MPI-4.1 §2.3: an OUT or INOUT
// argument may not be aliased with any other argument of the call; the collectives'
// definitions: no location on a receiver written twice).
//
// A side is a list of regions (count elements of a type at an address), for
// example the per-process blocks of a receive buffer. The check first compares the
// hulls of the two sides (the span from the lowest to the highest byte their type
// maps can touch): disjoint hulls, the common case, cost O(regions). Only where the
// hulls meet are the exact byte runs of the type maps compared (sorted, swept), so
// interleaved layouts that share no byte — a column and the column beside it — are
// not reported. Past kMaxRuns byte runs on one side the exact comparison is not
// made, and nothing is reported.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "model/mpi/memory.hpp"

namespace mpisim::mpi {

struct Region {
  Address addr;
  std::int64_t count;
  const Datatype* type;
  int block = -1;  // which block of its side (a process of the group), or -1
};

// The first bytes [first, first + bytes) found in a region of side a and one of side
// b (or, for a side with itself, in two different blocks); the blocks they belong to.
struct Overlap {
  Address first;
  std::int64_t bytes;
  int block_a, block_b;
};

inline constexpr std::size_t kMaxRuns = std::size_t{1} << 22;

std::optional<Overlap> find_overlap(std::span<const Region> a, std::span<const Region> b);
std::optional<Overlap> find_self_overlap(std::span<const Region> side);

// "bytes 8..15 of buffer 'x'": the overlap as the program names it.
std::string describe_bytes(const Memory& memory, Address first, std::int64_t bytes);

}  // namespace mpisim::mpi
