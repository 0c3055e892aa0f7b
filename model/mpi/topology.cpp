#include "model/mpi/topology.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"

namespace mpisim::mpi {

int CartTopology::size() const {
  int n = 1;
  for (int d : dims) n *= d;
  return n;
}

std::vector<int> CartTopology::coords(int r) const {
  if (r < 0 || r >= size())
    throw MpiError(ErrorClass::rank, "rank",
                   "rank = " + std::to_string(r) + " is not a rank of the grid (size " + std::to_string(size()) + ")",
                   "MPI-4.1 §8.5.5: rank is a rank of the Cartesian communicator");
  std::vector<int> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    c[i] = r % dims[i];
    r /= dims[i];
  }
  return c;
}

int CartTopology::rank(const std::vector<int>& coords, const char* argument) const {
  if (coords.size() != dims.size())
    throw MpiError(ErrorClass::arg, argument,
                   std::string(argument) + " has " + std::to_string(coords.size()) + " entries; the grid has " +
                       std::to_string(dims.size()) + " dimensions",
                   "MPI-4.1 §8.5.5: coords has one entry per dimension");
  int r = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int c = coords[i];
    if (c < 0 || c >= dims[i]) {
      if (!periods[i])
        throw MpiError(ErrorClass::arg, argument,
                       std::string(argument) + "[" + std::to_string(i) + "] = " + std::to_string(c) +
                           " is outside 0.." + std::to_string(dims[i] - 1) + " of a dimension that is not periodic",
                       "MPI-4.1 §8.5.4: a coordinate of a non-periodic dimension must lie in its range");
      c = ((c % dims[i]) + dims[i]) % dims[i];
    }
    r = r * dims[i] + c;
  }
  return r;
}

void CartTopology::shift(int r, int direction, int disp, int* source, int* dest) const {
  if (direction < 0 || static_cast<std::size_t>(direction) >= dims.size())
    throw MpiError(ErrorClass::arg, "direction",
                   "direction = " + std::to_string(direction) + " is not a dimension of the grid (0.." +
                       std::to_string(static_cast<int>(dims.size()) - 1) + ")",
                   "MPI-4.1 §8.5.6: direction is a dimension of the Cartesian topology");
  const std::vector<int> here = coords(r);
  auto along = [&](long long step) {
    std::vector<int> c = here;
    const long long v = c[static_cast<std::size_t>(direction)] + step;
    const int d = dims[static_cast<std::size_t>(direction)];
    if (!periods[static_cast<std::size_t>(direction)] && (v < 0 || v >= d)) return PROC_NULL;
    c[static_cast<std::size_t>(direction)] = static_cast<int>(((v % d) + d) % d);
    return rank(c, "coords");
  };
  *source = along(-static_cast<long long>(disp));
  *dest = along(disp);
}

CartTopology make_cart(int comm_size, const std::vector<int>& dims, const std::vector<bool>& periods) {
  long long n = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0)
      throw MpiError(ErrorClass::dims, "dims",
                     "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is not positive",
                     "MPI-4.1 §8.5.1: each dimension of a Cartesian grid has at least one process");
    n *= dims[i];
    if (n > comm_size) {
      std::string shape;
      for (std::size_t k = 0; k < dims.size(); ++k) shape += (k ? " x " : "") + std::to_string(dims[k]);
      throw MpiError(ErrorClass::arg, "dims",
                     "the grid " + shape + " has more processes than the communicator's " + std::to_string(comm_size),
                     "MPI-4.1 §8.5.1: the grid's size may not exceed the size of comm_old");
    }
  }
  return CartTopology{dims, periods};
}

namespace {

// "As close to each other as possible" (§8.5.2) read as MPICH reads it: of the
// ways to write n as `parts` factors, the one whose largest and smallest factors
// differ least; of those, the one with the largest smallest factor, then the
// largest second-smallest, and so on. Returned largest first.
//
// Branch and bound over the factors in non-decreasing order, drawn from n's
// divisors: a partial choice is dropped once its spread cannot beat the best
// one found, and the last two factors are the most even pair (the largest
// divisor of what is left up to its square root), the only pair that can be
// best. Visiting smaller factors first and keeping the later of equal spreads
// gives the tie rule.
class BalancedSearch {
 public:
  BalancedSearch(int n, int parts) : parts_(parts) {
    for (int d = 1; static_cast<long long>(d) * d <= n; ++d)
      if (n % d == 0) {
        divisors_.push_back(d);
        if (d != n / d) divisors_.push_back(n / d);
      }
    std::sort(divisors_.begin(), divisors_.end());
    now_.reserve(static_cast<std::size_t>(parts));
  }

  std::vector<int> run(int n) {
    if (parts_ == 1) return {n};
    visit(n, parts_, 0);
    return std::vector<int>(best_.rbegin(), best_.rend());
  }

