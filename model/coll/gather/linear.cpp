// Gather and Gatherv, linear: the standard's own description, executed.
//
// MPI-4.1 §6.5: the outcome is as if each process sent its buffer to the root and
// the root executed n receives
//   MPI_Recv(recvbuf + displs[i]·extent(recvtype), recvcounts[i], recvtype, i, ...)
// (for MPI_Gather, displs[i] = i·recvcount). The root posts every receive at once
// and copies its own block (unless MPI_IN_PLACE). Any p, any root.
// Cost on Hockney: α + nβ/p (no receive-side contention; topologies add it).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::gather {

Task<void> linear(Rank& rank, const CollArgs& a) {
  if (a.me != a.root) {
    co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, a.root);
    co_return;
  }
  Requests reqs;
  reqs.reserve(static_cast<std::size_t>(a.p));
  for (int k = 1; k < a.p; ++k) {
    const int i = (a.root + k) % a.p;
    reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recvtype, i));
  }
  if (!a.in_place())
    co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf + a.recv_offset(a.me),
                        a.recv_count(a.me), a.recvtype);
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::gather
