// Scatter on an intercommunicator, as MPICH builds it for short messages: the root
// (MPI_ROOT) sends all blocks to rank 0 of the other group in one message, which
// scatters them there with the binomial tree on the group's local
// intracommunicator. The root's other group members (MPI_PROC_NULL) take no part.
// Cost on Hockney: α + nβ, then lg q·α + (q−1)/q·nβ, n all q blocks.
#include <optional>

#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::scatter {

Task<void> inter_local_scatter(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root == mpi::ROOT) {
    co_await send(rank, a, a.sendbuf, a.sendcount * a.remote_p, a.sendtype, 0);
    co_return;
  }
  std::optional<Scratch> all;
  if (a.me == 0) {
    all.emplace(rank, a.recvcount * a.p, a.recvtype);
    co_await recv(rank, a, all->addr(), a.recvcount * a.p, a.recvtype, a.root);
  }
  CollArgs local = inter::local_args(a, Collective::scatter);
  local.root = 0;
  local.sendbuf = all ? all->addr() : 0;
  local.sendcount = a.recvcount;
  local.sendtype = a.recvtype;
  local.recvbuf = a.recvbuf;
  local.recvcount = a.recvcount;
  local.recvtype = a.recvtype;
  co_await binomial(rank, local);
}

}  // namespace mpisim::coll::scatter
