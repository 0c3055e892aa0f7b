#pragma once
// Open MPI's generic reduce (coll_base_reduce_generic) unsegmented, as its fixed
// decisions run its tree algorithms. A rank with children posts the receive from
// each next child before it waits for the one before, so at most two are under
// way. With a commutative operation the first child's data goes straight into the
// accumulator, the rank's own contribution is combined into it, then each next
// child's; otherwise the accumulator starts as the rank's own contribution and
// each child's data, in the order of the children, is combined into it from the
// left (child op accumulator). The result goes to the parent; at the tree's root
// it stays where the caller says.
#include <span>

#include "model/coll/collective.hpp"

namespace mpisim::coll::reduce {

// On a tree in the communicator's ranks (parent -1 at the tree's root): `own` is
// this rank's contribution; at the tree's root `result` receives the result, and
// `own_in_result` says the contribution is already there (MPI_IN_PLACE).
Task<void> generic(Rank& rank, const CollArgs& a, int parent, std::span<const int> children, Address own,
                   Address result, bool own_in_result);

// The same on a tree rooted at the call's root, given in ranks relative to it
// (v = (rank - root) mod p); the result goes to recvbuf at the root.
Task<void> on_tree(Rank& rank, const CollArgs& a, int parent, std::span<const int> children);

}  // namespace mpisim::coll::reduce
