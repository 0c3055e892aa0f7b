#pragma once
#include "model/coll/collective.hpp"

namespace mpisim::coll::allreduce {

// The allreduce algorithms work in recvbuf: the caller's contribution goes there
// first (it already is with MPI_IN_PLACE). An awaiter, not a coroutine: no frame
// per rank while a million of them copy at once.
inline Rank::Compute start_in_recvbuf(Rank& rank, const CollArgs& a) {
  if (a.in_place()) return Rank::Compute{};
  return local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype);
}

}  // namespace mpisim::coll::allreduce
