// The process topologies (MPI-4.1 chapter 8): constructors and local calls,
// translated into the library's (model/coll/comm, model/mpi/topology).
#include <climits>

#include "model/coll/comm/constructors.hpp"
#include "model/scenario/executor.hpp"

namespace mpisim::scenario::exec {

std::vector<int> Executor::int_vector(RankEnv& env, const Step& s, P p) {
  Value v = eval(env, *arg(s, p).expr);
  if (!v.is_array || v.is_real) throw StepError(std::string(param_name(p)) + " must be an array of integers");
  std::vector<int> out;
  out.reserve(v.array.size());
  for (std::size_t i = 0; i < v.array.size(); ++i) {
    if (v.array[i] < INT_MIN || v.array[i] > INT_MAX)
      throw MpiError(mpi::ErrorClass::arg, param_name(p),
                     std::string(param_name(p)) + "[" + std::to_string(i) + "] = " + std::to_string(v.array[i]) +
                         " does not fit an int",
                     "MPI-4.1 §2.5.6: C int arguments");
    out.push_back(static_cast<int>(v.array[i]));
  }
  return out;
}

std::vector<bool> Executor::flag_vector(RankEnv& env, const Step& s, P p) {
  std::vector<bool> out;
  for (int v : int_vector(env, s, p)) out.push_back(v != 0);
  return out;
}

namespace {
std::vector<std::int64_t> wide(const std::vector<int>& v, std::int64_t max) {
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(0, std::min<std::int64_t>(max, static_cast<std::int64_t>(v.size()))));
  return std::vector<std::int64_t>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
}
}  // namespace

Task<const mpi::Communicator*> Executor::construct_topology(RankEnv& env, const Step& s, mpi::Rank& rk) {
  const CallId id = s.spec->id;
  const mpi::Communicator& c = comm_arg(env, s, id == CallId::cart_sub ? P::comm : P::comm_old);
  const P out = id == CallId::cart_create ? P::comm_cart : id == CallId::graph_create ? P::comm_graph
                : id == CallId::cart_sub  ? P::newcomm
                                          : P::comm_dist_graph;
  std::string label = names_.str(arg(s, out).name);
  if (id == CallId::cart_create) {
    const int ndims = rank_arg(env, s, P::ndims);
    co_return co_await coll::comm::cart_create(rk, c, next_instance(env, c), ndims, int_vector(env, s, P::dims),
                                               flag_vector(env, s, P::periods), std::move(label));
  }
  if (id == CallId::cart_sub)
    co_return co_await coll::comm::cart_sub(rk, c, next_instance(env, c), flag_vector(env, s, P::remain_dims),
                                            std::move(label));
  if (id == CallId::graph_create) {
    const int nnodes = rank_arg(env, s, P::nnodes);
    co_return co_await coll::comm::graph_create(rk, c, next_instance(env, c), nnodes, int_vector(env, s, P::index),
                                                int_vector(env, s, P::edges), std::move(label));
  }
  if (const Arg& info = arg(s, P::info); info.present) mpi::check_info(eval_int(env, *info.expr));
  // The distributed graphs: this process's edges as (source, destination, weight) triples.
  const int me = c.rank_of(env.rank, env.rank);
  std::vector<int> edges;
  auto weights_of = [&](P p, std::size_t n, const char* count) {
    if (!arg(s, p).present) return std::vector<int>(n, 1);  // MPI_UNWEIGHTED
    std::vector<int> w = int_vector(env, s, p);
    if (w.size() != n)
      throw MpiError(mpi::ErrorClass::arg, param_name(p),
                     std::string(param_name(p)) + " has " + std::to_string(w.size()) + " entries where " + count +
                         " is " + std::to_string(n),
                     "MPI-4.1 §8.5.4: a weight per edge");
    return w;
  };
  auto degree = [&](P p, std::size_t n) {
    const std::int64_t d = int_arg(env, s, p);
    if (d != static_cast<std::int64_t>(n))
      throw MpiError(mpi::ErrorClass::arg, param_name(p),
                     std::string(param_name(p)) + " = " + std::to_string(d) + " but the array has " +
                         std::to_string(n) + " entries",
                     "MPI-4.1 §8.5.4: the degree is the length of the neighbour array");
  };
  if (id == CallId::dist_graph_create_adjacent) {
    const std::vector<int> from = int_vector(env, s, P::sources), to = int_vector(env, s, P::destinations);
    degree(P::indegree, from.size());
    degree(P::outdegree, to.size());
    const std::vector<int> sw = weights_of(P::sourceweights, from.size(), "indegree");
    const std::vector<int> dw = weights_of(P::destweights, to.size(), "outdegree");
    for (std::size_t i = 0; i < from.size(); ++i) edges.insert(edges.end(), {from[i], me, sw[i]});
    for (std::size_t i = 0; i < to.size(); ++i) edges.insert(edges.end(), {me, to[i], dw[i]});
    const bool weighted = arg(s, P::sourceweights).present || arg(s, P::destweights).present;
    co_return co_await coll::comm::dist_graph(rk, c, next_instance(env, c), true, std::move(edges),
                                              static_cast<int>(from.size()), weighted, std::move(label));
  }
  const std::vector<int> from = int_vector(env, s, P::sources), degrees = int_vector(env, s, P::degrees);
  const std::vector<int> to = int_vector(env, s, P::destinations);
  degree(P::n, from.size());
  if (degrees.size() != from.size())
    throw MpiError(mpi::ErrorClass::arg, "degrees",
                   "degrees has " + std::to_string(degrees.size()) + " entries where n is " + std::to_string(from.size()),
                   "MPI-4.1 §8.5.4: degrees has n entries");
  std::size_t total = 0;
  for (int d : degrees) {
    if (d < 0)
      throw MpiError(mpi::ErrorClass::arg, "degrees", "a degree of " + std::to_string(d) + " is negative",
                     "MPI-4.1 §8.5.4: degrees counts edges");
    total += static_cast<std::size_t>(d);
  }
  if (to.size() != total)
    throw MpiError(mpi::ErrorClass::arg, "destinations",
                   "destinations has " + std::to_string(to.size()) + " entries where the degrees add up to " +
                       std::to_string(total),
                   "MPI-4.1 §8.5.4: destinations lists the edges of every source in turn");
  const std::vector<int> w = weights_of(P::weights, total, "the sum of degrees");
  for (std::size_t i = 0, k = 0; i < from.size(); ++i)
    for (int j = 0; j < degrees[i]; ++j, ++k) edges.insert(edges.end(), {from[i], to[k], w[k]});
  co_return co_await coll::comm::dist_graph(rk, c, next_instance(env, c), false, std::move(edges), 0,
                                            arg(s, P::weights).present, std::move(label));
}

