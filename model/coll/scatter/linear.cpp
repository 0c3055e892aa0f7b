// Scatter and Scatterv, linear: the standard's own description, executed.
//
// MPI-4.1 §6.6: the outcome is as if the root executed n sends
//   MPI_Send(sendbuf + displs[i]·extent(sendtype), sendcounts[i], sendtype, i, ...)
// (for MPI_Scatter, displs[i] = i·sendcount) and each process one receive. The
// root posts all its sends at once and keeps its own block by a local copy, or
// leaves it where it is with MPI_IN_PLACE. Any p, any root.
// Cost on Hockney: the root's port serializes the p-1 blocks: α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scatter {

Task<void> linear(Rank& rank, const CollArgs& a) {
  if (a.me != a.root) {
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, a.root);
    co_return;
  }
  Requests reqs;
  reqs.reserve(static_cast<std::size_t>(a.p));
  for (int k = 1; k < a.p; ++k) {
    const int i = (a.root + k) % a.p;
    reqs.push_back(post_send(rank, a, a.sendbuf + a.send_offset(i), a.send_count(i), a.sendtype, i));
  }
  if (a.recvbuf != kInPlace)
    co_await local_copy(rank, a.sendbuf + a.send_offset(a.me), a.send_count(a.me), a.sendtype, a.recvbuf,
                        a.recvcount, a.recvtype);
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::scatter
