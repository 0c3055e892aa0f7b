// Scan and Exscan, recursive doubling (MPICH's algorithm).
//
// Each rank keeps `partial`, the reduction of a growing range of ranks that ends
// with its own. In round k it exchanges partial with r xor 2^k (when that rank
// exists): a lower partner's partial is combined in front of both the partial and
// the result, a higher partner's behind the partial only. The operands stay in
// rank order, so any operation. For MPI_Exscan the result starts undefined and
// takes the first lower partial as it is; rank 0's recvbuf is not touched.
// Any p. Cost on Hockney: ceil(lg p)·(α + nβ) + up to 2·ceil(lg p)·nγ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scan {

Task<void> recursive_doubling(Rank& rank, const CollArgs& a) {
  const TypeRef& t = a.recvtype;
  const std::int64_t n = a.recvcount;
  const bool exclusive = a.kind == Collective::exscan;
  Scratch partial(rank, n, t), tmp(rank, n, t);
  const Address mine = a.in_place() ? a.recvbuf : a.sendbuf;
  co_await local_copy(rank, mine, n, t, partial.addr(), n, t);
  if (!exclusive && !a.in_place()) co_await local_copy(rank, mine, n, t, a.recvbuf, n, t);
  bool have_result = !exclusive;
  for (int mask = 1; mask < a.p; mask <<= 1) {
    const int partner = a.me ^ mask;
    if (partner >= a.p) continue;
    co_await sendrecv(rank, a, partial.addr(), n, t, partner, tmp.addr(), n, t, partner);
    if (partner < a.me) {
      co_await combine(rank, *a.op, tmp.addr(), partial.addr(), n, t);
      if (have_result) {
        co_await combine(rank, *a.op, tmp.addr(), a.recvbuf, n, t);
      } else {
        co_await local_copy(rank, tmp.addr(), n, t, a.recvbuf, n, t);
        have_result = true;
      }
    } else {
      co_await combine(rank, *a.op, tmp.addr(), partial.addr(), n, t, /*inout_first=*/true);
    }
  }
}

}  // namespace mpisim::coll::scan
