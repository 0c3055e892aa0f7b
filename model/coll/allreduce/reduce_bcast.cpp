// Allreduce as MPI_Reduce to rank 0 (binomial) followed by MPI_Bcast from rank 0
// (binomial): the textbook composition. Rank order is kept, so any operation.
// Any p. Cost on Hockney: ceil(lg p)·(2α + 2nβ + nγ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::allreduce {

Task<void> reduce_bcast(Rank& rank, const CollArgs& a) {
  CollArgs r = a;
  r.kind = Collective::reduce;
  r.root = 0;
  if (a.in_place()) {
    // Reduce in place at the root only; elsewhere recvbuf is the contribution.
    if (a.me != 0) r.sendbuf = a.recvbuf;
  }
  r.sendcount = a.recvcount;
  r.sendtype = a.recvtype;
  co_await reduce::binomial(rank, r);
  CollArgs b = a;
  b.kind = Collective::bcast;
  b.root = 0;
  co_await bcast::binomial(rank, b);
}

}  // namespace mpisim::coll::allreduce
