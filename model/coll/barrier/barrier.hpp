#pragma once
#include "model/coll/collective.hpp"

namespace mpisim::coll::barrier {
using mpi::Request;
Task<void> dissemination(Rank& rank, const CollArgs& a);
}  // namespace mpisim::coll::barrier
