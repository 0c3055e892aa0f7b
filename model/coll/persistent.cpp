#include "model/coll/persistent.hpp"

#include "model/mpi/error.hpp"

namespace mpisim::coll {

void check_start(bool active, const std::string& name, const char* argument) {
  if (active)
    throw mpi::MpiError(mpi::ErrorClass::request, argument,
                        "persistent " + name + " is already active: it was started and not completed",
                        "MPI-4.1 §3.9: MPI_Start takes an inactive request; complete it (MPI_Wait, MPI_Test) first");
}

void check_free(const Persistent& p, bool active, const std::string& name) {
  if (active && p.collective())
    throw mpi::MpiError(mpi::ErrorClass::request, "request",
                        "persistent " + name + " is active (started by MPI_Start and not completed)",
                        "MPI-4.1 §6.13: a persistent collective request may be freed only when it is inactive");
}

void check_cancel(const Persistent& p, bool active, const std::string& name) {
  if (p.collective())
    throw mpi::MpiError(mpi::ErrorClass::request, "request", "the request is a persistent collective's (" + name + ")",
                        "MPI-4.1 §6.13: calling MPI_Cancel on a persistent collective request is erroneous");
  if (!active)
    throw mpi::MpiError(mpi::ErrorClass::request, "request",
                        "persistent " + name + " is inactive: it was not started, or its start was completed",
                        "MPI-4.1 §3.8.4: MPI_Cancel takes an active request");
}

Request* start(Coordinator& coordinator, mpi::Rank& rank, Persistent& p, const char** algorithm) {
  if (!p.collective()) {
    *algorithm = "";
    return rank.start(p.p2p);
  }
  CollArgs a = p.args;
  a.start = p.starts++;
  *algorithm = p.algorithm->name.data();
  return coordinator.start(rank, std::move(a), *p.algorithm);
}

}  // namespace mpisim::coll
