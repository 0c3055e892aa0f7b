// Bcast, split binary tree (Open MPI's split_binary_tree, its tuned algorithm 4,
// unsegmented as its fixed decisions run it), on Open MPI's binary tree
// (model/coll/binary_tree.hpp). The buffer is cut in two halves, the first of
// ceil(count/2) elements. The root sends the first half to its first child and the
// second to its second; each half travels down its own subtree (relative ranks v
// odd hold the first, even the second), every rank receiving its half whole and
// sending it to its children one after the other. Then each rank v swaps halves
// with its partner in the other subtree, v + 1 for an odd v and v - 1 for an even
// one; when p is even, rank p - 1 (odd, without a partner) gets the second half
// from the root instead. With fewer than two elements it is the chain. Any p, any
// root, any datatype. Cost on Hockney for a complete tree of height h
// (p = 2^(h+1) - 1, odd) and an even count: h·(α + nβ) + α + nβ/2, each second
// child's half leaving after its sibling's, then the swap.
#include "model/coll/algorithms.hpp"
#include "model/coll/binary_tree.hpp"

namespace mpisim::coll::bcast {

Task<void> split_binary_tree(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  if (p == 1) co_return;
  const std::int64_t count = a.recvcount;
  const std::int64_t half[2] = {(count + 1) / 2, count / 2};
  if (half[1] == 0) {  // too small to split: Open MPI runs its chain
    co_await chain(rank, a);
    co_return;
  }
  const int v = (a.me - a.root + p) % p;
  const auto real = [&](int w) { return (w % p + a.root) % p; };
  const Address part[2] = {a.recvbuf, a.recvbuf + half[0] * a.recvtype->extent()};
  const int mine = v == 0 ? 1 : (v + 1) % 2;  // the half this rank's subtree carries (the root: "the second")
  const BinaryTree t = binary_tree_of(v, p);
  if (v == 0) {
    for (int i = 0; i < t.count && i < 2; ++i)
      co_await send(rank, a, part[i], half[i], a.recvtype, real(t.children[i]));
  } else {
    co_await recv(rank, a, part[mine], half[mine], a.recvtype, real(t.parent));
    for (int i = 0; i < t.count; ++i) co_await send(rank, a, part[mine], half[mine], a.recvtype, real(t.children[i]));
  }
  // The other half, from the partner in the other subtree.
  const int other = 1 - mine;
  if (p % 2 == 0 && v == 0) {
    co_await send(rank, a, part[1], half[1], a.recvtype, real(p - 1));
  } else if (p % 2 == 0 && v == p - 1) {
    co_await recv(rank, a, part[1], half[1], a.recvtype, a.root);
  } else if (v != 0) {
    const int partner = mine == 0 ? v + 1 : v - 1;
    co_await sendrecv(rank, a, part[mine], half[mine], a.recvtype, real(partner), part[other], half[other], a.recvtype,
                      real(partner));
  }
}

}  // namespace mpisim::coll::bcast
