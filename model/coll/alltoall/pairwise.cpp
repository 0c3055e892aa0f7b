// Alltoall(v/w), pairwise exchange (MPICH's long-message alltoall).
//
// p - 1 steps; in step i rank r sends its block for r xor i to r xor i and
// receives that rank's block for it (p a power of two), or sends to r + i and
// receives from r - i (other p). One exchange at a time: no port ever carries two
// messages. Own block by a local copy. Any p; v and w forms; MPI_IN_PLACE.
// Cost on Hockney: (p-1)·(α + nβ/p), n the bytes each rank sends.
#include "model/coll/algorithms.hpp"
#include "model/coll/alltoall/source.hpp"

namespace mpisim::coll::alltoall {

Task<void> pairwise(Rank& rank, const CollArgs& a) {
  Source src(rank, a);
  co_await src.open();
  const int p = a.p, me = a.me;
  if (!a.in_place())
    co_await local_copy(rank, src.at(me), src.count(me), src.type(me), a.recvbuf + a.recv_offset(me), a.recv_count(me),
                        a.recv_type(me));
  const bool pof2 = (p & (p - 1)) == 0;
  for (int i = 1; i < p; ++i) {
    const int to = pof2 ? me ^ i : (me + i) % p;
    const int from = pof2 ? me ^ i : (me - i + p) % p;
    co_await sendrecv(rank, a, src.at(to), src.count(to), src.type(to), to, a.recvbuf + a.recv_offset(from),
                      a.recv_count(from), a.recv_type(from), from);
  }
}

}  // namespace mpisim::coll::alltoall
