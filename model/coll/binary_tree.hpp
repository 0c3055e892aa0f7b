#pragma once
// Open MPI's binary tree (its coll_base_topo build_tree with fanout 2), in
// relative ranks v = (rank - root) mod p: filled level by level, level l holding
// v = 2^l - 1 .. 2^(l+1) - 2; v's children are v + 2^l and v + 2^(l+1) (those
// below p), its parent the node above whose children it is. The bcast and reduce
// algorithms of that name (Open MPI's binary_tree and binary) run on it.
namespace mpisim::coll {

struct BinaryTree {
  int parent = -1;  // -1 at the root
  int children[2] = {-1, -1};
  int count = 0;  // how many children
};

inline BinaryTree binary_tree_of(int v, int p) {
  BinaryTree t;
  int level = 0, through = 1;  // v's level; the nodes on levels 0 .. level
  while (through <= v) through += 1 << ++level;
  const int width = 1 << level;  // nodes on v's level
  if (v > 0) {
    int parent = v;
    if (parent < 2) parent = 0;
    else
      while (parent >= width - 1) parent -= width / 2;  // width - 1: the nodes above v's level
    t.parent = parent;
  }
  for (int i = 1; i <= 2; ++i) {
    const long child = static_cast<long>(v) + static_cast<long>(width) * i;
    if (child >= p) break;
    t.children[t.count++] = static_cast<int>(child);
  }
  return t;
}

}  // namespace mpisim::coll
