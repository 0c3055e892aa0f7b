// Bcast, binary tree (Open MPI's binary_tree, its tuned algorithm 5, unsegmented
// as its fixed decisions run it). Relative rank v = (rank - root) mod p sits on
// level l of a complete binary tree filled level by level (v < 2^(l+1) - 1); its
// children are v + 2^l and v + 2^(l+1), its parent the node above it whose
// children they are (for v = 5 on level 2: 5 - 2 - 2 = 1; 1's children are 3 and
// 5). A rank receives the whole buffer from its parent, then posts its sends to
// both children at once and waits for them. Any p, any root, any datatype.
// Cost on Hockney for a complete tree of height h (p = 2^(h+1) - 1): h·(α + 2nβ),
// the second child of each level waiting for its sibling's transfer.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::bcast {

Task<void> binary_tree(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  int level = 0, through = 1;  // v's level; the nodes on levels 0 .. level
  while (through <= v) through += 1 << ++level;
  const int delta = 1 << level;  // nodes on v's level
  if (v > 0) {
    // Up from v by half of this level's width until above the levels before it.
    const int above = delta - 1;  // nodes on the levels above mine
    int parent = v;
    if (parent < 2) parent = 0;
    else
      while (parent >= above) parent -= delta / 2;
    co_await recv(rank, a, a.recvbuf, a.recvcount, a.recvtype, (parent + a.root) % p);
  }
  Requests sends;
  for (int i = 1; i <= 2; ++i) {
    const long child = static_cast<long>(v) + static_cast<long>(delta) * i;
    if (child >= p) break;
    sends.push_back(post_send(rank, a, a.recvbuf, a.recvcount, a.recvtype, static_cast<int>((child + a.root) % p)));
  }
  co_await rank.wait_all(sends);
}

}  // namespace mpisim::coll::bcast
