// Bcast, scatter + ring allgather (MPICH's long-message broadcast).
//
// A binomial scatter gives relative rank v chunk v of ceil(n/p) bytes; then p - 1
// ring steps: in step s, v sends chunk v - s to v + 1 and receives chunk v - s - 1
// from v - 1. Any p. Cost on Hockney: (lg p + p - 1)·α + 2·(p-1)/p·nβ.
#include <algorithm>

#include "model/coll/algorithms.hpp"
#include "model/coll/bcast/bytes.hpp"

namespace mpisim::coll::bcast {

Task<void> scatter_ring(Rank& rank, const CollArgs& a) {
  Bytes buf(rank, a);
  co_await buf.open();
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  const std::int64_t n = buf.bytes(), chunk = (n + p - 1) / p;
  co_await scatter_chunks(rank, a, buf.at(), n, chunk);
  auto span = [&](int c) { return chunk_span(n, chunk, c, 1); };
  const int right = (a.me + 1) % p, left = (a.me - 1 + p) % p;
  for (int s = 0; s < p - 1; ++s) {
    auto [slo, sn] = span((v - s + p) % p);
    auto [rlo, rn] = span((v - s - 1 + 2 * p) % p);
    co_await sendrecv(rank, a, buf.at() + slo, sn, Bytes::packed(), right, buf.at() + rlo, rn, Bytes::packed(), left);
  }
  co_await buf.close();
}

}  // namespace mpisim::coll::bcast
