// Barrier, linear (Open MPI's basic_linear, its tuned algorithm 1): every other
// rank sends an empty message to rank 0 and waits for one back; rank 0 posts a
// receive from each, waits for them all, then sends to each in rank order.
// Any p. Cost on Hockney: 2α (rank 0's p-1 empty sends take no port time).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> linear(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  if (a.p == 1) co_return;
  if (a.me > 0) {
    co_await send(rank, a, 0, 0, byte, 0);
    co_await recv(rank, a, 0, 0, byte, 0);
    co_return;
  }
  Requests arrivals;
  for (int r = 1; r < a.p; ++r) arrivals.push_back(post_recv(rank, a, 0, 0, byte, r));
  co_await rank.wait_all(arrivals);
  for (int r = 1; r < a.p; ++r) co_await send(rank, a, 0, 0, byte, r);
}

}  // namespace mpisim::coll::barrier
