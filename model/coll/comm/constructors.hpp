#pragma once
// The communicator constructors (MPI-4.1 §7.4.2, §7.6.2), run as collectives.
//
// Each member deposits its arguments (World::Agreement), then the members exchange
// messages as a real MPI does (an allgather of the arguments and a context
// agreement, or the leaders' exchange of an intercommunicator), so the time and
// the traffic are simulated; once the exchange is over, every member has
// deposited, and the first to get there computes the new communicators for all.
// Members that disagree (another collective in the same position, a different
// group, an inconsistent leader) are diagnosed.
#include <string>

#include "model/mpi/runtime.hpp"

namespace mpisim::coll::comm {

using mpi::Communicator;
using mpi::GroupRef;
using mpi::Rank;
using sim::Task;

// `seq` is the position of this call among the collectives on `comm` at this
// rank; `label` names the new communicator in traces. Each returns the caller's new
// communicator, or null for MPI_COMM_NULL.
Task<const Communicator*> dup(Rank& rank, const Communicator& comm, std::int64_t seq, std::string label);
Task<const Communicator*> split(Rank& rank, const Communicator& comm, std::int64_t seq, int color, int key,
                                std::string label);
Task<const Communicator*> create(Rank& rank, const Communicator& comm, std::int64_t seq, GroupRef group,
                                 std::string label);
Task<const Communicator*> create_group(Rank& rank, const Communicator& comm, GroupRef group, int tag,
                                       std::string label);
Task<const Communicator*> intercomm_create(Rank& rank, const Communicator& local_comm, std::int64_t seq,
                                           int local_leader, const Communicator* peer_comm, int remote_leader,
                                           int tag, std::string label);
Task<const Communicator*> intercomm_merge(Rank& rank, const Communicator& inter, std::int64_t seq, bool high,
                                          std::string label);

}  // namespace mpisim::coll::comm
