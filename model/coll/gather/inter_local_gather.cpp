// Gather on an intercommunicator, as MPICH builds it for short messages: the
// sending group gathers its blocks to its rank 0 with the binomial tree on its
// local intracommunicator, and rank 0 sends them to the root (MPI_ROOT) in one
// message. The root's other group members (MPI_PROC_NULL) take no part.
// Cost on Hockney: lg q·α + (q−1)/q·nβ for the local gather, then α + nβ, with n
// all q blocks.
#include <optional>

#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::gather {

Task<void> inter_local_gather(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root == mpi::ROOT) {
    co_await recv(rank, a, a.recvbuf, a.recvcount * a.remote_p, a.recvtype, 0);
    co_return;
  }
  std::optional<Scratch> all;
  if (a.me == 0) all.emplace(rank, a.sendcount * a.p, a.sendtype);
  CollArgs local = inter::local_args(a, Collective::gather);
  local.root = 0;
  local.sendbuf = a.sendbuf;
  local.sendcount = a.sendcount;
  local.sendtype = a.sendtype;
  local.recvbuf = all ? all->addr() : 0;
  local.recvcount = a.sendcount;
  local.recvtype = a.sendtype;
  co_await binomial(rank, local);
  if (a.me == 0) co_await send(rank, a, all->addr(), a.sendcount * a.p, a.sendtype, a.root);
}

}  // namespace mpisim::coll::gather
