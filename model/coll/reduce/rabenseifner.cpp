// Reduce, Rabenseifner (MPICH's long-message reduce): a reduce-scatter by
// recursive halving, then a binomial gather of the reduced blocks to the root.
//
// On other p the fold (collective.hpp) first halves the field; if the root sits
// out, its partner gathers and hands it the result. Commutative operations only
// (the halving combines blocks in different orders). Any p.
// Cost on Hockney (p a power of two): 2·lg p·α + 2·(p-1)/p·nβ + (p-1)/p·nγ.
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/halving.hpp"

namespace mpisim::coll::reduce {

Task<void> rabenseifner(Rank& rank, const CollArgs& a) {
  const TypeRef& t = a.sendtype;
  const std::int64_t n = a.sendcount;
  const Fold f(a.p, a.me);
  const reduction::Offsets start = reduction::even_blocks(n, f.pof2);
  // A pair's holder receives its partner's whole vector first; the halving needs the half it keeps.
  Scratch acc(rank, n, t), tmp(rank, f.holds_pair(a.me) ? n : reduction::kept_first(f, start), t);
  const Address mine = a.me == a.root && a.in_place() ? a.recvbuf : a.sendbuf;
  // The halving's first step reads the vector, sends half and writes the other
  // half combined: when nothing else can see the buffers, it reads the caller's,
  // and the copy to acc only takes its time.
  Address first_from = acc.addr();
  if (f.pof2 > 1 && !f.sits_out() && !f.holds_pair(a.me) && unseen_until_return(rank, a)) {
    co_await local_copy_unmoved(rank, mine, n, t, acc.addr());
    first_from = mine;
  } else {
    co_await local_copy(rank, mine, n, t, acc.addr(), n, t);
  }
  co_await reduction::fold_in(rank, a, f, acc.addr(), tmp.addr(), n, t);
  const Fold at_root(a.p, a.root);
  const bool root_sits_out = at_root.sits_out();
  const int newroot = root_sits_out ? Fold(a.p, a.root + 1).newrank : at_root.newrank;
  if (!f.sits_out()) {
    co_await reduction::halving(rank, a, f, acc.addr(), tmp.addr(), start, t, first_from);
    co_await reduction::gather_to(rank, a, f, newroot, acc.addr(), start, t);
  }
  if (root_sits_out) {
    if (a.me == a.root + 1) co_await send(rank, a, acc.addr(), n, t, a.root);
    if (a.me == a.root) co_await recv(rank, a, a.recvbuf, n, t, a.root + 1);
    co_return;
  }
  if (a.me == a.root) co_await local_copy(rank, acc.addr(), n, t, a.recvbuf, n, t);
}

}  // namespace mpisim::coll::reduce
