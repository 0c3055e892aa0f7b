#pragma once
// What the SMP-aware (hierarchical) algorithms share: a communicator's members by
// node (mpi::World::NodeHierarchy: MPICH's node_comm and node_roots_comm), and the
// arguments of a collective run on one of those communicators with the library's
// default selection, as MPICH's SMP algorithms call MPIR_Bcast, MPIR_Reduce, ...
// on them.
#include "model/coll/collective.hpp"

namespace mpisim::coll::smp {

using Hierarchy = mpi::World::NodeHierarchy;

const Hierarchy& hierarchy(Rank& rank, const CollArgs& a);

// Where rank r of the communicator is: its node's index, its rank among the node's
// members, the node's communicator (null for a node of one member) and its size.
struct Place {
  int node = 0, node_rank = 0, node_size = 1;
  const Communicator* members = nullptr;
};
Place place_of(const Hierarchy& h, int r);
inline int nodes(const Hierarchy& h) { return static_cast<int>(h.leader.size()); }

// The arguments of a collective of `kind` on `comm` (a node's or the leaders'
// communicator), where the caller is rank `me` of `p`; the buffers, counts and
// types left for the caller to fill.
CollArgs on(const CollArgs& a, Collective kind, const Communicator& comm, int me, int p);

// Runs `sub` (kept in the coroutine's frame) with the algorithm the library's default
// selection gives it.
Task<void> run_auto(Rank& rank, CollArgs sub);

// A bcast of (buf, count, type) from `root` on `comm`, where the caller is `me` of `p`.
Task<void> bcast(Rank& rank, const CollArgs& a, const Communicator& comm, int me, int p, int root, Address buf,
                 std::int64_t count, const TypeRef& type);

}  // namespace mpisim::coll::smp
