#pragma once
// Communicators: a group of processes and contexts of their own (MPI-4.1 §7.1).
//
// Each communicator owns two contexts: `context` for point-to-point traffic and
// `context + 1` for the messages of its collectives, so that traffic on one never
// matches a receive on the other. An intercommunicator has a local and a remote
// group: point-to-point ranks name processes of the remote group; its local side
// also has an intracommunicator of its own (`local_comm`) for the messages of the
// collective operations that involve only one side.
#include <cstdint>
#include <string>

#include "model/mpi/group.hpp"
#include "model/mpi/topology.hpp"

namespace mpisim::mpi {

enum class Context : std::uint8_t { p2p = 0, collective = 1 };

class Communicator {
 public:
  // The world: ranks 0..size-1 are world ranks 0..size-1.
  static Communicator world(std::uint32_t size, std::uint32_t context);
  // MPI_COMM_SELF: each process alone; rank 0 is the caller.
  static Communicator self(std::uint32_t context);
  static Communicator intra(std::string name, GroupRef group, std::uint32_t context);
  static Communicator inter(std::string name, GroupRef local, GroupRef remote, std::uint32_t context,
                            const Communicator* local_comm);

  const std::string& name() const { return name_; }
  int size() const { return static_cast<int>(self_ ? 1 : group_->size()); }
  bool is_inter() const { return remote_ != nullptr; }
  bool is_self() const { return self_; }
  // The number of processes point-to-point ranks address: the remote group's size
  // for an intercommunicator, the group's size otherwise.
  int peer_count() const { return is_inter() ? static_cast<int>(remote_->size()) : size(); }
  std::uint32_t context(Context c) const { return context_ + static_cast<std::uint32_t>(c); }
  std::uint32_t base_context() const { return context_; }

  // The world rank of local rank r, as seen by the process with world rank `caller`.
  std::uint32_t world_rank(int r, std::uint32_t caller) const {
    if (self_) return caller;
    return static_cast<std::uint32_t>(group_->world(r));
  }
  // The world rank of the process a point-to-point rank names (remote for an intercommunicator).
  std::uint32_t peer_world(int r, std::uint32_t caller) const {
    if (remote_) return static_cast<std::uint32_t>(remote_->world(r));
    return world_rank(r, caller);
  }
  // The local rank of a world rank, or -1 if it is not a member.
  int rank_of(std::uint32_t world, std::uint32_t caller) const {
    if (self_) return world == caller ? 0 : -1;
    std::int64_t r = group_->rank_of(world);
    return r < 0 ? -1 : static_cast<int>(r);
  }
  GroupRef group(std::uint32_t caller) const { return self_ ? Group::of({caller}) : group_; }
  const GroupRef& remote_group() const { return remote_; }
  const Communicator* local_comm() const { return local_comm_; }
  // The process topology a topology constructor gave it (MPI-4.1 §8), or null.
  const Topology* topology() const { return topology_.get(); }
  const TopologyRef& topology_ref() const { return topology_; }
  void set_topology(TopologyRef t) { topology_ = std::move(t); }

  // Trace channel indices of the two contexts (set by the runtime).
  std::uint32_t channel(Context c) const { return channels_[static_cast<int>(c)]; }
  void set_channels(std::uint32_t p2p, std::uint32_t coll) { channels_[0] = p2p, channels_[1] = coll; }

 private:
  std::string name_;
  std::uint32_t context_ = 0;
  bool self_ = false;
  GroupRef group_;
  GroupRef remote_;
  const Communicator* local_comm_ = nullptr;
  std::uint32_t channels_[2] = {0, 0};
  TopologyRef topology_;
};

// The topology of `comm` for a call that needs one of kind `kind` (MPI_Cart_*,
// MPI_Graph_*, MPI_Dist_graph_*): MPI_ERR_TOPOLOGY naming `argument` otherwise.
const Topology& topology_of(const Communicator& comm, Topology::Kind kind, const char* argument);
// The topology of `comm` for a neighbourhood collective: any kind (§8.6).
const Topology& any_topology_of(const Communicator& comm, const char* argument);

// MPI_Comm_compare (MPI-4.1 §7.4.1): IDENT for the same communicator, CONGRUENT for
// the same group(s) in the same order, SIMILAR for the same members, else UNEQUAL.
Comparison compare(const Communicator& a, const Communicator& b, std::uint32_t caller);

}  // namespace mpisim::mpi
