// Barrier on an intercommunicator, as MPICH builds it: a barrier in each group,
// then the two leaders (local rank 0) exchange an empty message, then a second
// barrier in each group releases the members.
//
// No process leaves before every process of both groups has entered: a leader
// sends only after its own group's barrier, and its members leave only after the
// leader has heard from the other leader. Cost: the two local barriers plus one
// message, 2·ceil(lg p)·α + α on Hockney (p the larger group).
#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::barrier {

Task<void> inter(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const CollArgs local = inter::local_args(a, Collective::barrier);
  co_await dissemination(rank, local);
  if (a.me == 0) co_await sendrecv(rank, a, 0, 0, byte, 0, 0, 0, byte, 0);
  co_await dissemination(rank, local);
}

}  // namespace mpisim::coll::barrier
