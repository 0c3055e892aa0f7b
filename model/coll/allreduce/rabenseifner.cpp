// Allreduce, Rabenseifner (MPICH's long-message allreduce): a reduce-scatter by
// recursive halving, then a recursive-doubling allgather of the reduced blocks.
//
// The fold (collective.hpp) handles other p. Commutative operations only.
// Cost on Hockney (p a power of two): 2·lg p·α + 2·(p-1)/p·nβ + (p-1)/p·nγ.
#include "model/coll/algorithms.hpp"
#include "model/coll/allreduce/in_recvbuf.hpp"
#include "model/coll/reduce/halving.hpp"

namespace mpisim::coll::allreduce {

Task<void> rabenseifner(Rank& rank, const CollArgs& a) {
  const TypeRef& t = a.recvtype;
  const std::int64_t n = a.recvcount;
  const Address acc = a.recvbuf;
  const Fold f(a.p, a.me);
  const reduction::Offsets start = reduction::even_blocks(n, f.pof2);
  // The halving's first step reads the vector, sends half and writes the other
  // half combined: when nothing else can see recvbuf, it reads sendbuf, and the
  // copy to recvbuf only takes its time.
  Address first_from = acc;
  if (f.pof2 > 1 && !a.in_place() && !f.sits_out() && !f.holds_pair(a.me) && unseen_until_return(rank, a)) {
    co_await local_copy_unmoved(rank, a.sendbuf, n, t, acc);
    first_from = a.sendbuf;
  } else {
    co_await start_in_recvbuf(rank, a);
  }
  // A pair's holder receives its partner's whole vector first; the halving needs the half it keeps.
  Scratch tmp(rank, f.holds_pair(a.me) ? n : reduction::kept_first(f, start), t);
  co_await reduction::fold_in(rank, a, f, acc, tmp.addr(), n, t);
  if (f.sits_out()) {
    co_await recv(rank, a, acc, n, t, a.me + 1);
    co_return;
  }
  co_await reduction::halving(rank, a, f, acc, tmp.addr(), start, t, first_from);
  co_await reduction::doubling(rank, a, f, acc, start, t);
  if (f.holds_pair(a.me)) co_await send(rank, a, acc, n, t, a.me - 1);
}

}  // namespace mpisim::coll::allreduce
