// Reduce, chain (Open MPI's chain and pipeline, its tuned algorithms 2 and 3,
// unsegmented as its fixed decisions run them: with no fan-out given its chain has
// one, so both are one chain): Open MPI's generic reduce (reduce/tree.hpp) on the
// chain root ← root + 1 ← ... ← root + p - 1, each rank combining its
// contribution into what the next one sent and passing it on. Commutative
// operations only (combined in chain order from the far end).
// Cost on Hockney: (p-1)·(α + nβ + nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/tree.hpp"

namespace mpisim::coll::reduce {

Task<void> chain(Rank& rank, const CollArgs& a) {
  const int v = (a.me - a.root + a.p) % a.p;
  const int next[1] = {v + 1};
  co_await on_tree(rank, a, v - 1, std::span<const int>(next, v + 1 < a.p ? 1 : 0));
}

}  // namespace mpisim::coll::reduce
