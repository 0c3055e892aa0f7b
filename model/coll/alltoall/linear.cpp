// Alltoall(v/w), linear: every receive and every send posted at once (MPICH's
// "scattered" algorithm without its batching), receives and sends ordered from
// r + 1 around the ring so that no rank is everybody's first target; then one
// wait for all. Any p; v and w forms; MPI_IN_PLACE.
// Cost on Hockney: α + (p-1)/p·nβ (the port serializes the sends).
#include "model/coll/algorithms.hpp"
#include "model/coll/alltoall/source.hpp"

namespace mpisim::coll::alltoall {

Task<void> linear(Rank& rank, const CollArgs& a) {
  Source src(rank, a);
  co_await src.open();
  const int p = a.p, me = a.me;
  Requests reqs;
  reqs.reserve(2 * static_cast<std::size_t>(p));
  for (int i = 1; i < p; ++i) {
    const int from = (me + i) % p;
    reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(from), a.recv_count(from), a.recv_type(from), from));
  }
  for (int i = 1; i < p; ++i) {
    const int to = (me + i) % p;
    reqs.push_back(post_send(rank, a, src.at(to), src.count(to), src.type(to), to));
  }
  if (!a.in_place())
    co_await local_copy(rank, src.at(me), src.count(me), src.type(me), a.recvbuf + a.recv_offset(me), a.recv_count(me),
                        a.recv_type(me));
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::alltoall
