// Scatter, linear with nonblocking sends (Open MPI's linear_nb, its tuned
// algorithm 3, with no blocking send interleaved: its default). The root goes
// through the ranks in order 0 .. p-1: it posts a send of each other rank's block
// and copies its own when it comes to itself (nothing with MPI_IN_PLACE); then it
// waits for all its sends. Any p, any root.
// Cost on Hockney: α + (p-1)/p·nβ (the root's port serializes the p-1 blocks).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scatter {

Task<void> linear_nb(Rank& rank, const CollArgs& a) {
  if (a.me != a.root) {
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, a.root);
    co_return;
  }
  Requests reqs;
  reqs.reserve(static_cast<std::size_t>(a.p));
  for (int i = 0; i < a.p; ++i) {
    if (i != a.me) {
      reqs.push_back(post_send(rank, a, a.sendbuf + a.send_offset(i), a.send_count(i), a.sendtype, i));
    } else if (a.recvbuf != kInPlace) {
      co_await local_copy(rank, a.sendbuf + a.send_offset(i), a.send_count(i), a.sendtype, a.recvbuf, a.recvcount,
                          a.recvtype);
    }
  }
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::scatter
