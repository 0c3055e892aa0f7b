// Reduce_scatter(_block), recursive doubling (MPICH's choice for operations that
// do not commute). In the round of distance 2^k a process exchanges with the one
// 2^k away everything but the blocks of its own subtree of 2^k processes (its
// partner never needs those: only the subtree's members do), and receives
// everything but the blocks of its partner's subtree; the lower rank's operand
// comes first in every combination, so rank order is kept and any operation works.
// Each message is one, of a datatype of the two spans around the left-out blocks.
// Any p (the fold of MPI_Allreduce's recursive doubling; a folded pair's blocks
// go with its new rank).
// Cost on Hockney (p a power of two): lg p·α + (lg p − (p−1)/p)·n(β + γ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/halving.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"
#include "model/mpi/type_constructors.hpp"

namespace mpisim::coll::reduce_scatter {

namespace {

// The elements of the whole vector but [from, to): the spans before and after, as
// one committed datatype of `t`.
TypeRef all_but(std::int64_t from, std::int64_t to, std::int64_t n, const TypeRef& t) {
  TypeRef spans = mpi::type_hindexed({from, n - to}, {0, to * t->extent()}, t, "reduce_scatter spans");
  spans->commit();
  return spans;
}

}  // namespace

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
  // Where the blocks of new rank nr begin (a folded pair's two blocks are its).
  auto start = [&](int nr) { return w.starts()[static_cast<std::size_t>(nr < f.rem ? 2 * nr : nr + f.rem)]; };
  const std::int64_t ext = t->extent();
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    const int mine = f.newrank & ~(mask - 1), theirs = partner & ~(mask - 1);
    const std::int64_t keep_from = start(mine), keep_to = start(mine + mask);
    const std::int64_t skip_from = start(theirs), skip_to = start(theirs + mask);
    const TypeRef out = all_but(keep_from, keep_to, n, t), in = all_but(skip_from, skip_to, n, t);
    co_await sendrecv(rank, a, w.all(), 1, out, f.real(partner), tmp.addr(), 1, in, f.real(partner));
    const bool inout_first = partner > f.newrank;
    co_await combine(rank, *a.op, tmp.addr(), w.all(), skip_from, t, inout_first);
    co_await combine(rank, *a.op, tmp.addr() + skip_to * ext, w.all() + skip_to * ext, n - skip_to, t, inout_first);
  }
  if (f.holds_pair(a.me)) co_await send(rank, a, w.at(a.me - 1), w.count(a.me - 1), t, a.me - 1);
  co_await w.finish();
}

}  // namespace mpisim::coll::reduce_scatter
