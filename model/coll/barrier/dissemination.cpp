// Barrier by dissemination (Hensgen, Finkel & Manber, 1988).
//
// In round k (k = 0, 1, ...) rank r sends an empty message to r + 2^k and receives
// one from r - 2^k (mod p). After ceil(lg p) rounds every rank has heard, directly
// or through others, from every rank, so no rank leaves before all have entered.
// Works for any p. Cost: ceil(lg p)·α on Hockney; ceil(lg p)·(2o + L) on LogGOPS.
#include "model/coll/barrier/barrier.hpp"

namespace mpisim::coll::barrier {

Task<void> dissemination(Rank& rank, const CollArgs& a) {
  const Communicator& comm = *a.comm;
  const int p = comm.size();
  const int me = comm.rank_of(rank.id(), rank.id());
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  mpi::TypedBuffer empty{&rank.memory(), 0, 0, byte.get()};
  for (int dist = 1; dist < p; dist *= 2) {
    Request* reqs[2] = {
        rank.irecv(empty, byte, (me - dist + p) % p, kTagBarrier, comm, mpi::Context::collective),
        rank.isend(empty, byte, (me + dist) % p, kTagBarrier, comm, mpi::Context::collective, a.instance),
    };
    co_await rank.wait_all(reqs);
  }
}

}  // namespace mpisim::coll::barrier
