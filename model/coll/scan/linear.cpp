// Scan and Exscan, linear chain: rank r receives the reduction of ranks 0..r-1
// from r - 1, combines its own contribution behind it and passes the result to
// r + 1. Rank order is kept, so any operation. Any p.
// Cost on Hockney: (p-1)·(α + nβ + nγ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scan {

Task<void> linear(Rank& rank, const CollArgs& a) {
  const TypeRef& t = a.recvtype;
  const std::int64_t n = a.recvcount;
  const bool exclusive = a.kind == Collective::exscan;
  const Address mine = a.in_place() ? a.recvbuf : a.sendbuf;
  Scratch prefix(rank, n, t);  // the reduction of ranks 0..me
  co_await local_copy(rank, mine, n, t, prefix.addr(), n, t);
  if (a.me > 0) {
    Scratch before(rank, n, t);  // the reduction of ranks 0..me-1
    co_await recv(rank, a, before.addr(), n, t, a.me - 1);
    co_await combine(rank, *a.op, before.addr(), prefix.addr(), n, t);
    if (exclusive) co_await local_copy(rank, before.addr(), n, t, a.recvbuf, n, t);
  }
  if (a.me + 1 < a.p) co_await send(rank, a, prefix.addr(), n, t, a.me + 1);
  if (!exclusive) co_await local_copy(rank, prefix.addr(), n, t, a.recvbuf, n, t);
}

}  // namespace mpisim::coll::scan
