// Alltoall on two processes (Open MPI's two_proc, its tuned choice for every
// alltoall of two ranks): each rank exchanges the other's block with it, then
// copies its own block. p = 2 only; MPI_IN_PLACE sends what recvbuf held on entry
// (Open MPI runs another algorithm for it). Cost on Hockney: α + (n/2)β.
#include "model/coll/algorithms.hpp"
#include "model/coll/alltoall/source.hpp"

namespace mpisim::coll::alltoall {

Task<void> two_proc(Rank& rank, const CollArgs& a) {
  Source src(rank, a);
  co_await src.open();
  const int me = a.me, other = a.me ^ 1;
  co_await sendrecv(rank, a, src.at(other), src.count(other), src.type(other), other, a.recvbuf + a.recv_offset(other),
                    a.recv_count(other), a.recv_type(other), other);
  if (!a.in_place())
    co_await local_copy(rank, src.at(me), src.count(me), src.type(me), a.recvbuf + a.recv_offset(me), a.recv_count(me),
                        a.recv_type(me));
}

}  // namespace mpisim::coll::alltoall
