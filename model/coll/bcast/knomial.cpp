// Bcast, k-nomial tree (Open MPI's tuned "knomial", its default for mid-sized
// buffers on many ranks; radix k = 4 unless the step's "radix" gives another).
//
// Relative rank v = (rank - root) mod p. Its parent: v with its lowest nonzero
// base-k digit cleared, the digit at k^j; its children: v + r·k^i for i < j
// (every i when v = 0), the highest power first and r = 1 .. k-1 within one, as
// long as they are below p. A rank receives the whole buffer from its parent,
// then posts a send to every child at once and waits for them all (its port
// transfers them one after the other, in that order). Any p, any root, any
// datatype (the buffer is sent as it is); k = 2 is the binomial tree.
// Cost on Hockney, p = k^m: m·(α + (k-1)·nβ).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::bcast {

Task<void> knomial(Rank& rank, const CollArgs& a) {
  const std::int64_t k = a.radix > 0 ? a.radix : kDefaultRadix;
  const std::int64_t p = a.p;
  const std::int64_t v = (a.me - a.root + p) % p;
  std::int64_t mask = 1;  // k^j: the place of v's lowest nonzero digit, or past p at the root
  for (; mask < p; mask *= k)
    if (v % (mask * k) != 0) {
      const std::int64_t parent = v / (mask * k) * (mask * k);
      co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, static_cast<int>((parent + a.root) % p));
      break;
    }
  Requests sends;
  for (mask /= k; mask > 0; mask /= k)
    for (std::int64_t r = 1; r < k; ++r)
      if (v + r * mask < p)
        sends.push_back(post_send(rank, a, a.recvbuf, a.recvcount, a.recvtype, static_cast<int>((v + r * mask + a.root) % p)));
  co_await rank.wait_all(sends);
}

}  // namespace mpisim::coll::bcast
