#include "model/mpi/comm.hpp"

#include <algorithm>

namespace mpisim::mpi {

Communicator Communicator::world(std::uint32_t size, std::uint32_t context) {
  Communicator c;
  c.name_ = "MPI_COMM_WORLD";
  c.size_ = static_cast<int>(size);
  c.context_ = context;
  return c;
}

Communicator Communicator::self(std::uint32_t context) {
  Communicator c;
  c.name_ = "MPI_COMM_SELF";
  c.size_ = 1;
  c.context_ = context;
  c.self_ = true;
  return c;
}

int Communicator::rank_of(std::uint32_t world, std::uint32_t caller) const {
  if (self_) return world == caller ? 0 : -1;
  if (members_.empty()) return world < static_cast<std::uint32_t>(size_) ? static_cast<int>(world) : -1;
  auto it = std::find(members_.begin(), members_.end(), world);
  return it == members_.end() ? -1 : static_cast<int>(it - members_.begin());
}

}  // namespace mpisim::mpi
