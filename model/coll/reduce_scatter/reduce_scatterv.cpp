// Reduce_scatter(_block) as MPI_Reduce of the whole vector to rank 0 (binomial),
// then MPI_Scatterv of the blocks from rank 0 (linear): the composition the
// standard's definition describes. Rank order is kept, so any operation. Any p.
// Cost on Hockney: ceil(lg p)·(α + nβ + nγ) + α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> reduce_scatterv(Rank& rank, const CollArgs& a) {
  const std::vector<std::int64_t> start = block_starts(a);
  const std::int64_t n = start.back();
  Scratch all(rank, a.me == 0 ? n : 0, a.recvtype);
  CollArgs r = a;
  r.kind = Collective::reduce;
  r.root = 0;
  r.sendbuf = a.in_place() ? a.recvbuf : a.sendbuf;
  r.sendcount = n;
  r.sendtype = a.recvtype;
  r.recvbuf = all.addr();
  r.recvcount = n;
  co_await reduce::binomial(rank, r);
  CollArgs s = a;
  s.kind = Collective::scatterv;
  s.root = 0;
  s.sendbuf = all.addr();
  s.sendtype = a.recvtype;
  s.per_process().sendcounts.resize(static_cast<std::size_t>(a.p));
  s.per_process().sdispls.assign(start.begin(), start.end() - 1);
  for (int i = 0; i < a.p; ++i) s.per_process().sendcounts[static_cast<std::size_t>(i)] = a.recv_count(i);
  s.recvcount = a.recv_count(a.me);
  co_await scatter::linear(rank, s);
}

}  // namespace mpisim::coll::reduce_scatter
