// Scatterv, linear: the standard's description, executed.
//
// MPI-4.1 §6.6: as if the root executed n sends
//   MPI_Send(sendbuf + displs[i]·extent(sendtype), sendcounts[i], sendtype, i, ...)
// and each process one receive. The root posts every send at once and copies its
// own block locally (or leaves it, with MPI_IN_PLACE). Any p, any root.
#include "model/coll/scatterv/scatterv.hpp"

namespace mpisim::coll::scatterv {

Task<void> linear(Rank& rank, const CollArgs& a) {
  const Communicator& comm = *a.comm;
  const int p = comm.size();
  const int me = comm.rank_of(rank.id(), rank.id());
  if (me != a.root) {
    mpi::TypedBuffer rb{&rank.memory(), a.recvbuf, a.recvcount, a.recvtype.get()};
    co_await rank.recv(rb, a.recvtype, a.root, kTagScatter, comm, mpi::Context::collective);
    co_return;
  }
  const std::int64_t extent = a.sendtype->extent();
  std::vector<Request*> reqs;
  reqs.reserve(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    if (i == me) continue;
    auto k = static_cast<std::size_t>(i);
    mpi::TypedBuffer sb{&rank.memory(), a.sendbuf + a.displs[k] * extent, a.sendcounts[k], a.sendtype.get()};
    reqs.push_back(rank.isend(sb, a.sendtype, i, kTagScatter, comm, mpi::Context::collective, a.instance));
  }
  auto k = static_cast<std::size_t>(me);
  if (a.recvbuf != kInPlace)
    co_await local_copy(rank, a.sendbuf + a.displs[k] * extent, a.sendcounts[k], a.sendtype, a.recvbuf,
                        a.recvcount, a.recvtype);
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::scatterv
