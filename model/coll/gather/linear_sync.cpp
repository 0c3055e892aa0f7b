// Gather, linear with synchronisation (Open MPI's linear_sync, its tuned algorithm
// 3, as its fixed decisions run it, with no first-segment size: the first segment
// is the whole block). The root takes the other ranks one at a time, in rank
// order: it posts the receive of rank i's block, sends i an empty message, posts
// the receive of i's (empty) second segment and waits for the block before it
// turns to the next rank; then it copies its own block (unless MPI_IN_PLACE) and
// waits for the second segments. A non-root rank waits for the root's empty
// message, then sends its block and an empty second segment. So no two ranks
// send to the root at once. Any p, any root.
// Cost on Hockney: (p-1)·(2α + (n/p)β) for n the p blocks together.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::gather {

Task<void> linear_sync(Rank& rank, const CollArgs& a) {
  if (a.me != a.root) {
    co_await recv(rank, a, a.sendbuf, 0, a.sendtype, a.root);
    co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, a.root);
    co_await send(rank, a, a.sendbuf, 0, a.sendtype, a.root);
    co_return;
  }
  Requests seconds;
  seconds.reserve(static_cast<std::size_t>(a.p));
  for (int i = 0; i < a.p; ++i) {
    if (i == a.me) continue;
    const Address block = a.recvbuf + a.recv_offset(i);
    Request* first = post_recv(rank, a, block, a.recv_count(i), a.recvtype, i);
    co_await send(rank, a, a.recvbuf, 0, a.recvtype, i);
    seconds.push_back(post_recv(rank, a, block, 0, a.recvtype, i));
    co_await rank.wait(first);
  }
  if (!a.in_place())
    co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf + a.recv_offset(a.me), a.recv_count(a.me),
                        a.recvtype);
  co_await rank.wait_all(seconds);
}

}  // namespace mpisim::coll::gather
