#pragma once
// Message patterns the communicator constructors use to exchange their arguments.
#include "model/mpi/runtime.hpp"

namespace mpisim::coll::comm {

inline constexpr int kTagConstruct = 16;

// Bruck's allgather of one item of `item_bytes` per member: ceil(lg p) rounds; in
// round k every member sends the min(2^k, p - 2^k) items it has to rank - 2^k and
// receives as many from rank + 2^k. Afterwards every member has heard, directly or
// through others, from every member.
sim::Task<void> allgather_items(mpi::Rank& rank, const mpi::Communicator& comm, std::int64_t item_bytes, int tag);

// A binomial broadcast of `bytes` from `root`.
sim::Task<void> bcast_pattern(mpi::Rank& rank, const mpi::Communicator& comm, int root, std::int64_t bytes, int tag);

}  // namespace mpisim::coll::comm
