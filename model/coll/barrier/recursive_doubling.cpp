// Barrier, recursive doubling (Open MPI's tuned algorithm 3). With q the largest
// power of two ≤ p, ranks q .. p-1 first exchange an empty message with rank - q
// (which only receives it), the first q ranks then exchange with rank ^ 2^k for
// k = 0 .. lg q - 1, and last each rank r < p - q releases rank r + q with a
// synchronous empty send (complete once received, as Open MPI sends it).
// Any p. Cost on Hockney: lg p·α for p a power of two (a synchronous send is
// complete when it arrives at a posted receive: mpisim models no acknowledgement).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> recursive_doubling(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const int p = a.p, me = a.me;
  if (p == 1) co_return;
  int q = 1;
  while (q * 2 <= p) q *= 2;
  if (q != p) {
    if (me >= q) co_await sendrecv(rank, a, 0, 0, byte, me - q, 0, 0, byte, me - q);
    else if (me < p - q) co_await recv(rank, a, 0, 0, byte, me + q);
  }
  if (me < q)
    for (int mask = 1; mask < q; mask <<= 1) co_await sendrecv(rank, a, 0, 0, byte, me ^ mask, 0, 0, byte, me ^ mask);
  if (q != p && me < p - q) co_await ssend(rank, a, 0, 0, byte, me + q);
}

}  // namespace mpisim::coll::barrier
