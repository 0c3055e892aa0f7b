// Reduce, linear: every rank sends its contribution to the root, which combines
// them from the last rank down, c(i) op (c(i+1) op ... c(p-1)), so the operands
// stay in rank order for any operation. The root receives one contribution at a
// time into scratch space. Any p. Cost on Hockney: α + nβ + (p-1)·nγ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::reduce {

Task<void> linear(Rank& rank, const CollArgs& a) {
  const TypeRef& t = a.sendtype;
  const std::int64_t n = a.sendcount;
  if (a.me != a.root) {
    co_await send(rank, a, a.sendbuf, n, t, a.root);
    co_return;
  }
  Scratch acc(rank, n, t), tmp(rank, n, t);
  const Address mine = a.in_place() ? a.recvbuf : a.sendbuf;
  for (int i = a.p - 1; i >= 0; --i) {
    Address into = i == a.p - 1 ? acc.addr() : tmp.addr();
    if (i == a.me) co_await local_copy(rank, mine, n, t, into, n, t);
    else co_await recv(rank, a, into, n, t, i);
    if (i != a.p - 1) co_await combine(rank, *a.op, tmp.addr(), acc.addr(), n, t);
  }
  co_await local_copy(rank, acc.addr(), n, t, a.recvbuf, n, t);
}

}  // namespace mpisim::coll::reduce
