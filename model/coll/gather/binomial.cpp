// Gather, binomial tree (MPICH's default): the mirror of the binomial scatter.
//
// Relative rank v = (rank - root) mod p collects the blocks of its subtree,
// relative ranks [v, v + 2^k) (2^k its lowest set bit, clipped to p), packed in
// relative order: its own first, then each child's range as it arrives; then it
// sends them to its parent in one message. A leaf sends straight from sendbuf.
// The root finally unrotates the blocks into recvbuf. Any p, any root.
// Cost on Hockney: ceil(lg p)·α + (p-1)/p·nβ.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::gather {

Task<void> binomial(Rank& rank, const CollArgs& a) {
  static const TypeRef packed = mpi::predefined_type("MPI_PACKED");
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  const bool root = v == 0;
  const std::int64_t nb = root ? a.recvcount * a.recvtype->size() : a.sendcount * a.sendtype->size();
  int low = 1;
  while (low < p && !(v & low)) low <<= 1;
  const int subtree = root ? p : std::min(low, p - v);
  const int parent = (a.me - low + p) % p;
  if (subtree == 1) {
    if (!root) co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, parent);
    else if (!a.in_place())
      co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype);
    co_return;
  }
  Scratch tmp(rank, subtree * nb, packed);
  if (root && a.in_place())
    co_await local_copy(rank, a.recvbuf + a.recv_offset(a.me), a.recvcount, a.recvtype, tmp.addr(), nb, packed);
  else
    co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, tmp.addr(), nb, packed);
  Requests reqs;
  for (int mask = 1; mask < low && v + mask < p; mask <<= 1) {
    const int n = std::min(mask, p - v - mask);
    reqs.push_back(post_recv(rank, a, tmp.addr() + mask * nb, n * nb, packed, (a.me + mask) % p));
  }
  co_await rank.wait_all(reqs);
  if (!root) {
    co_await send(rank, a, tmp.addr(), subtree * nb, packed, parent);
    co_return;
  }
  const std::int64_t ext = a.recvcount * a.recvtype->extent();
  co_await local_copy(rank, tmp.addr(), (p - a.root) * nb, packed, a.recvbuf + a.root * ext,
                      (p - a.root) * a.recvcount, a.recvtype);
  if (a.root > 0)
    co_await local_copy(rank, tmp.addr() + (p - a.root) * nb, a.root * nb, packed, a.recvbuf, a.root * a.recvcount,
                        a.recvtype);
}

}  // namespace mpisim::coll::gather
