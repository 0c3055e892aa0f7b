#pragma once
// An allreduce as a reduce to rank 0 followed by a bcast from rank 0, each with
// the algorithm given (the reduce_bcast and linear allreduces). With MPI_IN_PLACE
// the reduce is in place at rank 0 only; elsewhere recvbuf is the contribution.
#include "model/coll/collective.hpp"

namespace mpisim::coll::allreduce {

Task<void> reduce_then_bcast(Rank& rank, const CollArgs& a, Task<void> (*reduce)(Rank&, const CollArgs&),
                             Task<void> (*bcast)(Rank&, const CollArgs&));

}  // namespace mpisim::coll::allreduce
