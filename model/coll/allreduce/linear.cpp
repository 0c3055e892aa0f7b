// Allreduce, linear (Open MPI's basic_linear, its tuned algorithm 1; its
// Rabenseifner falls back to it for a non-commutative operation or fewer
// elements than the power of two below p): Open MPI's linear reduce to rank 0,
// then its linear bcast from rank 0 (reduce::linear, bcast::linear). Rank order is
// kept, so any operation. Any p. Rank 0's p-1 combines and p-1 sends, one after
// the other, make its time.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::allreduce {

Task<void> linear(Rank& rank, const CollArgs& a) {
  CollArgs r = a;
  r.kind = Collective::reduce;
  r.root = 0;
  if (a.in_place() && a.me != 0) r.sendbuf = a.recvbuf;  // in place at the root only
  r.sendcount = a.recvcount;
  r.sendtype = a.recvtype;
  co_await reduce::linear(rank, r);
  CollArgs b = a;
  b.kind = Collective::bcast;
  b.root = 0;
  co_await bcast::linear(rank, b);
}

}  // namespace mpisim::coll::allreduce
