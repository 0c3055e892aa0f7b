#pragma once
// Communicators: a group of processes and a context of their own.
//
// Each communicator owns two contexts: `context` for point-to-point traffic and
// `context + 1` for the messages of its collectives, so that traffic on one never
// matches a receive on the other (MPI-4.1 §6.1.2).
#include <cstdint>
#include <string>
#include <vector>

namespace mpisim::mpi {

enum class Context : std::uint8_t { p2p = 0, collective = 1 };

class Communicator {
 public:
  // The world: ranks 0..size-1 are world ranks 0..size-1.
  static Communicator world(std::uint32_t size, std::uint32_t context);
  // MPI_COMM_SELF: each process alone; rank 0 is the caller.
  static Communicator self(std::uint32_t context);

  const std::string& name() const { return name_; }
  int size() const { return size_; }
  std::uint32_t context(Context c) const { return context_ + static_cast<std::uint32_t>(c); }
  bool is_self() const { return self_; }

  // The world rank of comm rank r, as seen by the process with world rank `caller`.
  std::uint32_t world_rank(int r, std::uint32_t caller) const {
    if (self_) return caller;
    return members_.empty() ? static_cast<std::uint32_t>(r) : members_[static_cast<std::size_t>(r)];
  }
  // The comm rank of a world rank, or -1 if it is not a member.
  int rank_of(std::uint32_t world, std::uint32_t caller) const;

  // Trace channel indices of the two contexts (set by the runtime).
  std::uint32_t channel(Context c) const { return channels_[static_cast<int>(c)]; }
  void set_channels(std::uint32_t p2p, std::uint32_t coll) { channels_[0] = p2p, channels_[1] = coll; }

 private:
  std::string name_;
  int size_ = 0;
  std::uint32_t context_ = 0;
  bool self_ = false;
  std::vector<std::uint32_t> members_;  // empty: identity
  std::uint32_t channels_[2] = {0, 0};
};

}  // namespace mpisim::mpi
