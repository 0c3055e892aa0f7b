// Allreduce as MPI_Reduce to rank 0 (binomial) followed by MPI_Bcast from rank 0
// (binomial): the textbook composition. Rank order is kept, so any operation.
// Any p. Cost on Hockney: ceil(lg p)·(2α + 2nβ + nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/allreduce/reduce_then_bcast.hpp"

namespace mpisim::coll::allreduce {

Task<void> reduce_then_bcast(Rank& rank, const CollArgs& a, Task<void> (*reduce)(Rank&, const CollArgs&),
                             Task<void> (*bcast)(Rank&, const CollArgs&)) {
  CollArgs r = a;
  r.kind = Collective::reduce;
  r.root = 0;
  if (a.in_place() && a.me != 0) r.sendbuf = a.recvbuf;
  r.sendcount = a.recvcount;
  r.sendtype = a.recvtype;
  co_await reduce(rank, r);
  CollArgs b = a;
  b.kind = Collective::bcast;
  b.root = 0;
  co_await bcast(rank, b);
}

Task<void> reduce_bcast(Rank& rank, const CollArgs& a) {
  co_await reduce_then_bcast(rank, a, &reduce::binomial, &bcast::binomial);
}

}  // namespace mpisim::coll::allreduce
