// Allgather(v), recursive doubling (MPICH's choice for short and medium data on
// a power-of-two communicator).
//
// In round k, new rank v exchanges with v xor 2^k every block it holds: the
// blocks of the 2^k new ranks that share its bits above k, a contiguous range of
// ranks, so one message each way. On other p the fold (collective.hpp) first has
// each sitting-out rank hand its block to its partner and at the end receive the
// whole buffer from it. Cost on Hockney (p a power of two): lg p·α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"

namespace mpisim::coll::allgather {

Task<void> recursive_doubling(Rank& rank, const CollArgs& a) {
  co_await place_own(rank, a);
  const Fold f(a.p, a.me);
  auto all = [&] { return recv_blocks(a, 0, a.p); };
  if (f.sits_out()) {
    Span mine = recv_blocks(a, a.me, a.me + 1);
    co_await send(rank, a, mine.at, mine.count, mine.type, a.me + 1);
    Span whole = all();
    co_await recv(rank, a, whole.at, whole.count, whole.type, a.me + 1);
    co_return;
  }
  if (f.holds_pair(a.me)) {
    Span theirs = recv_blocks(a, a.me - 1, a.me);
    co_await recv(rank, a, theirs.at, theirs.count, theirs.type, a.me - 1);
  }
  // New ranks [lo, hi) hold the blocks of ranks [first(lo), first(hi)).
  auto first = [&](int nr) { return nr < f.rem ? 2 * nr : nr + f.rem; };
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    const int mine_lo = f.newrank & ~(mask - 1), theirs_lo = partner & ~(mask - 1);
    Span out = recv_blocks(a, first(mine_lo), first(mine_lo + mask));
    Span in = recv_blocks(a, first(theirs_lo), first(theirs_lo + mask));
    co_await sendrecv(rank, a, out.at, out.count, out.type, f.real(partner), in.at, in.count, in.type,
                      f.real(partner));
  }
  if (f.holds_pair(a.me)) {
    Span whole = all();
    co_await send(rank, a, whole.at, whole.count, whole.type, a.me - 1);
  }
}

}  // namespace mpisim::coll::allgather
