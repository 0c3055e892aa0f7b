// Reduce_scatter(_block), recursive doubling (MPICH's choice for operations that
// do not commute): the whole vector is reduced by recursive doubling, the lower
// rank's operand first in every combination (as MPI_Allreduce's recursive
// doubling, with the same fold for other p), and each rank keeps its block.
// Rank order is kept, so any operation. Any p.
// Cost on Hockney (p a power of two): lg p·(α + nβ + nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/halving.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> recursive_doubling(Rank& rank, const CollArgs& a) {
  Work w(rank, a);
  co_await w.open();
  const TypeRef& t = a.recvtype;
  const std::int64_t n = w.total();
  Scratch tmp(rank, n, t);
  const Fold f(a.p, a.me);
  co_await reduction::fold_in(rank, a, f, w.all(), tmp.addr(), n, t);
  if (f.sits_out()) {
    co_await recv(rank, a, a.recvbuf, a.recv_count(a.me), t, a.me + 1);
    co_return;
  }
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    co_await sendrecv(rank, a, w.all(), n, t, f.real(partner), tmp.addr(), n, t, f.real(partner));
    co_await combine(rank, *a.op, tmp.addr(), w.all(), n, t, /*inout_first=*/partner > f.newrank);
  }
  if (f.holds_pair(a.me)) co_await send(rank, a, w.at(a.me - 1), w.count(a.me - 1), t, a.me - 1);
  co_await w.finish();
}

}  // namespace mpisim::coll::reduce_scatter
