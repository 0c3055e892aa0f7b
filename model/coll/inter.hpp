#pragma once
// What the intercommunicator algorithms share: collectives run inside one group,
// on the intercommunicator's local intracommunicator (its own contexts, so their
// messages never meet the program's or the other group's), as MPICH builds its
// intercommunicator collectives from intracommunicator ones.
#include "model/coll/collective.hpp"

namespace mpisim::coll::inter {

// The arguments of a collective of `kind` on the local intracommunicator, the
// buffers left for the caller to fill.
CollArgs local_args(const CollArgs& a, Collective kind);

// A binomial reduce, in rank order, of every group member's (sendbuf, count, type)
// into `into` at local rank 0 (not read elsewhere).
Task<void> reduce_to_leader(Rank& rank, const CollArgs& a, Address sendbuf, std::int64_t count, const TypeRef& type,
                            Address into);

// A binomial broadcast of (buf, count, type) from local rank 0 to the group.
Task<void> bcast_from_leader(Rank& rank, const CollArgs& a, Address buf, std::int64_t count, const TypeRef& type);

}  // namespace mpisim::coll::inter
