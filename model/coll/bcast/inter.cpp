// Broadcast on an intercommunicator, as MPICH builds it: the root (MPI_ROOT) sends
// the buffer to rank 0 of the other group, which broadcasts it there with the
// binomial tree on the group's local intracommunicator. The other processes of the
// root's group (MPI_PROC_NULL) take no part.
// Cost on Hockney: (α + nβ) + ceil(lg q)(α + nβ), q the receiving group's size.
#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::bcast {

Task<void> inter(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root == mpi::ROOT) {
    co_await send(rank, a, a.recvbuf, a.recvcount, a.recvtype, 0);
    co_return;
  }
  if (a.me == 0) co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, a.root);
  co_await inter::bcast_from_leader(rank, a, a.recvbuf, a.recvcount, a.recvtype);
}

}  // namespace mpisim::coll::bcast
