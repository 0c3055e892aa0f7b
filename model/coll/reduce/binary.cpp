// Reduce, binary tree (Open MPI's binary, its tuned algorithm 4, unsegmented as
// its fixed decisions run it): Open MPI's generic reduce (reduce/tree.hpp) on its
// binary tree rooted at the root (model/coll/binary_tree.hpp). Commutative
// operations only (Open MPI runs another tree for the others).
// Cost on Hockney for a complete tree of height h (p = 2^(h+1) - 1):
// h·(α + nβ + 2nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/binary_tree.hpp"
#include "model/coll/reduce/tree.hpp"

namespace mpisim::coll::reduce {

Task<void> binary(Rank& rank, const CollArgs& a) {
  const BinaryTree t = binary_tree_of((a.me - a.root + a.p) % a.p, a.p);
  co_await on_tree(rank, a, t.parent, std::span<const int>(t.children, static_cast<std::size_t>(t.count)));
}

}  // namespace mpisim::coll::reduce
