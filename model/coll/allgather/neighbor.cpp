// Allgather(v), neighbor exchange (Open MPI's "neighbor", its tuned algorithm 5
// for MPI_Allgather and 4 for MPI_Allgatherv; Chen et al., 2005). For an even p:
// an even rank r pairs with r + 1 and then r - 1 alternately, an odd one with r - 1
// and then r + 1. In the first step a rank exchanges its own block with its first
// neighbour; in each of the p/2 - 1 steps after it sends the pair of blocks (2k,
// 2k + 1) it received last (its own pair first) and receives the pair two further
// round the ring in its direction. An odd p runs the ring, as Open MPI falls back.
// Cost on Hockney (p even): (p/2)·α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"

namespace mpisim::coll::allgather {

Task<void> neighbor(Rank& rank, const CollArgs& a) {
  const int p = a.p, me = a.me;
  if (p % 2 != 0) {
    co_await ring(rank, a);
    co_return;
  }
  co_await place_own(rank, a);
  const bool even = me % 2 == 0;
  const int neighbour[2] = {even ? (me + 1) % p : (me - 1 + p) % p, even ? (me - 1 + p) % p : (me + 1) % p};
  const int step[2] = {even ? 2 : -2, even ? -2 : 2};
  int recv_from[2] = {even ? me : neighbour[0], even ? me : neighbour[0]};
  const Span own = recv_blocks(a, me, me + 1), first = recv_blocks(a, neighbour[0], neighbour[0] + 1);
  co_await sendrecv(rank, a, own.at, own.count, own.type, neighbour[0], first.at, first.count, first.type, neighbour[0]);
  int send_from = even ? me : recv_from[0];
  for (int i = 1; i < p / 2; ++i) {
    const int parity = i % 2;
    recv_from[parity] = (recv_from[parity] + step[parity] + p) % p;
    const Span out = recv_blocks(a, send_from, send_from + 2), in = recv_blocks(a, recv_from[parity], recv_from[parity] + 2);
    co_await sendrecv(rank, a, out.at, out.count, out.type, neighbour[parity], in.at, in.count, in.type,
                      neighbour[parity]);
    send_from = recv_from[parity];
  }
}

}  // namespace mpisim::coll::allgather
