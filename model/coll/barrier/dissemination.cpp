// Barrier by dissemination (Hensgen, Finkel & Manber, 1988).
//
// In round k (k = 0, 1, ...) rank r sends an empty message to r + 2^k and receives
// one from r - 2^k (mod p). After ceil(lg p) rounds every rank has heard, directly
// or through others, from every rank, so no rank leaves before all have entered.
// Works for any p. Cost: ceil(lg p)·α on Hockney; ceil(lg p)·(2o + L) on LogGOPS.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> dissemination(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const int p = a.p, me = a.me;
  for (int dist = 1; dist < p; dist *= 2)
    co_await sendrecv(rank, a, 0, 0, byte, (me + dist) % p, 0, 0, byte, (me - dist + p) % p);
}

}  // namespace mpisim::coll::barrier
