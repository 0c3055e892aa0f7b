// Alltoall(v/w) on an intercommunicator, pairwise, as MPICH builds it: with m the
// larger group's size, in step i (0 <= i < m) each process sends its block for
// remote rank (me + i) mod m and receives the block of remote rank (me − i) mod m,
// skipping the ranks the remote group does not have.
// Cost on Hockney: m steps of α + (n/q)β, n all blocks.
#include <algorithm>
#include <vector>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::alltoall {

Task<void> inter(Rank& rank, const CollArgs& a) {
  const int m = std::max(a.p, a.remote_p);
  for (int i = 0; i < m; ++i) {
    const int dst = (a.me + i) % m, src = (a.me - i + m) % m;
    Requests reqs;
    if (src < a.remote_p)
      reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(src), a.recv_count(src), a.recv_type(src), src));
    if (dst < a.remote_p)
      reqs.push_back(post_send(rank, a, a.sendbuf + a.send_offset(dst), a.send_count(dst), a.send_type(dst), dst));
    co_await rank.wait_all(reqs);
  }
}

}  // namespace mpisim::coll::alltoall
