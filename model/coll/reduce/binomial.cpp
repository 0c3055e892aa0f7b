// Reduce, binomial tree (MPICH's short-message reduce).
//
// Each rank combines into a scratch copy of its contribution the partial results
// of its children (v + 2^j for the j below its lowest set bit, in increasing
// order), then sends the result to its parent v - 2^k. A subtree is a contiguous
// range of ranks with the parent's first, so the operands stay in rank order. For
// an operation that does not commute the tree is rooted at rank 0 (relative and
// absolute ranks then agree), which forwards the result to the root.
// Any p. Cost on Hockney: ceil(lg p)·(α + nβ + nγ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::reduce {

Task<void> binomial(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const int tree_root = a.op->commutative ? a.root : 0;
  const int v = (a.me - tree_root + p) % p;
  const TypeRef& t = a.sendtype;
  const std::int64_t n = a.sendcount;
  Scratch acc(rank, n, t), tmp(rank, n, t);
  const Address mine = a.me == a.root && a.in_place() ? a.recvbuf : a.sendbuf;
  co_await local_copy(rank, mine, n, t, acc.addr(), n, t);
  for (int mask = 1; mask < p; mask <<= 1) {
    if (v & mask) {
      co_await send(rank, a, acc.addr(), n, t, (a.me - mask + p) % p);
      break;
    }
    if (v + mask < p) {
      co_await recv(rank, a, tmp.addr(), n, t, (a.me + mask) % p);
      co_await combine(rank, *a.op, tmp.addr(), acc.addr(), n, t, /*inout_first=*/true);
    }
  }
  if (tree_root != a.root) {
    if (a.me == tree_root) co_await send(rank, a, acc.addr(), n, t, a.root);
    if (a.me == a.root) co_await recv(rank, a, a.recvbuf, n, t, tree_root);
    co_return;
  }
  if (a.me == a.root) co_await local_copy(rank, acc.addr(), n, t, a.recvbuf, n, t);
}

}  // namespace mpisim::coll::reduce
