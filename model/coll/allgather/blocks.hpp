#pragma once
// The receive buffer of an allgather(v) as blocks in rank order, which the
// algorithms move in ranges.
#include "model/coll/collective.hpp"

namespace mpisim::coll::allgather {

// Blocks [lo, hi) of recvbuf as one (address, count, type): a run of recvtype
// when the blocks lie back to back (MPI_Allgather), else an hindexed type over
// them (MPI_Allgatherv with any displs), so a range is always one message.
struct Span {
  Address at;
  std::int64_t count;
  TypeRef type;
};
Span recv_blocks(const CollArgs& a, int lo, int hi);

// Puts the caller's own contribution in its block (nothing to do with MPI_IN_PLACE).
Task<void> place_own(Rank& rank, const CollArgs& a);

}  // namespace mpisim::coll::allgather
