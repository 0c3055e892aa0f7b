#include "model/coll/comm/constructors.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "model/coll/comm/exchange.hpp"

namespace mpisim::coll::comm {
namespace {

using mpi::ErrorClass;
using mpi::MpiError;
using mpi::World;

constexpr const char* kRuleOrder =
    "MPI-4.1 §6.14: all processes of a communicator must call its collective operations, the communicator "
    "constructors included, in the same order";

// Records this member's arguments; a member that called another collective in this
// position is diagnosed.
void deposit(World::Agreement& a, std::size_t index, World::Deposit d, const Communicator& comm) {
  for (std::size_t i = 0; i < a.deposits.size(); ++i) {
    const World::Deposit& other = a.deposits[i];
    if (other.present && other.call != d.call)
      throw MpiError(ErrorClass::other, "comm",
                     d.call + " on " + comm.name() + " meets " + other.call + " called by rank " + std::to_string(i) +
                         " in the same position among the communicator's collectives",
                     kRuleOrder);
  }
  d.present = true;
  a.deposits[index] = std::move(d);
}

// Takes this member's result; the agreement is dropped once every member has.
const Communicator* take(World& w, std::uint32_t context, std::int64_t seq, std::size_t index) {
  World::Agreement& a = w.agreement(context, seq, 0);
  const Communicator* c = a.result[index];
  if (++a.taken == a.deposits.size()) w.forget(context, seq);
  return c;
}

int my_rank(Rank& rank, const Communicator& comm) { return comm.rank_of(rank.id(), rank.id()); }

Task<const Communicator*> split_as(Rank& rank, const Communicator& comm, std::int64_t seq, World::Deposit mine,
                                   std::string label);

// The distributed graph the members' deposits describe (MPI-4.1 §8.5.4). The
// general form: each member's edges in rank order, then in the order it gave
// them, are appended to their source's destinations and their destination's
// sources. The adjacent form: each member's own lists, and every edge must be
// named at both of its ends, as often at each.
mpi::TopologyRef build_dist_graph(const World::Agreement& a, const Communicator& comm, bool adjacent) {
  auto t = std::make_shared<mpi::Topology>();
  t->kind = mpi::Topology::Kind::dist_graph;
  t->nodes.resize(a.deposits.size());
  std::map<std::pair<int, int>, std::array<int, 2>> ends;  // (source, destination) -> named by the source, by the destination
  for (std::size_t i = 0; i < a.deposits.size(); ++i) {
    const World::Deposit& d = a.deposits[i];
    t->weighted = t->weighted || d.a != 0;
    const auto& e = d.edges;
    for (std::size_t k = 0; k + 2 < e.size(); k += 3) {
      const int from = e[k], to = e[k + 1], weight = e[k + 2];
      if (!adjacent) {
        t->nodes[static_cast<std::size_t>(from)].destinations.push_back(to);
        t->nodes[static_cast<std::size_t>(from)].destweights.push_back(weight);
        t->nodes[static_cast<std::size_t>(to)].sources.push_back(from);
        t->nodes[static_cast<std::size_t>(to)].sourceweights.push_back(weight);
        continue;
      }
      const bool in_edge = static_cast<std::int64_t>(k / 3) < d.b;
      mpi::Adjacency& n = t->nodes[i];
      if (in_edge) {
        n.sources.push_back(from), n.sourceweights.push_back(weight);
        ++ends[{from, to}][1];
      } else {
        n.destinations.push_back(to), n.destweights.push_back(weight);
        ++ends[{from, to}][0];
      }
    }
  }
  for (const auto& [edge, named] : ends)
    if (named[0] != named[1])
      throw MpiError(ErrorClass::topology, named[0] < named[1] ? "destinations" : "sources",
                     "rank " + std::to_string(edge.first) + " lists rank " + std::to_string(edge.second) +
                         " among its destinations " + std::to_string(named[0]) + " time(s), but rank " +
                         std::to_string(edge.second) + " lists rank " + std::to_string(edge.first) +
                         " among its sources " + std::to_string(named[1]) + " time(s) (on " + comm.name() + ")",
                     "MPI-4.1 §8.5.4: in MPI_Dist_graph_create_adjacent every edge is given at both of its ends");
  return t;
}

}  // namespace

namespace {
// On an intercommunicator both groups take part. The agreement indexes the group
// whose first member has the lower world rank first; `me` is the caller's index.
struct InterSides {
  GroupRef local, remote;
  bool first_side;
  std::size_t total, me;
};
InterSides inter_sides(Rank& rank, const Communicator& inter) {
  InterSides s{inter.group(rank.id()), inter.remote_group(), false, 0, 0};
  s.first_side = s.local->world(0) < s.remote->world(0);
  s.total = static_cast<std::size_t>(s.local->size() + s.remote->size());
  s.me = static_cast<std::size_t>(inter.rank_of(rank.id(), rank.id()) + (s.first_side ? 0 : s.remote->size()));
  return s;
}
// The messages of a constructor on an intercommunicator, as MPICH sends them:
// each group gathers its members' arguments, the two leaders exchange, each group
// spreads the result.
Task<void> inter_exchange(Rank& rank, const Communicator& inter) {
  co_await allgather_items(rank, *inter.local_comm(), 8, kTagConstruct);
  if (inter.rank_of(rank.id(), rank.id()) == 0) {
    static const mpi::TypeRef byte = mpi::predefined_type("MPI_BYTE");
    mpi::TypedBuffer none{&rank.memory(), 0, 8, byte.get()};
    mpi::Request* reqs[2] = {rank.irecv_unchecked(none, byte, 0, kTagConstruct, inter),
                             rank.isend_unchecked(none, byte, 0, kTagConstruct, inter)};
    co_await rank.wait_all(reqs);
  }
  co_await bcast_pattern(rank, *inter.local_comm(), 0, 8, kTagConstruct + 1);
}

// MPI_Comm_dup of an intercommunicator: an intercommunicator of the same two
// groups, congruent with it (MPI-4.1 §7.4.2).
Task<const Communicator*> dup_inter(Rank& rank, const Communicator& inter, std::int64_t seq, std::string label) {
  World& w = rank.world();
  const InterSides s = inter_sides(rank, inter);
  deposit(w.agreement(inter.base_context(), seq, s.total), s.me, World::Deposit{"MPI_Comm_dup"}, inter);
  co_await inter_exchange(rank, inter);
  World::Agreement& a = w.agreement(inter.base_context(), seq, s.total);
  if (!a.resolved) {
    const GroupRef& ga = s.first_side ? s.local : s.remote;
    const GroupRef& gb = s.first_side ? s.remote : s.local;
    const auto [side_a, side_b] = w.new_inter(label, ga, gb);
    const auto na = static_cast<std::size_t>(ga->size());
    for (std::size_t i = 0; i < a.result.size(); ++i) a.result[i] = i < na ? side_a : side_b;
    a.resolved = true;
  }
  co_return take(w, inter.base_context(), seq, s.me);
}

// MPI_Comm_split and MPI_Comm_create of an intercommunicator (MPI-4.1 §7.4.2): the
// deposits give each member's part of its group (split: color and key; create:
// the subgroup of its own group); each part that has a counterpart on the other
// side becomes an intercommunicator between the two, the rest MPI_COMM_NULL.
template <typename PartOf>
Task<const Communicator*> inter_parts(Rank& rank, const Communicator& inter, std::int64_t seq, World::Deposit mine,
                                      std::string label, PartOf part_of) {
  World& w = rank.world();
  const InterSides s = inter_sides(rank, inter);
  deposit(w.agreement(inter.base_context(), seq, s.total), s.me, std::move(mine), inter);
  co_await inter_exchange(rank, inter);
  World::Agreement& a = w.agreement(inter.base_context(), seq, s.total);
  if (!a.resolved) {
    const GroupRef& ga = s.first_side ? s.local : s.remote;
    const GroupRef& gb = s.first_side ? s.remote : s.local;
    const auto na = static_cast<std::size_t>(ga->size());
    auto world_of = [&](std::size_t i) {
      return i < na ? ga->world(static_cast<std::int64_t>(i)) : gb->world(static_cast<std::int64_t>(i - na));
    };
    // part -> (members of side a, members of side b), each in its order.
    std::map<std::int64_t, std::array<std::vector<std::pair<std::int64_t, std::size_t>>, 2>> parts;
    for (std::size_t i = 1; i < a.deposits.size(); ++i) {
      const World::Deposit& d = a.deposits[i];
      const World::Deposit& first = a.deposits[i < na ? 0 : na];
      if (d.group && first.group && mpi::Group::compare(*d.group, *first.group) != mpi::Comparison::ident)
        throw MpiError(ErrorClass::group, "group",
                       "the processes of one group of " + inter.name() + " give different groups (world ranks " +
                           std::to_string(world_of(i < na ? 0 : na)) + " and " + std::to_string(world_of(i)) + ")",
                       "MPI-4.1 §7.4.2: on an intercommunicator, the processes of each group give the same group");
    }
    for (std::size_t i = 0; i < a.deposits.size(); ++i) {
      std::int64_t part = 0, order = 0;
      const std::int64_t local_rank = static_cast<std::int64_t>(i < na ? i : i - na);
      if (!part_of(a.deposits[i], world_of(i), local_rank, &part, &order)) continue;
      parts[part][i < na ? 0 : 1].push_back({order, i});
    }
    std::fill(a.result.begin(), a.result.end(), nullptr);
    for (auto& [part, sides] : parts) {
      if (sides[0].empty() || sides[1].empty()) continue;  // no counterpart: MPI_COMM_NULL
      std::vector<std::int64_t> members[2];
      for (int k = 0; k < 2; ++k) {
        std::sort(sides[k].begin(), sides[k].end());
        for (const auto& m : sides[k]) members[k].push_back(world_of(m.second));
      }
      const auto [side_a, side_b] = w.new_inter(label, mpi::Group::of(members[0]), mpi::Group::of(members[1]));
      for (const auto& m : sides[0]) a.result[m.second] = side_a;
      for (const auto& m : sides[1]) a.result[m.second] = side_b;
    }
    a.resolved = true;
  }
  co_return take(w, inter.base_context(), seq, s.me);
}
}  // namespace

Task<const Communicator*> dup(Rank& rank, const Communicator& comm, std::int64_t seq, std::string label) {
  if (comm.is_inter()) co_return co_await dup_inter(rank, comm, seq, std::move(label));
  World& w = rank.world();
  // The duplicate has comm's topology too (MPI-4.1 §7.4.2).
  if (comm.is_self()) co_return &w.new_intra(label, comm.group(rank.id()), comm.topology_ref());
  const auto p = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(my_rank(rank, comm));
  deposit(w.agreement(comm.base_context(), seq, p), me, World::Deposit{"MPI_Comm_dup"}, comm);
  // MPICH agrees on the new context with an allreduce of context masks.
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  World::Agreement& a = w.agreement(comm.base_context(), seq, p);
  if (!a.resolved) {
    const Communicator& c = w.new_intra(label, comm.group(rank.id()), comm.topology_ref());
    std::fill(a.result.begin(), a.result.end(), &c);
    a.resolved = true;
  }
  co_return take(w, comm.base_context(), seq, me);
}

Task<const Communicator*> split(Rank& rank, const Communicator& comm, std::int64_t seq, int color, int key,
                                std::string label) {
  if (color < 0 && color != mpi::UNDEFINED)
    throw mpi::MpiError(mpi::ErrorClass::arg, "color", "color = " + std::to_string(color) + " is negative",
                        "MPI-4.1 §7.4.2: color must be non-negative or MPI_UNDEFINED");
  if (comm.is_inter())
    // Within each group by color, ranked by key then old rank; a color needs members in both groups.
    return inter_parts(rank, comm, seq, World::Deposit{"MPI_Comm_split", color, key}, std::move(label),
                       [](const World::Deposit& d, std::int64_t, std::int64_t local_rank, std::int64_t* part,
                          std::int64_t* order) {
                         if (d.a == mpi::UNDEFINED) return false;
                         *part = d.a;
                         *order = d.b * (std::int64_t{1} << 32) + local_rank;
                         return true;
                       });
  return split_as(rank, comm, seq, World::Deposit{"MPI_Comm_split", color, key}, std::move(label));
}

Task<const Communicator*> topology_split(Rank& rank, const Communicator& comm, std::int64_t seq, int color, int key,
                                         mpi::TopologyRef topology, const char* call, std::string label) {
  World::Deposit d{call, color, key};
  d.topology = std::move(topology);
  return split_as(rank, comm, seq, std::move(d), std::move(label));
}

namespace {
// A split of comm by the deposit's color (a) and key (b); each new communicator
// has the topology its first member deposited.
Task<const Communicator*> split_as(Rank& rank, const Communicator& comm, std::int64_t seq, World::Deposit mine,
                                   std::string label) {
  World& w = rank.world();
  if (comm.is_self())
    co_return mine.a == mpi::UNDEFINED ? nullptr : &w.new_intra(label, comm.group(rank.id()), mine.topology);
  const auto p = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(my_rank(rank, comm));
  deposit(w.agreement(comm.base_context(), seq, p), me, std::move(mine), comm);
  // An allgather of (color, key), as MPICH does, then the context agreement.
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  World::Agreement& a = w.agreement(comm.base_context(), seq, p);
  if (!a.resolved) {
    // MPI-4.1 §7.4.2: one communicator per color, ranked by key, ties by the old rank;
    // MPI_UNDEFINED gets MPI_COMM_NULL. Colors are created in ascending order.
    std::map<std::int64_t, std::vector<std::pair<std::pair<std::int64_t, std::size_t>, std::int64_t>>> by_color;
    for (std::size_t i = 0; i < p; ++i) {
      const World::Deposit& d = a.deposits[i];
      if (d.a == mpi::UNDEFINED) continue;
      by_color[d.a].push_back({{d.b, i}, comm.world_rank(static_cast<int>(i), rank.id())});
    }
    for (auto& [c, members] : by_color) {
      std::sort(members.begin(), members.end());
      std::vector<std::int64_t> worlds;
      for (const auto& m : members) worlds.push_back(m.second);
      const Communicator& nc = w.new_intra(label, mpi::Group::of(worlds), a.deposits[members.front().first.second].topology);
      for (const auto& m : members) a.result[m.first.second] = &nc;
    }
    a.resolved = true;
  }
  co_return take(w, comm.base_context(), seq, me);
}
}  // namespace

namespace {
void intracomm(const Communicator& old, const char* call, const char* section) {
  if (old.is_inter())
    throw MpiError(ErrorClass::comm, "comm_old", old.name() + " is an intercommunicator",
                   std::string("MPI-4.1 ") + section + ": " + call + " takes an intracommunicator");
}
void count_matches(int n, std::size_t size, const char* count, const char* array, const char* section) {
  if (n < 0)
    throw MpiError(ErrorClass::dims, count, std::string(count) + " = " + std::to_string(n) + " is negative",
                   std::string("MPI-4.1 ") + section + ": " + count + " is a number of entries");
  if (static_cast<std::size_t>(n) != size)
    throw MpiError(ErrorClass::arg, array,
                   std::string(array) + " has " + std::to_string(size) + " entries where " + count + " = " +
                       std::to_string(n),
                   std::string("MPI-4.1 ") + section + ": " + array + " has " + count + " entries");
}
mpi::CartTopology checked_cart(const Communicator& comm, int ndims, const std::vector<int>& dims,
                               const std::vector<bool>& periods, const char* call, const char* section) {
  intracomm(comm, call, section);
  count_matches(ndims, dims.size(), "ndims", "dims", section);
  count_matches(ndims, periods.size(), "ndims", "periods", section);
  return mpi::make_cart(comm.size(), dims, periods);
}
mpi::GraphTopology checked_graph(const Communicator& comm, int nnodes, const std::vector<int>& index,
                                 const std::vector<int>& edges, const char* call, const char* section) {
  intracomm(comm, call, section);
  if (nnodes < 0)
    throw MpiError(ErrorClass::arg, "nnodes", "nnodes = " + std::to_string(nnodes) + " is negative",
                   std::string("MPI-4.1 ") + section + ": nnodes is the number of nodes of the graph");
  count_matches(nnodes, index.size(), "nnodes", "index", section);
  return mpi::make_graph(comm.size(), index, edges);
}
}  // namespace

Task<const Communicator*> cart_create(Rank& rank, const Communicator& old, std::int64_t seq, int ndims,
                                      const std::vector<int>& dims, const std::vector<bool>& periods,
                                      std::string label) {
  mpi::Topology t;
  t.cart = checked_cart(old, ndims, dims, periods, "MPI_Cart_create", "§8.5.1");
  const int r = my_rank(rank, old);
  const int color = r < t.cart.size() ? 0 : mpi::UNDEFINED;  // the ranks past the grid get MPI_COMM_NULL
  return topology_split(rank, old, seq, color, r, std::make_shared<const mpi::Topology>(std::move(t)),
                        "MPI_Cart_create", std::move(label));
}

Task<const Communicator*> cart_sub(Rank& rank, const Communicator& comm, std::int64_t seq,
                                   const std::vector<bool>& remain_dims, std::string label) {
  const mpi::CartTopology& grid = mpi::topology_of(comm, mpi::Topology::Kind::cart, "comm").cart;
  if (remain_dims.size() != grid.dims.size())
    throw MpiError(ErrorClass::arg, "remain_dims",
                   "remain_dims has " + std::to_string(remain_dims.size()) + " entries; the grid has " +
                       std::to_string(grid.dims.size()) + " dimensions",
                   "MPI-4.1 §8.5.7: remain_dims has one entry per dimension");
  mpi::CartSub sub = mpi::cart_sub(grid, my_rank(rank, comm), remain_dims);
  mpi::Topology t;
  t.cart = std::move(sub.topology);
  return topology_split(rank, comm, seq, sub.color, sub.key, std::make_shared<const mpi::Topology>(std::move(t)),
                        "MPI_Cart_sub", std::move(label));
}

Task<const Communicator*> graph_create(Rank& rank, const Communicator& old, std::int64_t seq, int nnodes,
                                       const std::vector<int>& index, const std::vector<int>& edges, std::string label) {
  mpi::Topology t;
  t.kind = mpi::Topology::Kind::graph;
  t.graph = checked_graph(old, nnodes, index, edges, "MPI_Graph_create", "§8.5.3");
  const int r = my_rank(rank, old);
  return topology_split(rank, old, seq, r < nnodes ? 0 : mpi::UNDEFINED, r,
                        std::make_shared<const mpi::Topology>(std::move(t)), "MPI_Graph_create", std::move(label));
}

int cart_map(Rank& rank, const Communicator& comm, int ndims, const std::vector<int>& dims,
             const std::vector<bool>& periods) {
  const mpi::CartTopology t = checked_cart(comm, ndims, dims, periods, "MPI_Cart_map", "§8.5.8");
  const int r = my_rank(rank, comm);
  return r < t.size() ? r : mpi::UNDEFINED;
}

int graph_map(Rank& rank, const Communicator& comm, int nnodes, const std::vector<int>& index,
              const std::vector<int>& edges) {
  checked_graph(comm, nnodes, index, edges, "MPI_Graph_map", "§8.5.8");
  const int r = my_rank(rank, comm);
  return r < nnodes ? r : mpi::UNDEFINED;
}

Task<const Communicator*> dist_graph(Rank& rank, const Communicator& comm, std::int64_t seq, bool adjacent,
                                     std::vector<int> edges, int indegree, bool weighted, std::string label) {
  World& w = rank.world();
  const char* call = adjacent ? "MPI_Dist_graph_create_adjacent" : "MPI_Dist_graph_create";
  intracomm(comm, call, "§8.5.4");
  const int size = comm.size();
  for (std::size_t k = 0; k < edges.size(); k += 3) {
    const bool in_edge = adjacent && static_cast<int>(k / 3) < indegree;
    const char* argument = !adjacent ? (k % 3 == 0 ? "sources" : "destinations") : in_edge ? "sources" : "destinations";
    const int peer = adjacent ? (in_edge ? edges[k] : edges[k + 1]) : -1;
    for (int v : adjacent ? std::vector<int>{peer} : std::vector<int>{edges[k], edges[k + 1]})
      if (v < 0 || v >= size)
        throw MpiError(ErrorClass::rank, argument,
                       "rank " + std::to_string(v) + " is not a process of " + comm.name() + " (size " +
                           std::to_string(size) + ")",
                       "MPI-4.1 §8.5.4: the edges of a distributed graph join processes of comm_old");
    if (edges[k + 2] < 0)
      throw MpiError(ErrorClass::arg, in_edge ? "sourceweights" : adjacent ? "destweights" : "weights",
                     "weight " + std::to_string(edges[k + 2]) + " is negative",
                     "MPI-4.1 §8.5.4: edge weights are non-negative integers");
  }
  const auto p = static_cast<std::size_t>(size);
  const auto me = static_cast<std::size_t>(my_rank(rank, comm));
  // a: whether the graph is weighted; b: the in-degree (adjacent form) or -1.
  World::Deposit d{call, weighted ? 1 : 0, adjacent ? indegree : -1};
  d.edges = std::move(edges);
  if (comm.is_self()) {
    World::Agreement alone;
    alone.deposits.push_back(std::move(d));
    co_return &w.new_intra(label, comm.group(rank.id()), build_dist_graph(alone, comm, adjacent));
  }
  deposit(w.agreement(comm.base_context(), seq, p), me, std::move(d), comm);
  // MPICH exchanges the degrees and the edges, then agrees on a context.
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  World::Agreement& a = w.agreement(comm.base_context(), seq, p);
  if (!a.resolved) {
    const Communicator& c = w.new_intra(label, comm.group(rank.id()), build_dist_graph(a, comm, adjacent));
    std::fill(a.result.begin(), a.result.end(), &c);
    a.resolved = true;
  }
  co_return take(w, comm.base_context(), seq, me);
}

Task<const Communicator*> create(Rank& rank, const Communicator& comm, std::int64_t seq, GroupRef group,
                                 std::string label) {
  World& w = rank.world();
  if (comm.is_self()) co_return group->size() == 1 && group->world(0) == rank.id() ? &w.new_intra(label, group) : nullptr;
  if (comm.is_inter()) {
    // Each process gives a subgroup of its own group: the result joins the two
    // subgroups (MPI-4.1 §7.4.2); a process outside its subgroup, or a subgroup
    // facing an empty one, gets MPI_COMM_NULL.
    const GroupRef local = comm.group(rank.id());
    for (std::int64_t i = 0; i < group->size(); ++i)
      if (local->rank_of(group->world(i)) < 0)
        throw MpiError(ErrorClass::group, "group",
                       "the group's rank " + std::to_string(i) + " (world rank " + std::to_string(group->world(i)) +
                           ") is not in the local group of " + comm.name(),
                       "MPI-4.1 §7.4.2: on an intercommunicator, group is a subset of the caller's local group");
    World::Deposit d{"MPI_Comm_create"};
    d.group = group;
    co_return co_await inter_parts(rank, comm, seq, std::move(d), std::move(label),
                                   [](const World::Deposit& dep, std::int64_t world, std::int64_t, std::int64_t* part,
                                      std::int64_t* order) {
                                     const std::int64_t at = dep.group->rank_of(world);
                                     if (at < 0) return false;
                                     *part = 0;
                                     *order = at;
                                     return true;
                                   });
  }
  const auto p = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(my_rank(rank, comm));
  for (std::int64_t i = 0; i < group->size(); ++i)
    if (comm.rank_of(static_cast<std::uint32_t>(group->world(i)), rank.id()) < 0)
      throw MpiError(ErrorClass::group, "group",
                     "the group's rank " + std::to_string(i) + " (world rank " + std::to_string(group->world(i)) +
                         ") is not a member of " + comm.name(),
                     "MPI-4.1 §7.4.2: group must be a subset of the group of comm");
  World::Deposit d{"MPI_Comm_create"};
  d.group = group;
  deposit(w.agreement(comm.base_context(), seq, p), me, std::move(d), comm);
  co_await allgather_items(rank, comm, 8, kTagConstruct);
  World::Agreement& a = w.agreement(comm.base_context(), seq, p);
  if (!a.resolved) {
    // MPI-4.1 §7.4.2: the groups given must be equal or disjoint; each distinct group
    // becomes a communicator, and every process it names must have given it.
    std::vector<std::pair<GroupRef, const Communicator*>> made;
    for (std::size_t i = 0; i < p; ++i) {
      const GroupRef& g = a.deposits[i].group;
      const Communicator* c = nullptr;
      for (const auto& [mg, mc] : made)
        if (mpi::Group::compare(*mg, *g) == mpi::Comparison::ident) c = mc;
      if (c == nullptr) {
        for (const auto& [mg, mc] : made)
          if (mpi::Group::intersection(*mg, *g)->size() > 0)
            throw MpiError(ErrorClass::group, "group",
                           "the groups given by rank " + std::to_string(i) + " and another rank overlap but differ",
                           "MPI-4.1 §7.4.2: the groups of MPI_Comm_create must be equal or disjoint");
        c = g->size() > 0 ? &w.new_intra(label, g) : nullptr;
        made.emplace_back(g, c);
      }
      std::uint32_t wi = comm.world_rank(static_cast<int>(i), rank.id());
      a.result[i] = g->rank_of(wi) >= 0 ? c : nullptr;
    }
    for (std::size_t i = 0; i < p; ++i) {
      std::uint32_t wi = comm.world_rank(static_cast<int>(i), rank.id());
      for (const auto& [mg, mc] : made)
        if (mg->rank_of(wi) >= 0 && mpi::Group::compare(*mg, *a.deposits[i].group) != mpi::Comparison::ident)
          throw MpiError(ErrorClass::group, "group",
                         "rank " + std::to_string(i) + " is a member of a group another rank gave, but gave another",
                         "MPI-4.1 §7.4.2: all processes of a group must give the same group to MPI_Comm_create");
    }
    a.resolved = true;
  }
  co_return take(w, comm.base_context(), seq, me);
}

Task<const Communicator*> create_group(Rank& rank, const Communicator& comm, GroupRef group, int tag,
                                       std::string label) {
  if (comm.is_inter())
    throw mpi::MpiError(mpi::ErrorClass::comm, "comm", comm.name() + " is an intercommunicator",
                        "MPI-4.1 §7.4.2: MPI_Comm_create_group takes an intracommunicator");
  if (tag < 0 || tag > mpi::TAG_UB)
    throw mpi::MpiError(mpi::ErrorClass::tag, "tag", "tag = " + std::to_string(tag) + " is outside 0..MPI_TAG_UB",
                        "MPI-4.1 §7.4.2: tag is a valid tag");
  World& w = rank.world();
  std::int64_t me_in_group = group->rank_of(rank.id());
  if (me_in_group < 0)
    throw MpiError(ErrorClass::group, "group", "the calling process is not a member of group",
                   "MPI-4.1 §7.4.2: MPI_Comm_create_group is called by the processes of group, and only by them");
  for (std::int64_t i = 0; i < group->size(); ++i)
    if (comm.rank_of(static_cast<std::uint32_t>(group->world(i)), rank.id()) < 0)
      throw MpiError(ErrorClass::group, "group",
                     "world rank " + std::to_string(group->world(i)) + " of group is not a member of " + comm.name(),
                     "MPI-4.1 §7.4.2: group must be a subgroup of the group of comm");
  // Matched by the whole group and the tag: concurrent calls on other groups
  // (disjoint, or not: a process may make one after another) may share a tag.
  const auto n = static_cast<std::size_t>(group->size());
  std::vector<std::uint32_t> members(n);
  for (std::size_t i = 0; i < n; ++i) members[i] = static_cast<std::uint32_t>(group->world(static_cast<std::int64_t>(i)));
  const std::uint32_t key_ctx = comm.base_context() | (1u << 30);
  const std::int64_t key = w.group_call_key(comm.base_context(), tag, members, rank.id());
  World::Deposit d{"MPI_Comm_create_group"};
  d.group = group;
  World::Agreement& joined = w.agreement(key_ctx, key, n);
  deposit(joined, static_cast<std::size_t>(me_in_group), std::move(d), comm);
  if (joined.context == 0) joined.context = w.fresh_context();
  // Only the group's members take part: they exchange addressing each other by
  // group rank, on a context of this call's own (calls on other groups of comm,
  // with the same tag, run at the same time: MPICH's comm_group_rand).
  Communicator view = Communicator::intra(comm.name(), group, joined.context);
  view.set_channels(comm.channel(mpi::Context::p2p), comm.channel(mpi::Context::collective));
  co_await allgather_items(rank, view, 8, kTagConstruct + 2 + tag);
  World::Agreement& a = w.agreement(key_ctx, key, n);
  if (!a.resolved) {
    for (std::size_t i = 0; i < n; ++i)
      if (mpi::Group::compare(*a.deposits[i].group, *group) != mpi::Comparison::ident)
        throw MpiError(ErrorClass::group, "group", "the members of group gave different groups",
                       "MPI-4.1 §7.4.2: all processes of group give the same group to MPI_Comm_create_group");
    const Communicator& c = w.new_intra(label, group);
    std::fill(a.result.begin(), a.result.end(), &c);
    a.resolved = true;
  }
  co_return take(w, key_ctx, key, static_cast<std::size_t>(me_in_group));
}

Task<const Communicator*> intercomm_create(Rank& rank, const Communicator& local_comm, std::int64_t seq,
                                           int local_leader, const Communicator* peer_comm, int remote_leader,
                                           int tag, std::string label, mpi::Context leaders) {
  World& w = rank.world();
  const auto p = static_cast<std::size_t>(local_comm.size());
  const int me = my_rank(rank, local_comm);
  if (local_leader < 0 || local_leader >= local_comm.size())
    throw MpiError(ErrorClass::rank, "local_leader",
                   "local_leader = " + std::to_string(local_leader) + " is not a rank of " + local_comm.name(),
                   "MPI-4.1 §7.6.2: local_leader is a rank in local_comm");
  deposit(w.agreement(local_comm.base_context(), seq, p), static_cast<std::size_t>(me),
          World::Deposit{"MPI_Intercomm_create", local_leader, tag}, local_comm);
  co_await allgather_items(rank, local_comm, 8, kTagConstruct);
  {
    World::Agreement& a = w.agreement(local_comm.base_context(), seq, p);
    for (std::size_t i = 0; i < p; ++i)
      if (a.deposits[i].a != local_leader || a.deposits[i].b != tag)
        throw MpiError(ErrorClass::arg, "local_leader",
                       "rank " + std::to_string(i) + " of " + local_comm.name() + " gave local_leader " +
                           std::to_string(a.deposits[i].a) + " and tag " + std::to_string(a.deposits[i].b),
                       "MPI-4.1 §7.6.2: local_leader and tag must be the same at every process of local_comm");
  }
  if (me == local_leader) {
    if (peer_comm == nullptr || remote_leader < 0 || remote_leader >= peer_comm->peer_count())
      throw MpiError(ErrorClass::rank, "remote_leader",
                     "remote_leader = " + std::to_string(remote_leader) + " is not a rank of peer_comm",
                     "MPI-4.1 §7.6.2: remote_leader is the rank of the remote leader in peer_comm");
    const std::uint32_t other = peer_comm->peer_world(remote_leader, rank.id());
    World::Pairing& pair = w.pairing(peer_comm->base_context(), tag, rank.id(), other);
    if (!pair.first_group) {
      pair.first_group = local_comm.group(rank.id());
      pair.first_leader = rank.id();
    } else {
      pair.second_group = local_comm.group(rank.id());
    }
    // The leaders exchange their groups over peer_comm, with the user's tag: first
    // the sizes (8 bytes), then each group's members (4 bytes each), so each knows
    // how much to receive.
    static const mpi::TypeRef byte = mpi::predefined_type("MPI_BYTE");
    auto exchange = [&](std::int64_t send_bytes, std::int64_t recv_bytes) {
      mpi::TypedBuffer in{&rank.memory(), 0, recv_bytes, byte.get()};
      mpi::TypedBuffer out{&rank.memory(), 0, send_bytes, byte.get()};
      std::array<mpi::Request*, 2> reqs = {
          rank.irecv_unchecked(in, byte, remote_leader, tag, *peer_comm, leaders),
          rank.isend_unchecked(out, byte, remote_leader, tag, *peer_comm, leaders),
      };
      return reqs;
    };
    auto sizes = exchange(8, 8);
    co_await rank.wait_all(sizes);
    World::Pairing& met = w.pairing(peer_comm->base_context(), tag, rank.id(), other);
    const mpi::GroupRef& theirs = met.first_leader == rank.id() ? met.second_group : met.first_group;
    auto members = exchange(4 * local_comm.size(), 4 * static_cast<std::int64_t>(theirs->size()));
    co_await rank.wait_all(members);
    World::Pairing& done = w.pairing(peer_comm->base_context(), tag, rank.id(), other);
    if (done.sides[0] == nullptr) {
      auto [a_side, b_side] = w.new_inter(label, done.first_group, done.second_group);
      done.sides[0] = a_side;
      done.sides[1] = b_side;
    }
    const Communicator* mine = done.sides[done.first_leader == rank.id() ? 0 : 1];
    if (++done.taken == 2) w.forget_pairing(peer_comm->base_context(), tag, rank.id(), other);
    World::Agreement& a = w.agreement(local_comm.base_context(), seq, p);
    std::fill(a.result.begin(), a.result.end(), mine);
    a.resolved = true;
  }
  co_await bcast_pattern(rank, local_comm, local_leader, 8, kTagConstruct + 1);
  co_return take(w, local_comm.base_context(), seq, static_cast<std::size_t>(me));
}

Task<const Communicator*> intercomm_create_from_groups(Rank& rank, GroupRef local_group, int local_leader,
                                                       GroupRef remote_group, int remote_leader,
                                                       const std::string& stringtag, std::string label) {
  constexpr const char* rule = "MPI-4.1 §7.6.2: MPI_Intercomm_create_from_groups is called by the processes of "
                               "local_group and of remote_group, two disjoint groups";
  if (local_group->rank_of(rank.id()) < 0)
    throw MpiError(ErrorClass::group, "local_group", "the calling process is not a member of local_group", rule);
  if (remote_group->size() == 0)
    throw MpiError(ErrorClass::group, "remote_group", "remote_group is empty", rule);
  for (std::int64_t i = 0; i < remote_group->size(); ++i)
    if (local_group->rank_of(static_cast<std::uint32_t>(remote_group->world(i))) >= 0)
      throw MpiError(ErrorClass::group, "remote_group",
                     "world rank " + std::to_string(remote_group->world(i)) + " is in both groups", rule);
  if (local_leader < 0 || local_leader >= local_group->size())
    throw MpiError(ErrorClass::rank, "local_leader",
                   "local_leader = " + std::to_string(local_leader) + " is not a rank of local_group",
                   "MPI-4.1 §7.6.2: local_leader is a rank in local_group");
  if (remote_leader < 0 || remote_leader >= remote_group->size())
    throw MpiError(ErrorClass::rank, "remote_leader",
                   "remote_leader = " + std::to_string(remote_leader) + " is not a rank of remote_group",
                   "MPI-4.1 §7.6.2: remote_leader is a rank in remote_group");
  // The string tag as a tag: FNV-1a, deterministic, within 0..MPI_TAG_UB.
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : stringtag) hash = (hash ^ c) * 16777619u;
  const int tag = static_cast<int>(hash & 0x3fffffffu);
  World& w = rank.world();
  const Communicator& world = w.comm_world();
  const Communicator* side =
      co_await create_group(rank, world, local_group, tag, label + " (one side)");
  const Communicator* inter =
      co_await intercomm_create(rank, *side, 0, local_leader, &world,
                                static_cast<int>(remote_group->world(remote_leader)), tag, std::move(label),
                                mpi::Context::collective);  // the leaders' messages never meet the program's
  if (mpi::Group::compare(*inter->remote_group(), *remote_group) != mpi::Comparison::ident)
    throw MpiError(ErrorClass::group, "remote_group",
                   "remote_group is not the group the other side gave as its local_group",
                   "MPI-4.1 §7.6.2: each side's remote_group is the other side's local_group, in the same order");
  co_return inter;
}

