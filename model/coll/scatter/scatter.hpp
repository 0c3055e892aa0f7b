#pragma once
#include "model/coll/collective.hpp"

namespace mpisim::coll::scatter {
using mpi::Request;
Task<void> linear(Rank& rank, const CollArgs& a);
}  // namespace mpisim::coll::scatter