bool Executor::topology_call(RankEnv& env, const Step& s) {
  mpi::Rank& rk = world_.rank(env.rank);
  using Kind = mpi::Topology::Kind;
  auto bind_array = [&](P p, std::vector<std::int64_t> v) { bind(env.values(), arg(s, p).name, Value::of(std::move(v))); };
  auto my_rank = [&](const mpi::Communicator& c) { return c.rank_of(env.rank, env.rank); };
  switch (s.spec->id) {
    case CallId::dims_create: {
      const int nnodes = rank_arg(env, s, P::nnodes), ndims = rank_arg(env, s, P::ndims);
      const NameId name = arg(s, P::dims).name;
      const Value* v = find_in(env.values(), name);
      if (!v || !v->is_array || v->is_real)
        throw StepError("dims must name an array bound before the call (for example {\"let\": {\"" + names_.str(name) +
                        "\": [0, 0]}}): MPI_Dims_create reads and updates it");
      if (ndims < 0 || static_cast<std::size_t>(ndims) != v->array.size())
        throw MpiError(mpi::ErrorClass::dims, "ndims",
                       "ndims = " + std::to_string(ndims) + " but dims has " + std::to_string(v->array.size()) +
                           " entries",
                       "MPI-4.1 §8.5.2: dims has ndims entries");
      std::vector<int> dims;
      for (std::int64_t d : v->array) dims.push_back(static_cast<int>(std::max<std::int64_t>(INT_MIN, std::min<std::int64_t>(INT_MAX, d))));
      mpi::dims_create(nnodes, dims);
      bind_array(P::dims, std::vector<std::int64_t>(dims.begin(), dims.end()));
      return true;
    }
    case CallId::cart_map:
      bind_int(env, s, P::newrank,
               coll::comm::cart_map(rk, comm_arg(env, s), rank_arg(env, s, P::ndims), int_vector(env, s, P::dims),
                                    flag_vector(env, s, P::periods)));
      return true;
    case CallId::graph_map:
      bind_int(env, s, P::newrank,
               coll::comm::graph_map(rk, comm_arg(env, s), rank_arg(env, s, P::nnodes), int_vector(env, s, P::index),
                                     int_vector(env, s, P::edges)));
      return true;
    case CallId::topo_test: {
      const mpi::Topology* t = comm_arg(env, s).topology();
      bind_int(env, s, P::status, t ? t->status() : mpi::UNDEFINED);
      return true;
    }
    case CallId::cartdim_get:
      bind_int(env, s, P::ndims,
               static_cast<std::int64_t>(mpi::topology_of(comm_arg(env, s), Kind::cart, "comm").cart.dims.size()));
      return true;
    case CallId::cart_get: {
      const auto& c = comm_arg(env, s);
      const mpi::CartTopology& t = mpi::topology_of(c, Kind::cart, "comm").cart;
      const std::int64_t max = int_arg(env, s, P::maxdims);
      std::vector<int> periods;
      for (bool b : t.periods) periods.push_back(b ? 1 : 0);
      bind_array(P::dims, wide(t.dims, max));
      bind_array(P::periods, wide(periods, max));
      bind_array(P::coords, wide(t.coords(my_rank(c)), max));
      return true;
    }
    case CallId::cart_rank: {
      const mpi::CartTopology& t = mpi::topology_of(comm_arg(env, s), Kind::cart, "comm").cart;
      const std::vector<int> coords = int_vector(env, s, P::coords);
      bind_int(env, s, P::rank, t.rank(coords, "coords"));
      return true;
    }
    case CallId::cart_coords: {
      const mpi::CartTopology& t = mpi::topology_of(comm_arg(env, s), Kind::cart, "comm").cart;
      const int r = rank_arg(env, s, P::rank);
      bind_array(P::coords, wide(t.coords(r), int_arg(env, s, P::maxdims)));
      return true;
    }
    case CallId::cart_shift: {
      const auto& c = comm_arg(env, s);
      const mpi::CartTopology& t = mpi::topology_of(c, Kind::cart, "comm").cart;
      int source = 0, dest = 0;
      t.shift(my_rank(c), rank_arg(env, s, P::direction), rank_arg(env, s, P::disp), &source, &dest);
      bind_int(env, s, P::rank_source, source);
      bind_int(env, s, P::rank_dest, dest);
      return true;
    }
    case CallId::graphdims_get: {
      const mpi::GraphTopology& g = mpi::topology_of(comm_arg(env, s), Kind::graph, "comm").graph;
      bind_int(env, s, P::nnodes, g.nnodes());
      bind_int(env, s, P::nedges, static_cast<std::int64_t>(g.edges.size()));
      return true;
    }
    case CallId::graph_get: {
      const mpi::GraphTopology& g = mpi::topology_of(comm_arg(env, s), Kind::graph, "comm").graph;
      bind_array(P::index, wide(g.index, int_arg(env, s, P::maxindex)));
      bind_array(P::edges, wide(g.edges, int_arg(env, s, P::maxedges)));
      return true;
    }
    case CallId::graph_neighbors_count:
    case CallId::graph_neighbors: {
      const mpi::GraphTopology& g = mpi::topology_of(comm_arg(env, s), Kind::graph, "comm").graph;
      const std::vector<int> n = g.neighbors(mpi::graph_node(g, rank_arg(env, s, P::rank)));
      if (s.spec->id == CallId::graph_neighbors_count) bind_int(env, s, P::nneighbors, static_cast<std::int64_t>(n.size()));
      else bind_array(P::neighbors, wide(n, int_arg(env, s, P::maxneighbors)));
      return true;
    }
    case CallId::dist_graph_neighbors_count:
    case CallId::dist_graph_neighbors: {
      const auto& c = comm_arg(env, s);
      const mpi::Topology& t = mpi::topology_of(c, Kind::dist_graph, "comm");
      const mpi::Adjacency& a = t.nodes[static_cast<std::size_t>(my_rank(c))];
      if (s.spec->id == CallId::dist_graph_neighbors_count) {
        bind_int(env, s, P::indegree, static_cast<std::int64_t>(a.sources.size()));
        bind_int(env, s, P::outdegree, static_cast<std::int64_t>(a.destinations.size()));
        bind_int(env, s, P::weighted, t.weighted ? 1 : 0);
        return true;
      }
      const std::int64_t in = int_arg(env, s, P::maxindegree), out = int_arg(env, s, P::maxoutdegree);
      bind_array(P::sources, wide(a.sources, in));
      bind_array(P::destinations, wide(a.destinations, out));
      if (arg(s, P::sourceweights).present) bind_array(P::sourceweights, wide(a.sourceweights, in));
      if (arg(s, P::destweights).present) bind_array(P::destweights, wide(a.destweights, out));
      return true;
    }
    default: return false;
  }
}

}  // namespace mpisim::scenario::exec
