// Bcast, linear: the root sends the buffer to every other rank directly (p - 1
// messages from one port). Any p. Cost on Hockney: α + (p-1)·nβ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::bcast {

Task<void> linear(Rank& rank, const CollArgs& a) {
  if (a.me != a.root) {
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, a.root);
    co_return;
  }
  Requests reqs;
  reqs.reserve(static_cast<std::size_t>(a.p));
  for (int i = 1; i < a.p; ++i)
    reqs.push_back(post_send(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.root + i) % a.p));
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::bcast
