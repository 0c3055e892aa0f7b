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
#include <vector>

#include "model/mpi/memory.hpp"
#include "sim/frame_pool.hpp"

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

// The buffers a rank's pending operations hold (MPI-4.1 §3.7.2, §6.12): from the
// call that starts an operation (MPI_Isend, MPI_Irecv, a nonblocking collective, a
// persistent collective's MPI_Start) until a wait or a test completes its request,
// or, for a freed request, until the operation ends. Meanwhile a buffer the
// operation reads may only be read, and one it writes not accessed at all.
//
// A flat list, in the order held: a check compares the access's hull with each
// held one (the exact byte runs only where they meet), so it costs O(n) with n
// pending operations' buffers — nothing while a rank holds none.
class HeldBuffers {
 public:
  struct Use {
    const void* op;          // the operation's request
    Address addr;
    std::int64_t count;
    TypeRef type;            // kept alive while held
    const char* call;        // "MPI_Irecv", "MPI_Iallreduce"
    const char* argument;    // "buf", "recvbuf"
    int block;               // which per-process block of the argument, or -1
    int peer, tag;           // point-to-point: the source or destination and the tag
    bool writes;             // a receive buffer (not to be read or written)
    bool point_to_point;
    Region region() const { return {addr, count, type.get(), block}; }
  };
  // Holds use.region() for use.op; a region of no data is not held.
  void hold(Use use);
  // Drops every buffer `op` holds; whether there was one.
  bool release(const void* op);
  bool empty() const { return uses_.empty(); }
  bool holds(const void* op) const;
  // The first held use an access of `r` conflicts with (writing: any use; reading:
  // a use that writes), and the bytes both touch.
  std::optional<std::pair<const Use*, Overlap>> conflict(const Region& r, bool writes) const;

 private:
  std::vector<Use, sim::frame_pool::Allocator<Use>> uses_;  // a per-rank table: in the rank's slot while it has room
};

// Throws MpiError(MPI_ERR_BUFFER) naming `argument` when an access of `r` (writing
// or only reading) touches a buffer a pending operation of `memory`'s rank holds.
// An empty `argument`: the access is not a call's but a step's of the front-end.
void check_not_held(const Memory& memory, const Region& r, bool writes, const char* argument);

}  // namespace mpisim::mpi
