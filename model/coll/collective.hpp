#pragma once
// What every collective algorithm receives: the call's arguments, already
// validated at the rank API boundary, as the standard names them.
#include <cstdint>
#include <string_view>
#include <vector>

#include "model/mpi/runtime.hpp"

namespace mpisim::coll {

using mpi::Address;
using mpi::Communicator;
using mpi::Rank;
using mpi::TypeRef;
using sim::Task;

enum class Collective { barrier, scatter, scatterv };

std::string_view collective_name(Collective c);  // "MPI_Barrier", ...

// MPI_IN_PLACE as a buffer address: a value no allocation can have.
inline constexpr Address kInPlace = -1;

struct CollArgs {
  const Communicator* comm = nullptr;
  int root = 0;
  // Send side (significant at the root for scatter(v)).
  Address sendbuf = 0;
  std::int64_t sendcount = 0;
  std::vector<std::int64_t> sendcounts, displs;
  TypeRef sendtype;
  // Receive side.
  Address recvbuf = 0;
  std::int64_t recvcount = 0;
  TypeRef recvtype;
  // The instance number of this call on its communicator (for the trace).
  std::int64_t instance = -1;
};

// Tags of the collective context, one per collective: consecutive calls on one
// communicator are kept apart by non-overtaking order.
inline constexpr int kTagBarrier = 1;
inline constexpr int kTagScatter = 2;

// Copies `count` elements of `type` at `src` to `count2` of `type2` at `dst`, both in
// the rank's own memory, as a message from the rank to itself would (the type
// signatures must match), and charges the model's local copy time.
Task<void> local_copy(Rank& rank, Address src, std::int64_t count, const TypeRef& type, Address dst,
                      std::int64_t count2, const TypeRef& type2);

}  // namespace mpisim::coll
