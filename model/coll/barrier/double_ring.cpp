// Barrier, double ring (Open MPI's tuned algorithm 2): an empty message goes round
// the ring from rank 0 (each rank but 0 receives from its left neighbour, then
// sends to its right one; rank 0 sends first and receives last), then round again,
// each send synchronous (complete once received, as Open MPI sends the second
// round). Any p. Cost on Hockney: 2p·α (a synchronous send is complete when it
// arrives at a posted receive: mpisim models no acknowledgement).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> double_ring(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const int p = a.p, me = a.me;
  if (p == 1) co_return;
  const int left = (me + p - 1) % p, right = (me + 1) % p;
  if (me > 0) co_await recv(rank, a, 0, 0, byte, left);
  co_await send(rank, a, 0, 0, byte, right);
  if (me == 0) co_await recv(rank, a, 0, 0, byte, left);
  if (me > 0) co_await recv(rank, a, 0, 0, byte, left);
  co_await ssend(rank, a, 0, 0, byte, right);
  if (me == 0) co_await recv(rank, a, 0, 0, byte, left);
}

}  // namespace mpisim::coll::barrier
