// Reduce_scatter(_block), recursive halving (MPICH's choice for commutative
// operations and short data).
//
// Among the pof2 ranks the fold (collective.hpp) leaves, new rank v stands for
// the blocks of the ranks it holds (its own, and its partner's if it has one):
// contiguous ranges, so recursive halving (reduce/halving.hpp) leaves v with its
// blocks reduced; a partner then receives its block. Commutative operations only.
// Cost on Hockney (p a power of two): lg p·α + (p-1)/p·n(β + γ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/halving.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

Task<void> recursive_halving(Rank& rank, const CollArgs& a) {
  Work w(rank, a);
  co_await w.open();
  const TypeRef& t = a.recvtype;
  const Fold f(a.p, a.me);
  // New rank v's blocks start at the block of its first real rank.
  reduction::Offsets start(static_cast<std::size_t>(f.pof2) + 1);
  for (int v = 0; v <= f.pof2; ++v)
    start[static_cast<std::size_t>(v)] = w.starts()[static_cast<std::size_t>(v < f.rem ? 2 * v : v + f.rem)];
  // A pair's holder receives its partner's whole vector first; the halving needs the half it keeps.
  Scratch tmp(rank, f.holds_pair(a.me) ? w.total() : reduction::kept_first(f, start), t);
  co_await reduction::fold_in(rank, a, f, w.all(), tmp.addr(), w.total(), t);
  if (f.sits_out()) {
    co_await recv(rank, a, a.recvbuf, a.recv_count(a.me), t, a.me + 1);
    co_return;
  }
  co_await reduction::halving(rank, a, f, w.all(), tmp.addr(), start, t, w.all());
  if (f.holds_pair(a.me)) co_await send(rank, a, w.at(a.me - 1), w.count(a.me - 1), t, a.me - 1);
  co_await w.finish();
}

}  // namespace mpisim::coll::reduce_scatter
