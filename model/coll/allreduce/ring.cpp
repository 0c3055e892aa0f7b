// Allreduce, ring (Patarasuk & Yuan, 2009): a ring reduce-scatter, then a ring
// allgather. The vector is cut into p blocks; in step s of the first phase rank r
// sends its partial block r - s - 1 to r + 1 and combines block r - s - 2 from
// r - 1; after p - 1 steps it holds block r reduced, which p - 1 more steps
// circulate. Blocks are combined in ring order, so commutative operations only.
// Any p. Cost on Hockney: 2(p-1)·α + 2·(p-1)/p·nβ + (p-1)/p·nγ.
#include "model/coll/algorithms.hpp"
#include "model/coll/allreduce/in_recvbuf.hpp"
#include "model/coll/reduce/halving.hpp"

namespace mpisim::coll::allreduce {

Task<void> ring(Rank& rank, const CollArgs& a) {
  co_await start_in_recvbuf(rank, a);
  const TypeRef& t = a.recvtype;
  const int p = a.p, me = a.me, right = (me + 1) % p, left = (me - 1 + p) % p;
  const std::int64_t ext = t->extent();
  const reduction::Offsets start = reduction::even_blocks(a.recvcount, p);
  auto at = [&](int b) { return a.recvbuf + start[static_cast<std::size_t>(b)] * ext; };
  auto len = [&](int b) { return start[static_cast<std::size_t>(b) + 1] - start[static_cast<std::size_t>(b)]; };
  auto block = [&](int b) { return ((b % p) + p) % p; };
  Scratch tmp(rank, len(0), t);
  for (int s = 0; s < p - 1; ++s) {
    const int out = block(me - s - 1), in = block(me - s - 2);
    mpi::Deferred got;
    co_await exchange(rank, a, at(out), len(out), t, right, tmp.addr(), len(in), t, left, got, *a.op, at(in), false);
    co_await combine(rank, *a.op, got, tmp.addr(), at(in), len(in), t);
  }
  for (int s = 0; s < p - 1; ++s) {
    const int out = block(me - s), in = block(me - s - 1);
    co_await sendrecv(rank, a, at(out), len(out), t, right, at(in), len(in), t, left);
  }
}

}  // namespace mpisim::coll::allreduce
