// Allreduce, linear (Open MPI's basic_linear, its tuned algorithm 1; its
// Rabenseifner falls back to it for a non-commutative operation or fewer
// elements than the power of two below p): Open MPI's linear reduce to rank 0,
// then its linear bcast from rank 0 (reduce::linear, bcast::linear). Rank order is
// kept, so any operation. Any p. Rank 0's p-1 combines and p-1 sends, one after
// the other, make its time.
#include "model/coll/algorithms.hpp"
#include "model/coll/allreduce/reduce_then_bcast.hpp"

namespace mpisim::coll::allreduce {

Task<void> linear(Rank& rank, const CollArgs& a) {
  co_await reduce_then_bcast(rank, a, &reduce::linear, &bcast::linear);
}

}  // namespace mpisim::coll::allreduce
