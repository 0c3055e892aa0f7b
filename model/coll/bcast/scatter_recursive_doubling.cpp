// Bcast, scatter + recursive-doubling allgather (Van de Geijn; MPICH's medium-size
// broadcast on a power-of-two communicator).
//
// The n bytes are cut into p chunks of ceil(n/p); a binomial scatter gives relative
// rank v chunk v; then lg p rounds of recursive doubling: in round k, v exchanges
// with v xor 2^k all the chunks it holds (2^k of them). Power of two only.
// Cost on Hockney: 2·lg p·α + 2·(p-1)/p·nβ.
#include <algorithm>

#include "model/coll/algorithms.hpp"
#include "model/coll/bcast/bytes.hpp"

namespace mpisim::coll::bcast {

Task<void> scatter_recursive_doubling(Rank& rank, const CollArgs& a) {
  Bytes buf(rank, a);
  co_await buf.open();
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  const std::int64_t n = buf.bytes(), chunk = (n + p - 1) / p;
  co_await scatter_chunks(rank, a, buf.at(), n, chunk);
  auto span = [&](int first, int count) { return chunk_span(n, chunk, first, count); };
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = v ^ mask;
    auto [mine_lo, mine_n] = span(v & ~(mask - 1), mask);
    auto [theirs_lo, theirs_n] = span(partner & ~(mask - 1), mask);
    co_await sendrecv(rank, a, buf.at() + mine_lo, mine_n, Bytes::packed(), (partner + a.root) % p,
                      buf.at() + theirs_lo, theirs_n, Bytes::packed(), (partner + a.root) % p);
  }
  co_await buf.close();
}

}  // namespace mpisim::coll::bcast
