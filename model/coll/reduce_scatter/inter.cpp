// Reduce-scatter(-block) on an intercommunicator, as MPICH builds it (reduce,
// exchange, scatter): each group reduces its own vectors to its rank 0 with the
// binomial tree on its local intracommunicator (rank order: any operation), the two
// ranks 0 exchange their results, and each scatters the other group's result in
// its group by its recvcounts. So the reduction of one group's data is scattered
// among the other group's processes (MPI-4.1 §6.10).
// Cost on Hockney: ceil(lg q)(α + nβ + nγ) + (α + nβ) + lg q·α + (q−1)/q·nβ.
#include <optional>

#include "model/coll/algorithms.hpp"
#include "model/coll/inter.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> inter(Rank& rank, const CollArgs& a) {
  std::int64_t total = 0;
  for (int i = 0; i < a.p; ++i) total += a.recv_count(i);
  std::optional<Scratch> mine, theirs;
  if (a.me == 0) mine.emplace(rank, total, a.recvtype), theirs.emplace(rank, total, a.recvtype);
  co_await inter::reduce_to_leader(rank, a, a.sendbuf, total, a.recvtype, mine ? mine->addr() : 0);
  if (a.me == 0) co_await sendrecv(rank, a, mine->addr(), total, a.recvtype, 0, theirs->addr(), total, a.recvtype, 0);
  const bool block = a.recvcounts().empty();
  CollArgs spread = inter::local_args(a, block ? Collective::scatter : Collective::scatterv);
  spread.root = 0;
  spread.sendbuf = theirs ? theirs->addr() : 0;
  spread.sendtype = spread.recvtype = a.recvtype;
  spread.recvbuf = a.recvbuf;
  if (block) {
    spread.sendcount = spread.recvcount = a.recvcount;
  } else {
    spread.recvcount = a.recv_count(a.me);
    spread.per_process().sendcounts = a.recvcounts();
    std::int64_t at = 0;
    for (std::int64_t c : a.recvcounts()) spread.per_process().sdispls.push_back(at), at += c;
  }
  if (block) co_await scatter::binomial(rank, spread);
  else co_await scatter::linear(rank, spread);
}

}  // namespace mpisim::coll::reduce_scatter
