#pragma once
// The pieces the reduce-scatter based reductions share (Rabenseifner's reduce
// and allreduce, the recursive-halving reduce-scatter), written once:
//  - fold_in: the fold of collective.hpp for a reduction: each sitting-out rank
//    sends its vector to its odd partner, which combines it (lower rank first);
//  - halving: recursive halving among the pof2 remaining ranks: the vector is cut
//    into pof2 blocks of elements; with distance pof2/2, pof2/4, ..., 1 each rank
//    sends the half it gives up and combines the half it keeps, so that new rank v
//    ends with block v fully reduced. lg pof2 steps, (pof2-1)/pof2 of the data;
//  - doubling: the mirror (recursive-doubling allgather of the blocks);
//  - gather_to: a binomial gather of the blocks to one new rank.
// `start` holds pof2 + 1 element offsets: block b is [start[b], start[b+1]).
#include <vector>

#include "model/coll/collective.hpp"

namespace mpisim::coll::reduction {

using Offsets = std::vector<std::int64_t>;

// Equal blocks of `count` elements among `n` (the first count mod n one longer).
Offsets even_blocks(std::int64_t count, int n);

Task<void> fold_in(Rank& rank, const CollArgs& a, const Fold& f, Address acc, Address tmp, std::int64_t count,
                   const TypeRef& type);
// halving receives each step's kept blocks at `tmp`, laid out from the start of
// the half the caller keeps first (the later halves lie within it): scratch of
// kept_first(f, start) elements. The first step reads `first_from`: acc, or a
// buffer of acc's layout holding the vector that acc does not hold yet (the
// first step then combines into acc from it).
Task<void> halving(Rank& rank, const CollArgs& a, const Fold& f, Address acc, Address tmp, const Offsets& start,
                   const TypeRef& type, Address first_from);
std::int64_t kept_first(const Fold& f, const Offsets& start);
Task<void> doubling(Rank& rank, const CollArgs& a, const Fold& f, Address acc, const Offsets& start,
                    const TypeRef& type);
Task<void> gather_to(Rank& rank, const CollArgs& a, const Fold& f, int newroot, Address acc, const Offsets& start,
                     const TypeRef& type);

}  // namespace mpisim::coll::reduction
