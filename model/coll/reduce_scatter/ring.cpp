// Reduce_scatter(_block), ring: in step s (s = 0 .. p-2) rank r sends its partial
// block r - s - 1 to r + 1 and combines into block r - s - 2 what r - 1 sends;
// after p - 1 steps block r is complete at rank r. Commutative operations only.
// Any p. Cost on Hockney: (p-1)·α + (p-1)/p·n(β + γ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> ring(Rank& rank, const CollArgs& a) {
  Work w(rank, a);
  co_await w.open();
  const TypeRef& t = a.recvtype;
  const int p = a.p, me = a.me, right = (me + 1) % p, left = (me - 1 + p) % p;
  auto block = [&](int b) { return ((b % p) + p) % p; };
  std::int64_t largest = 0;
  for (int i = 0; i < p; ++i) largest = std::max(largest, w.count(i));
  Scratch tmp(rank, largest, t);
  for (int s = 0; s < p - 1; ++s) {
    const int out = block(me - s - 1), in = block(me - s - 2);
    mpi::Deferred got;
    co_await exchange(rank, a, w.at(out), w.count(out), t, right, tmp.addr(), w.count(in), t, left, got, *a.op,
                      w.at(in), false);
    co_await combine(rank, *a.op, got, tmp.addr(), w.at(in), w.count(in), t);
  }
  co_await w.finish();
}

}  // namespace mpisim::coll::reduce_scatter
