// Allreduce on an intercommunicator, as MPICH builds it (reduce, exchange,
// broadcast): each group reduces its own data to its rank 0 with the binomial tree
// on its local intracommunicator, the two ranks 0 exchange their results, and each
// broadcasts the other group's result in its group. Every process of a group ends
// with the reduction of the other group's data (MPI-4.1 §6.9.6).
// Cost on Hockney: ceil(lg q)(α + nβ + nγ) + (α + nβ) + ceil(lg q)(α + nβ).
#include <optional>

#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::allreduce {

Task<void> inter(Rank& rank, const CollArgs& a) {
  std::optional<Scratch> mine;
  if (a.me == 0) mine.emplace(rank, a.sendcount, a.sendtype);
  co_await inter::reduce_to_leader(rank, a, a.sendbuf, a.sendcount, a.sendtype, mine ? mine->addr() : 0);
  if (a.me == 0)
    co_await sendrecv(rank, a, mine->addr(), a.sendcount, a.sendtype, 0, a.recvbuf, a.recvcount, a.recvtype, 0);
  co_await inter::bcast_from_leader(rank, a, a.recvbuf, a.recvcount, a.recvtype);
}

}  // namespace mpisim::coll::allreduce
