// Allreduce on an intercommunicator, as MPICH builds it (reduce, exchange,
// broadcast): each group reduces its own data to its rank 0 with the binomial tree
// on its local intracommunicator, the two ranks 0 exchange their results, and each
// broadcasts the other group's result in its group. Every process of a group ends
// with the reduction of the other group's data (MPI-4.1 §6.9.6).
// Cost on Hockney: ceil(lg q)(α + nβ + nγ) + (α + nβ) + ceil(lg q)(α + nβ).
#include <optional>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::allreduce {

Task<void> inter(Rank& rank, const CollArgs& a) {
  std::optional<Scratch> mine;
  if (a.me == 0) mine.emplace(rank, a.sendcount, a.sendtype);
  CollArgs local = local_args(a, Collective::reduce);
  local.root = 0;
  local.sendbuf = a.sendbuf;
  local.recvbuf = mine ? mine->addr() : 0;
  local.sendcount = local.recvcount = a.sendcount;
  local.sendtype = local.recvtype = a.sendtype;
  co_await reduce::binomial(rank, local);
  if (a.me == 0)
    co_await sendrecv(rank, a, mine->addr(), a.sendcount, a.sendtype, 0, a.recvbuf, a.recvcount, a.recvtype, 0);
  CollArgs spread = local_args(a, Collective::bcast);
  spread.root = 0;
  spread.recvbuf = a.recvbuf;
  spread.recvcount = a.recvcount;
  spread.recvtype = a.recvtype;
  co_await bcast::binomial(rank, spread);
}

}  // namespace mpisim::coll::allreduce
