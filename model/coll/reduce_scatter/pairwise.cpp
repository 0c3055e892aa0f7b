// Reduce_scatter(_block), pairwise exchange (MPICH's choice for commutative
// operations and long data): in step i (i = 1 .. p-1) rank r sends its
// contribution to block r + i to that rank and combines the contribution of
// r - i to its own block. Commutative operations only (the order is the ring's).
// Any p. Cost on Hockney: (p-1)·α + (p-1)/p·n(β + γ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> pairwise(Rank& rank, const CollArgs& a) {
  Work w(rank, a);
  co_await w.open();
  const TypeRef& t = a.recvtype;
  const int p = a.p, me = a.me;
  Scratch tmp(rank, w.count(me), t);
  for (int i = 1; i < p; ++i) {
    const int to = (me + i) % p, from = (me - i + p) % p;
    mpi::Deferred got;
    co_await exchange(rank, a, w.at(to), w.count(to), t, to, tmp.addr(), w.count(me), t, from, got, *a.op,
                      w.at(me), false);
    co_await combine(rank, *a.op, got, tmp.addr(), w.at(me), w.count(me), t);
  }
  co_await w.finish();
}

}  // namespace mpisim::coll::reduce_scatter