Task<const Communicator*> intercomm_merge(Rank& rank, const Communicator& inter, std::int64_t seq, bool high,
                                          std::string label) {
  if (!inter.is_inter())
    throw mpi::MpiError(mpi::ErrorClass::comm, "intercomm", inter.name() + " is not an intercommunicator",
                        "MPI-4.1 §7.6.2: MPI_Intercomm_merge takes an intercommunicator");
  World& w = rank.world();
  const InterSides s = inter_sides(rank, inter);
  const std::size_t total = s.total, me = s.me;
  deposit(w.agreement(inter.base_context(), seq, total), me, World::Deposit{"MPI_Intercomm_merge", high ? 1 : 0},
          inter);
  co_await inter_exchange(rank, inter);
  World::Agreement& a = w.agreement(inter.base_context(), seq, total);
  if (!a.resolved) {
    const GroupRef& ga = s.first_side ? s.local : s.remote;
    const GroupRef& gb = s.first_side ? s.remote : s.local;
    auto side_high = [&](std::size_t from, std::size_t count) {
      std::int64_t h = a.deposits[from].a;
      for (std::size_t i = from; i < from + count; ++i)
        if (a.deposits[i].a != h)
          throw MpiError(ErrorClass::arg, "high", "the processes of one group gave different values of high",
                         "MPI-4.1 §7.6.2: all processes of a group give the same high to MPI_Intercomm_merge");
      return h;
    };
    std::int64_t ha = side_high(0, static_cast<std::size_t>(ga->size()));
    std::int64_t hb = side_high(static_cast<std::size_t>(ga->size()), static_cast<std::size_t>(gb->size()));
    // The group with high = false comes first; on a tie, the side whose first member
    // has the lower world rank (the standard leaves that order to the implementation).
    std::vector<std::int64_t> members = (hb < ha) ? gb->members() : ga->members();
    std::vector<std::int64_t> rest = (hb < ha) ? ga->members() : gb->members();
    members.insert(members.end(), rest.begin(), rest.end());
    const Communicator& c = w.new_intra(label, mpi::Group::of(members));
    std::fill(a.result.begin(), a.result.end(), &c);
    a.resolved = true;
  }
  co_return take(w, inter.base_context(), seq, me);
}

}  // namespace mpisim::coll::comm
