// Reduce on an intercommunicator, as MPICH builds it: the contributing group
// reduces to its rank 0 with the binomial tree on its local intracommunicator
// (operands combined in rank order, so any operation), and rank 0 sends the result
// to the root (MPI_ROOT). The root's other group members (MPI_PROC_NULL) take no part.
// Cost on Hockney: ceil(lg q)(α + nβ + nγ) + α + nβ.
#include <optional>

#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::reduce {

Task<void> inter(Rank& rank, const CollArgs& a) {
  if (a.root == mpi::PROC_NULL) co_return;
  if (a.root == mpi::ROOT) {
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, 0);
    co_return;
  }
  std::optional<Scratch> result;
  if (a.me == 0) result.emplace(rank, a.sendcount, a.sendtype);
  co_await inter::reduce_to_leader(rank, a, a.sendbuf, a.sendcount, a.sendtype, result ? result->addr() : 0);
  if (a.me == 0) co_await send(rank, a, result->addr(), a.sendcount, a.sendtype, a.root);
}

}  // namespace mpisim::coll::reduce