 private:
  // at least ceil(left^(1/parts)): the largest of `parts` factors of `left`
  static long long root_ceiling(long long left, int parts) {
    long long r = static_cast<long long>(std::pow(static_cast<double>(left), 1.0 / parts));
    auto power_below = [&](long long x) {  // x^parts < left, without overflow
      long long p = 1;
      for (int k = 0; k < parts; ++k) {
        p *= x;
        if (p >= left) return false;
      }
      return true;
    };
    while (r > 1 && !power_below(r - 1)) --r;
    while (power_below(r)) ++r;
    return std::max(r, 1LL);
  }

  // Chooses the remaining `parts` factors of `left`, each at least divisors_[from].
  void visit(long long left, int parts, std::size_t from) {
    const long long smallest = now_.empty() ? 0 : now_.front();
    if (parts == 2) {
      // the most even pair: the largest divisor b of left with b*b <= left
      auto it = std::upper_bound(divisors_.begin() + static_cast<std::ptrdiff_t>(from), divisors_.end(),
                                 root_ceiling(left, 2));
      while (it != divisors_.begin() + static_cast<std::ptrdiff_t>(from)) {
        const long long b = *--it;
        if (b * b > left || left % b != 0) continue;
        const long long a = left / b;
        const long long spread = a - (now_.empty() ? b : smallest);
        if (best_spread_ < 0 || spread <= best_spread_) {
          best_ = now_;
          best_.push_back(static_cast<int>(b));
          best_.push_back(static_cast<int>(a));
          best_spread_ = spread;
        }
        return;
      }
      return;
    }
    const long long largest_at_least = root_ceiling(left, parts);
    for (std::size_t i = from; i < divisors_.size(); ++i) {
      const long long d = divisors_[i];
      const long long low = now_.empty() ? d : smallest;
      if (best_spread_ >= 0 && d - low > best_spread_) break;  // every factor left is at least d
      if (best_spread_ >= 0 && largest_at_least - low > best_spread_) continue;
      long long power = 1;  // d^parts must not pass left
      bool fits = true;
      for (int k = 0; k < parts && fits; ++k) fits = (power *= d) <= left;
      if (!fits) break;
      if (left % d != 0) continue;
      now_.push_back(static_cast<int>(d));
      visit(left / d, parts - 1, i);
      now_.pop_back();
    }
  }

  int parts_;
  std::vector<int> divisors_;  // of n, increasing
  std::vector<int> now_;       // the factors chosen so far, non-decreasing
  std::vector<int> best_;
  long long best_spread_ = -1;
};

std::vector<int> balanced_factors(int n, int parts) { return BalancedSearch(n, parts).run(n); }

}  // namespace

void dims_create(int nnodes, std::vector<int>& dims) {
  if (nnodes <= 0)
    throw MpiError(ErrorClass::dims, "nnodes", "nnodes = " + std::to_string(nnodes) + " is not positive",
                   "MPI-4.1 §8.5.2: nnodes is the number of processes of the grid");
  long long fixed = 1;
  std::vector<std::size_t> free;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0)
      throw MpiError(ErrorClass::dims, "dims",
                     "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is negative",
                     "MPI-4.1 §8.5.2: an entry of dims is 0 (to be chosen) or a fixed positive size");
    if (dims[i] == 0) free.push_back(i);
    else fixed *= dims[i];
    if (fixed > nnodes)
      throw MpiError(ErrorClass::dims, "dims",
                     "the fixed dimensions' product exceeds nnodes = " + std::to_string(nnodes),
                     "MPI-4.1 §8.5.2: nnodes must be a multiple of the product of the nonzero entries of dims");
  }
  if (nnodes % fixed != 0)
    throw MpiError(ErrorClass::dims, "dims",
                   "the fixed dimensions' product " + std::to_string(fixed) + " does not divide nnodes = " +
                       std::to_string(nnodes),
                   "MPI-4.1 §8.5.2: nnodes must be a multiple of the product of the nonzero entries of dims");
  int rest = static_cast<int>(nnodes / fixed);
  if (free.empty()) {
    if (rest != 1)
      throw MpiError(ErrorClass::dims, "dims",
                     "every dimension is fixed and their product is not nnodes = " + std::to_string(nnodes),
                     "MPI-4.1 §8.5.2: the product of dims must be nnodes");
    return;
  }
  const std::vector<int> best = balanced_factors(rest, static_cast<int>(free.size()));
  for (std::size_t k = 0; k < free.size(); ++k) dims[free[k]] = best[k];
}

CartSub cart_sub(const CartTopology& t, int r, const std::vector<bool>& remain) {
  const std::vector<int> c = t.coords(r);
  CartSub out{0, 0, {}};
  for (std::size_t i = 0; i < t.dims.size(); ++i) {
    if (remain[i]) {
      out.key = out.key * t.dims[i] + c[i];
      out.topology.dims.push_back(t.dims[i]);
      out.topology.periods.push_back(t.periods[i]);
    } else {
      out.color = out.color * t.dims[i] + c[i];
    }
  }
  return out;
}

