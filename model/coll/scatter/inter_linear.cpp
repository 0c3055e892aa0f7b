// Scatter(v) on an intercommunicator, linear, as MPICH does MPI_Scatterv: the root
// (MPI_ROOT) sends each process of the other group its block directly. The root's
// other group members (MPI_PROC_NULL) take no part. Cost on Hockney: the root's
// sends leave one after another, α + nβ (n all blocks) for the last.
#include <vector>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scatter {

Task<void> inter_linear(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root != mpi::ROOT) {
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, a.root);
    co_return;
  }
  Requests reqs;
  for (int i = 0; i < a.remote_p; ++i)
    reqs.push_back(post_send(rank, a, a.sendbuf + a.send_offset(i), a.send_count(i), a.sendtype, i));
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::scatter
