#include "model/mpi/comm.hpp"

namespace mpisim::mpi {

Communicator Communicator::world(std::uint32_t size, std::uint32_t context) {
  return intra("MPI_COMM_WORLD", Group::range(0, size), context);
}

Communicator Communicator::self(std::uint32_t context) {
  Communicator c;
  c.name_ = "MPI_COMM_SELF";
  c.context_ = context;
  c.self_ = true;
  return c;
}

Communicator Communicator::intra(std::string name, GroupRef group, std::uint32_t context) {
  Communicator c;
  c.name_ = std::move(name);
  c.group_ = std::move(group);
  c.context_ = context;
  return c;
}

Communicator Communicator::inter(std::string name, GroupRef local, GroupRef remote, std::uint32_t context,
                                 const Communicator* local_comm) {
  Communicator c = intra(std::move(name), std::move(local), context);
  c.remote_ = std::move(remote);
  c.local_comm_ = local_comm;
  return c;
}

Comparison compare(const Communicator& a, const Communicator& b, std::uint32_t caller) {
  if (&a == &b || (a.base_context() == b.base_context() && a.is_self() == b.is_self())) return Comparison::ident;
  if (a.is_inter() != b.is_inter()) return Comparison::unequal;
  Comparison local = Group::compare(*a.group(caller), *b.group(caller));
  Comparison result = local;
  if (a.is_inter()) {
    Comparison remote = Group::compare(*a.remote_group(), *b.remote_group());
    if (remote == Comparison::unequal || local == Comparison::unequal) return Comparison::unequal;
    if (remote == Comparison::similar) result = Comparison::similar;
  }
  if (result == Comparison::ident) return Comparison::congruent;
  return result;
}

}  // namespace mpisim::mpi
