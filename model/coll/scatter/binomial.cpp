// Scatter, binomial tree (MPICH's default).
//
// Relative rank v = (rank - root) mod p owns the blocks of the subtree below it,
// relative ranks [v, v + 2^k) (2^k its lowest set bit, clipped to p): it receives
// them at once from its parent, forwards each child's range (one send after the
// other, the largest subtree first) and keeps the first.
// Blocks travel packed (MPI_PACKED), in relative order: the root first rotates its
// send buffer so that block 0 is its own. A leaf receives straight into recvbuf.
// Any p, any root. Cost on Hockney: ceil(lg p)·α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::scatter {

Task<void> binomial(Rank& rank, const CollArgs& a) {
  static const TypeRef packed = mpi::predefined_type("MPI_PACKED");
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  const bool root = v == 0;
  const std::int64_t nb = root ? a.sendcount * a.sendtype->size() : a.recvcount * a.recvtype->size();
  int low = 1;  // v's lowest set bit: its subtree has min(low, p - v) ranks
  while (low < p && !(v & low)) low <<= 1;
  const int subtree = root ? p : std::min(low, p - v);
  if (subtree == 1) {  // a leaf
    if (!root) co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, (a.me - low + p) % p);
    else if (a.recvbuf != kInPlace)
      co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype);
    co_return;
  }
  Scratch tmp(rank, subtree * nb, packed);
  if (root) {
    // Blocks root..p-1, then 0..root-1: relative order.
    const std::int64_t ext = a.sendcount * a.sendtype->extent();
    co_await local_copy(rank, a.sendbuf + a.root * ext, (p - a.root) * a.sendcount, a.sendtype, tmp.addr(),
                        (p - a.root) * nb, packed);
    if (a.root > 0)
      co_await local_copy(rank, a.sendbuf, a.root * a.sendcount, a.sendtype, tmp.addr() + (p - a.root) * nb,
                          a.root * nb, packed);
  } else {
    co_await recv(rank, a, tmp.addr(), subtree * nb, packed, (a.me - low + p) % p);
  }
  // To the children one after the other, the largest subtree first (as MPICH):
  // on a shared link they do not compete with each other.
  for (int mask = low >> 1; mask > 0; mask >>= 1)
    if (v + mask < p) {
      const int n = std::min(mask, p - v - mask);
      co_await send(rank, a, tmp.addr() + mask * nb, n * nb, packed, (a.me + mask) % p);
    }
  if (!(root && a.recvbuf == kInPlace))
    co_await local_copy(rank, tmp.addr(), nb, packed, a.recvbuf, a.recvcount, a.recvtype);
}

}  // namespace mpisim::coll::scatter
