// Scatter, linear: the standard's own description, executed.
//
// MPI-4.1 §6.6: the outcome is as if the root executed n sends
//   MPI_Send(sendbuf + i·sendcount·extent(sendtype), sendcount, sendtype, i, ...)
// and each process one receive MPI_Recv(recvbuf, recvcount, recvtype, root, ...).
// The root posts all its sends at once (isend) and keeps its own block by a local
// copy, or leaves it where it is with MPI_IN_PLACE. Any p, any root.
// Cost on Hockney: the root's port serializes the p-1 blocks, so the last arrives
// at α + (p-1)·nβ/p for a total of n bytes.
#include "model/coll/scatter/scatter.hpp"

namespace mpisim::coll::scatter {

Task<void> linear(Rank& rank, const CollArgs& a) {
  const Communicator& comm = *a.comm;
  const int p = comm.size();
  const int me = comm.rank_of(rank.id(), rank.id());
  if (me != a.root) {
    mpi::TypedBuffer rb{&rank.memory(), a.recvbuf, a.recvcount, a.recvtype.get()};
    co_await rank.recv(rb, a.recvtype, a.root, kTagScatter, comm, mpi::Context::collective);
    co_return;
  }
  const std::int64_t block = a.sendcount * a.sendtype->extent();
  std::vector<Request*> reqs;
  reqs.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    if (i == me) continue;
    mpi::TypedBuffer sb{&rank.memory(), a.sendbuf + i * block, a.sendcount, a.sendtype.get()};
    reqs.push_back(rank.isend(sb, a.sendtype, i, kTagScatter, comm, mpi::Context::collective, a.instance));
  }
  if (a.recvbuf != kInPlace)
    co_await local_copy(rank, a.sendbuf + me * block, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype);
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::scatter
