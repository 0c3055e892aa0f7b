// Gather(v) on an intercommunicator, linear, as MPICH does MPI_Gatherv: every
// process of the sending group sends its block straight to the root (MPI_ROOT),
// which posts one receive per process of the other group. The root's other group
// members (MPI_PROC_NULL) take no part. Cost on Hockney: α + nβ (n all blocks; the
// receives overlap, the root's link is not modelled as shared).
#include <vector>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::gather {

Task<void> inter_linear(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root != mpi::ROOT) {
    co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, a.root);
    co_return;
  }
  Requests reqs;
  for (int i = 0; i < a.remote_p; ++i)
    reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recvtype, i));
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::gather
