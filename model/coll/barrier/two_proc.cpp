// Barrier on two processes (Open MPI's two_proc, its tuned choice for a barrier
// of two ranks): the two exchange an empty message. p = 2 only.
// Cost on Hockney: α.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> two_proc(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  co_await sendrecv(rank, a, 0, 0, byte, a.me ^ 1, 0, 0, byte, a.me ^ 1);
}

}  // namespace mpisim::coll::barrier
