// Bcast, binary tree (Open MPI's binary_tree, its tuned algorithm 5, unsegmented
// as its fixed decisions run it), on Open MPI's binary tree (model/coll/
// binary_tree.hpp). A rank receives the whole buffer from its parent, then posts
// its sends to both children at once and waits for them. Any p, any root, any
// datatype. Cost on Hockney for a complete tree of height h (p = 2^(h+1) - 1):
// h·(α + 2nβ), the second child of each level waiting for its sibling's transfer.
#include "model/coll/algorithms.hpp"
#include "model/coll/binary_tree.hpp"

namespace mpisim::coll::bcast {

Task<void> binary_tree(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const BinaryTree t = binary_tree_of((a.me - a.root + p) % p, p);
  if (t.parent >= 0) co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, (t.parent + a.root) % p);
  Requests sends;
  for (int i = 0; i < t.count; ++i)
    sends.push_back(post_send(rank, a, a.recvbuf, a.recvcount, a.recvtype, (t.children[i] + a.root) % p));
  co_await rank.wait_all(sends);
}

}  // namespace mpisim::coll::bcast
