// Allreduce, recursive doubling (MPICH's short-message allreduce).
//
// In round k new rank v exchanges its whole partial result with v xor 2^k and
// combines, the lower rank's operand first; after lg pof2 rounds all hold the
// result. The fold (collective.hpp) handles other p: sitting-out ranks hand
// their data in first and receive the result at the end. Rank order is kept, so
// any operation. Cost on Hockney (p a power of two): lg p·(α + nβ + nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/allreduce/in_recvbuf.hpp"
#include "model/coll/reduce/halving.hpp"

namespace mpisim::coll::allreduce {

Task<void> recursive_doubling(Rank& rank, const CollArgs& a) {
  co_await start_in_recvbuf(rank, a);
  const TypeRef& t = a.recvtype;
  const std::int64_t n = a.recvcount;
  const Address acc = a.recvbuf;
  Scratch tmp(rank, n, t);
  const Fold f(a.p, a.me);
  co_await reduction::fold_in(rank, a, f, acc, tmp.addr(), n, t);
  if (f.sits_out()) {
    co_await recv(rank, a, acc, n, t, a.me + 1);
    co_return;
  }
  for (int mask = 1; mask < f.pof2; mask <<= 1) {
    const int partner = f.newrank ^ mask;
    mpi::Deferred got;
    // The lower rank's operand first (computed at each use: a frame byte more costs
    // a million ranks a pool block each).
    co_await exchange(rank, a, acc, n, t, f.real(partner), tmp.addr(), n, t, f.real(partner), got, *a.op, acc,
                      partner > f.newrank);
    co_await combine(rank, *a.op, got, tmp.addr(), acc, n, t, partner > f.newrank);
  }
  if (f.holds_pair(a.me)) co_await send(rank, a, acc, n, t, a.me - 1);
}

}  // namespace mpisim::coll::allreduce
