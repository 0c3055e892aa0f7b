#pragma once
// Persistent requests (MPI-4.1 §3.9, §6.13) for every front-end: what the _init
// call checked and kept, and the rules of MPI_Start and MPI_Request_free on them.
// A front-end keeps one Persistent per persistent request handle beside the
// handle's active operation (null while the request is inactive).
#include <string>

#include "model/coll/coordinator.hpp"
#include "model/coll/registry.hpp"
#include "model/mpi/runtime.hpp"

namespace mpisim::coll {

struct Persistent {
  // A collective's arguments and algorithm (MPI_Bcast_init, ...), or, when
  // algorithm is null, a point-to-point operation (MPI_Send_init, MPI_Recv_init, ...).
  CollArgs args;  // args.instance: the _init's position among the communicator's collectives
  const Algorithm* algorithm = nullptr;
  mpi::PersistentP2P p2p;
  std::uint32_t starts = 0;  // how many times MPI_Start started it (modulo 2^32)
  bool collective() const { return algorithm != nullptr; }
};

// MPI_Start on a persistent request: the request named `name` (in the words of
// the front-end, e.g. "request 'r'") must be inactive; MpiError otherwise.
void check_start(bool active, const std::string& name, const char* argument);

// MPI_Request_free on a persistent request: an active collective one may not be
// freed (§6.13); an active point-to-point one completes unseen (§3.7.3).
void check_free(const Persistent& p, bool active, const std::string& name);

// MPI_Cancel on a persistent request: it must be active (§3.8.4), and not a
// collective's (§6.13); MpiError otherwise. The rank then cancels the active operation.
void check_cancel(const Persistent& p, bool active, const std::string& name);

// MPI_Start: the operation starts anew. A collective's k-th start meets the k-th
// start of the same request (the same _init) at the other processes, in whatever
// order each process starts its requests (MPI-4.1 §6.13); it is not a new call
// among the communicator's collectives (its _init was). `algorithm` is set to its
// algorithm's name ("" for point-to-point).
Request* start(Coordinator& coordinator, mpi::Rank& rank, Persistent& p, const char** algorithm);

}  // namespace mpisim::coll
