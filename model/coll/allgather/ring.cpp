// Allgather(v), ring: in step s (s = 0 .. p-2) rank r sends block r - s to r + 1
// and receives block r - s - 1 from r - 1, straight between the receive buffers.
// Any p, any displacements. Cost on Hockney: (p-1)·α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"

namespace mpisim::coll::allgather {

Task<void> ring(Rank& rank, const CollArgs& a) {
  co_await place_own(rank, a);
  const int p = a.p, right = (a.me + 1) % p, left = (a.me - 1 + p) % p;
  for (int s = 0; s < p - 1; ++s) {
    const int out = (a.me - s + p) % p, in = (a.me - s - 1 + 2 * p) % p;
    co_await sendrecv(rank, a, a.recvbuf + a.recv_offset(out), a.recv_count(out), a.recvtype, right,
                      a.recvbuf + a.recv_offset(in), a.recv_count(in), a.recvtype, left);
  }
}

}  // namespace mpisim::coll::allgather
