// Bcast, binomial tree (MPICH's short-message broadcast).
//
// Relative rank v = (rank - root) mod p receives the whole buffer from v - 2^k,
// where 2^k is v's lowest set bit, then sends it to v + 2^j for every j < k,
// largest first, each send complete before the next starts. ceil(lg p) rounds; any p, any root, any datatype (the buffer is
// sent as it is). Cost on Hockney: ceil(lg p)·(α + nβ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::bcast {

Task<void> binomial(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (v & mask) {
      co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.me - mask + p) % p);
      break;
    }
  // To the children one after the other, the largest subtree first (as MPICH):
  // on a shared link they do not compete with each other.
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < p) co_await send(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.me + mask) % p);
}

}  // namespace mpisim::coll::bcast
