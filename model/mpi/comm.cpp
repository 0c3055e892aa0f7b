#include "model/mpi/comm.hpp"

#include <string>

#include "model/mpi/error.hpp"

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

const Topology& topology_of(const Communicator& comm, Topology::Kind kind, const char* argument) {
  const Topology* t = comm.topology();
  if (t != nullptr && t->kind == kind) return *t;
  const char* made_by = kind == Topology::Kind::cart    ? "MPI_Cart_create or MPI_Cart_sub"
                        : kind == Topology::Kind::graph ? "MPI_Graph_create"
                                                        : "MPI_Dist_graph_create or MPI_Dist_graph_create_adjacent";
  throw MpiError(ErrorClass::topology, argument,
                 comm.name() + (t ? std::string(" has a ") + topology_kind_name(t->kind) + " topology, not a " +
                                        topology_kind_name(kind) + " one"
                                  : std::string(" has no process topology")),
                 std::string("MPI-4.1 §8.5: this call takes a communicator with a ") + topology_kind_name(kind) +
                     " topology, made by " + made_by);
}

const Topology& any_topology_of(const Communicator& comm, const char* argument) {
  if (const Topology* t = comm.topology()) return *t;
  throw MpiError(ErrorClass::topology, argument, comm.name() + " has no process topology",
                 "MPI-4.1 §8.6: a neighbourhood collective takes a communicator with a Cartesian, graph or "
                 "distributed graph topology");
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