std::vector<int> GraphTopology::neighbors(int r) const {
  const auto i = static_cast<std::size_t>(r);
  const int first = i == 0 ? 0 : index[i - 1];
  return std::vector<int>(edges.begin() + first, edges.begin() + index[i]);
}

int graph_node(const GraphTopology& g, int r) {
  if (r < 0 || r >= g.nnodes())
    throw MpiError(ErrorClass::rank, "rank",
                   "rank = " + std::to_string(r) + " is not a node of the graph (0.." + std::to_string(g.nnodes() - 1) + ")",
                   "MPI-4.1 §8.5.5: rank is a process of the graph communicator");
  return r;
}

GraphTopology make_graph(int comm_size, const std::vector<int>& index, const std::vector<int>& edges) {
  const auto nnodes = static_cast<int>(index.size());
  if (nnodes > comm_size)
    throw MpiError(ErrorClass::arg, "nnodes",
                   "nnodes = " + std::to_string(nnodes) + " exceeds the communicator's size " + std::to_string(comm_size),
                   "MPI-4.1 §8.5.3: the graph has at most as many nodes as comm_old has processes");
  int before = 0;
  for (int i = 0; i < nnodes; ++i) {
    const int here = index[static_cast<std::size_t>(i)];
    if (here < before)
      throw MpiError(ErrorClass::arg, "index",
                     "index[" + std::to_string(i) + "] = " + std::to_string(here) + " is less than " +
                         (i == 0 ? std::string("0") : "index[" + std::to_string(i - 1) + "] = " + std::to_string(before)),
                     "MPI-4.1 §8.5.3: index[i] is the total number of neighbours of nodes 0..i, non-decreasing");
    before = here;
  }
  if (static_cast<std::size_t>(before) != edges.size())
    throw MpiError(ErrorClass::arg, "edges",
                   "index[nnodes-1] = " + std::to_string(before) + " but " + std::to_string(edges.size()) +
                       " edges were given",
                   "MPI-4.1 §8.5.3: edges lists index[nnodes-1] neighbours");
  for (std::size_t k = 0; k < edges.size(); ++k)
    if (edges[k] < 0 || edges[k] >= nnodes)
      throw MpiError(ErrorClass::topology, "edges",
                     "edges[" + std::to_string(k) + "] = " + std::to_string(edges[k]) + " is not a node of the graph (0.." +
                         std::to_string(nnodes - 1) + ")",
                     "MPI-4.1 §8.5.3: every edge leads to a node of the graph");
  return GraphTopology{index, edges};
}

int Topology::status() const {
  switch (kind) {
    case Kind::cart: return CART;
    case Kind::graph: return GRAPH;
    case Kind::dist_graph: return DIST_GRAPH;
  }
  return UNDEFINED;
}

std::vector<int> Topology::sources(int r) const {
  switch (kind) {
    case Kind::cart: {
      // Per dimension, the neighbour below then the one above (§8.6).
      std::vector<int> out;
      for (std::size_t d = 0; d < cart.dims.size(); ++d) {
        int source = 0, dest = 0;
        cart.shift(r, static_cast<int>(d), 1, &source, &dest);
        out.push_back(source);
        out.push_back(dest);
      }
      return out;
    }
    case Kind::graph: return graph.neighbors(r);
    case Kind::dist_graph: return nodes[static_cast<std::size_t>(r)].sources;
  }
  return {};
}

std::vector<int> Topology::destinations(int r) const {
  if (kind == Kind::dist_graph) return nodes[static_cast<std::size_t>(r)].destinations;
  return sources(r);  // Cartesian and graph neighbourhoods are symmetric
}

namespace {
// The position in `list` of the n-th (from 0) appearance of `peer`, or -1.
int nth_position(const std::vector<int>& list, int peer, std::ptrdiff_t n) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == peer && n-- == 0) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Topology::send_block(int r, int k) const {
  if (kind == Kind::cart) return k ^ 1;
  const std::vector<int> in = sources(r);
  const int s = in[static_cast<std::size_t>(k)];
  return nth_position(destinations(s), r, std::count(in.begin(), in.begin() + k, s));
}

int Topology::recv_block(int r, int j) const {
  if (kind == Kind::cart) return j ^ 1;
  const std::vector<int> out = destinations(r);
  const int d = out[static_cast<std::size_t>(j)];
  return nth_position(sources(d), r, std::count(out.begin(), out.begin() + j, d));
}

const char* topology_kind_name(Topology::Kind k) {
  switch (k) {
    case Topology::Kind::cart: return "Cartesian";
    case Topology::Kind::graph: return "graph";
    case Topology::Kind::dist_graph: return "distributed graph";
  }
  return "?";
}

}  // namespace mpisim::mpi
