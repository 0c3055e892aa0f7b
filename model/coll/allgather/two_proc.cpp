// Allgather(v) on two processes (Open MPI's two_proc, its tuned choice for every
// allgather of two ranks): each rank exchanges its own contribution with the other
// (sendbuf, or its block of recvbuf with MPI_IN_PLACE) straight into the other's
// block, then copies its contribution into its own block (nothing to copy in
// place). p = 2 only. Cost on Hockney: α + (n/2)β.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::allgather {

Task<void> two_proc(Rank& rank, const CollArgs& a) {
  const int other = a.me ^ 1;
  const Address own = a.recvbuf + a.recv_offset(a.me);
  if (a.in_place())
    co_await sendrecv(rank, a, own, a.recv_count(a.me), a.recvtype, other, a.recvbuf + a.recv_offset(other),
                      a.recv_count(other), a.recvtype, other);
  else
    co_await sendrecv(rank, a, a.sendbuf, a.sendcount, a.sendtype, other, a.recvbuf + a.recv_offset(other),
                      a.recv_count(other), a.recvtype, other);
  if (!a.in_place()) co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, own, a.recv_count(a.me), a.recvtype);
}

}  // namespace mpisim::coll::allgather
