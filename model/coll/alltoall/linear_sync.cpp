// Alltoall, linear as Open MPI posts it (its tuned linear_sync, algorithm 4, with
// no limit on the requests in flight: its default; its basic_linear, algorithm 1,
// posts the same). The rank first copies its own block, then posts a receive from
// r + 1, r + 2, ... around the ring and a send to r - 1, r - 2, ..., and waits for
// them all. Any p; MPI_IN_PLACE sends what recvbuf held on entry (Open MPI runs
// another algorithm for it).
// Cost on Hockney: α + (p-1)/p·nβ (the port serializes the sends).
#include "model/coll/algorithms.hpp"
#include "model/coll/alltoall/source.hpp"

namespace mpisim::coll::alltoall {

Task<void> linear_sync(Rank& rank, const CollArgs& a) {
  Source src(rank, a);
  co_await src.open();
  const int p = a.p, me = a.me;
  if (!a.in_place())
    co_await local_copy(rank, src.at(me), src.count(me), src.type(me), a.recvbuf + a.recv_offset(me), a.recv_count(me),
                        a.recv_type(me));
  Requests reqs;
  reqs.reserve(2 * static_cast<std::size_t>(p));
  for (int i = 1; i < p; ++i) {
    const int from = (me + i) % p;
    reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(from), a.recv_count(from), a.recv_type(from), from));
  }
  for (int i = 1; i < p; ++i) {
    const int to = (me + p - i) % p;
    reqs.push_back(post_send(rank, a, src.at(to), src.count(to), src.type(to), to));
  }
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::alltoall
