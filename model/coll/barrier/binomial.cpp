// Barrier by a binomial tree: every rank reports to rank 0 up the tree of
// MPI_Bcast's binomial algorithm, then rank 0 releases them down the same tree.
// Any p. Cost: 2·ceil(lg p)·α on Hockney (the way up, then the way down).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> binomial(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const int p = a.p, me = a.me;
  int mask = 1;
  // Up: hear from each child (me + mask for the masks below my lowest set bit).
  for (; mask < p; mask <<= 1) {
    if (me & mask) {
      co_await send(rank, a, 0, 0, byte, me - mask);
      co_await recv(rank, a, 0, 0, byte, me - mask);
      break;
    }
    if (me + mask < p) co_await recv(rank, a, 0, 0, byte, me + mask);
  }
  // Down: release the children, largest subtree first.
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (me + mask < p) co_await send(rank, a, 0, 0, byte, me + mask);
}

}  // namespace mpisim::coll::barrier
