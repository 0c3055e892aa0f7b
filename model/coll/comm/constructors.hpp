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
// MPI_Cart_create, MPI_Cart_sub, MPI_Graph_create (`call`): a split of comm
// (color MPI_UNDEFINED: MPI_COMM_NULL; ranked by key) whose communicators carry the
// topology their members pass (equal within a color).
Task<const Communicator*> topology_split(Rank& rank, const Communicator& comm, std::int64_t seq, int color, int key,
                                         mpi::TopologyRef topology, const char* call, std::string label);
// The topology constructors of MPI-4.1 §8.5 for every front-end: the arguments
// checked (comm_old an intracommunicator, ndims the length of dims and periods,
// the grid or graph no larger than comm_old), then topology_split; ranks keep
// their order whatever `reorder` says (the standard allows it).
Task<const Communicator*> cart_create(Rank& rank, const Communicator& old, std::int64_t seq, int ndims,
                                      const std::vector<int>& dims, const std::vector<bool>& periods,
                                      std::string label);
Task<const Communicator*> cart_sub(Rank& rank, const Communicator& comm, std::int64_t seq,
                                   const std::vector<bool>& remain_dims, std::string label);
Task<const Communicator*> graph_create(Rank& rank, const Communicator& old, std::int64_t seq, int nnodes,
                                       const std::vector<int>& index, const std::vector<int>& edges, std::string label);
// MPI_Cart_map and MPI_Graph_map (§8.5.8): the caller's rank in the topology
// cart_create or graph_create would make (ranks keep their order), or MPI_UNDEFINED.
int cart_map(Rank& rank, const Communicator& comm, int ndims, const std::vector<int>& dims,
             const std::vector<bool>& periods);
int graph_map(Rank& rank, const Communicator& comm, int nnodes, const std::vector<int>& index,
              const std::vector<int>& edges);

// MPI_Dist_graph_create and MPI_Dist_graph_create_adjacent (MPI-4.1 §8.5.4): a
// communicator of comm's group, ranks kept, with the distributed graph the members
// describe. `edges` holds this member's (source, destination, weight) triples:
// any edges (adjacent false), or its own in-edges then out-edges, `indegree` of
// them in-edges (adjacent true), whose two ends must then agree.
Task<const Communicator*> dist_graph(Rank& rank, const Communicator& comm, std::int64_t seq, bool adjacent,
                                     std::vector<int> edges, int indegree, bool weighted, std::string label);
Task<const Communicator*> create(Rank& rank, const Communicator& comm, std::int64_t seq, GroupRef group,
                                 std::string label);
Task<const Communicator*> create_group(Rank& rank, const Communicator& comm, GroupRef group, int tag,
                                       std::string label);
// `leaders`: the context of peer_comm the leaders exchange on (the program's
// point-to-point one for MPI_Intercomm_create, which names the tag).
Task<const Communicator*> intercomm_create(Rank& rank, const Communicator& local_comm, std::int64_t seq,
                                           int local_leader, const Communicator* peer_comm, int remote_leader,
                                           int tag, std::string label, mpi::Context leaders = mpi::Context::p2p);
// MPI_Intercomm_create_from_groups (MPI-4.1 §7.6.2): an intercommunicator between
// two disjoint groups, collective over both, with no parent communicator: each
// side's members build their side (as MPI_Comm_create_group, keyed by stringtag),
// and the leaders meet over the world's processes. `label` names it.
Task<const Communicator*> intercomm_create_from_groups(Rank& rank, GroupRef local_group, int local_leader,
                                                       GroupRef remote_group, int remote_leader,
                                                       const std::string& stringtag, std::string label);
Task<const Communicator*> intercomm_merge(Rank& rank, const Communicator& inter, std::int64_t seq, bool high,
                                          std::string label);

}  // namespace mpisim::coll::comm
