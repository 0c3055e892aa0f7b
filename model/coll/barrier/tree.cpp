// Barrier, tree (Open MPI's tuned algorithm 6): up a binomial tree to rank 0 and
// back down it. On the way up, for jump = 1, 2, 4, ... below the power of two
// ≥ p, a rank whose partner rank ^ jump has no bit below jump receives from a
// higher partner or sends to a lower one; on the way down the same pairs in the
// reverse order, the messages going the other way. Empty messages. Any p.
// Cost on Hockney: 2h·α, h the tree's height: the most bits set in a rank below p
// (lg p for a power of two).
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::barrier {

Task<void> tree(Rank& rank, const CollArgs& a) {
  static const TypeRef byte = mpi::predefined_type("MPI_BYTE");
  const int p = a.p, me = a.me;
  int depth = 1;
  while (depth < p) depth <<= 1;
  for (int jump = 1; jump < depth; jump <<= 1) {
    const int partner = me ^ jump;
    if ((partner & (jump - 1)) != 0 || partner >= p) continue;
    if (partner > me) co_await recv(rank, a, 0, 0, byte, partner);
    else co_await send(rank, a, 0, 0, byte, partner);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    const int partner = me ^ jump;
    if ((partner & (jump - 1)) != 0 || partner >= p) continue;
    if (partner > me) co_await send(rank, a, 0, 0, byte, partner);
    else co_await recv(rank, a, 0, 0, byte, partner);
  }
}

}  // namespace mpisim::coll::barrier
