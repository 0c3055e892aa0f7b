#pragma once
// Process topologies (MPI-4.1 §8): the Cartesian grid, graph or distributed graph
// a communicator's ranks are laid out on, as values and functions. Cartesian ranks
// are numbered row-major (the last dimension varies fastest); a periodic dimension
// wraps around. A communicator made by a topology constructor carries its
// Topology (Communicator::topology); MPI_Comm_dup copies it.
#include <cstdint>
#include <memory>
#include <vector>

namespace mpisim::mpi {

struct CartTopology {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const;  // the product of dims
  // The coordinates of grid rank r (MPI_Cart_coords, §8.5.5): a rank outside the
  // grid is MPI_ERR_RANK.
  std::vector<int> coords(int r) const;
  // The rank at `coords`: a periodic coordinate wraps; an out-of-range one of a
  // non-periodic dimension is MPI_ERR_ARG naming `argument`.
  int rank(const std::vector<int>& coords, const char* argument) const;
  // MPI_Cart_shift: the ranks `disp` steps back and forward along `direction`
  // from `r`; MPI_PROC_NULL past a non-periodic edge.
  void shift(int r, int direction, int disp, int* source, int* dest) const;
};

// MPI_Cart_create's arguments checked: ndims >= 0, every dimension positive, and
// no more processes than the communicator has (MPI_ERR_DIMS, MPI_ERR_ARG).
CartTopology make_cart(int comm_size, const std::vector<int>& dims, const std::vector<bool>& periods);

// MPI_Dims_create (§8.5.2): fills the zero entries of `dims` so that the product
// is nnodes, the filled entries as close to each other as possible and in
// non-increasing order; the nonzero entries stay. MPI_ERR_DIMS when they cannot.
// "As close as possible" is MPICH's choice: the least difference between the
// largest and smallest filled entries, then the largest smallest entry, then the
// largest second-smallest, and so on.
void dims_create(int nnodes, std::vector<int>& dims);

// MPI_Cart_sub (§8.5.7): the color of `r`'s sub-grid (its coordinates in the
// dropped dimensions) and its key in it (its rank in the kept ones), and the
// sub-grid's topology.
struct CartSub {
  int color, key;
  CartTopology topology;
};
CartSub cart_sub(const CartTopology& t, int r, const std::vector<bool>& remain);

// A graph topology (MPI-4.1 §8.5.3): node i's neighbours are
// edges[index[i-1] .. index[i]) (index[-1] = 0), in that order.
struct GraphTopology {
  std::vector<int> index, edges;
  int nnodes() const { return static_cast<int>(index.size()); }
  std::vector<int> neighbors(int r) const;
};

// Node `r` of g for MPI_Graph_neighbors(_count): MPI_ERR_RANK unless 0 <= r < nnodes.
int graph_node(const GraphTopology& g, int r);

// MPI_Graph_create's arguments checked: nnodes between 0 and the communicator's
// size, index non-decreasing and non-negative, every edge a node of the graph.
GraphTopology make_graph(int comm_size, const std::vector<int>& index, const std::vector<int>& edges);

// One process's edges in a distributed graph topology (§8.5.4): where it
// receives from and where it sends to, in the order the neighbourhood
// collectives use, with their weights (1 each when the graph is unweighted).
struct Adjacency {
  std::vector<int> sources, sourceweights, destinations, destweights;
};

struct Topology {
  enum class Kind : std::uint8_t { cart, graph, dist_graph };
  Kind kind = Kind::cart;
  CartTopology cart;             // cart
  GraphTopology graph;           // graph
  std::vector<Adjacency> nodes;  // dist_graph: by rank in the communicator
  bool weighted = false;         // dist_graph: weights were given (not MPI_UNWEIGHTED)

  // MPI_Topo_test's answer: MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH.
  int status() const;
  // The neighbourhood of rank r as the neighbourhood collectives see it (§8.6):
  // the ranks it receives from, and sends to, in block order; MPI_PROC_NULL
  // where a Cartesian dimension ends (its block is there, and untouched).
  std::vector<int> sources(int r) const;
  std::vector<int> destinations(int r) const;
  // Which block pairs with which along an edge (§8.6). On a Cartesian grid the
  // block a process sends in the positive direction of a dimension arrives in its
  // neighbour's block from the negative direction, and the reverse (so a periodic
  // dimension of size 1 or 2, whose two neighbours are one process, is still
  // unambiguous): block k pairs with block k ^ 1. On a graph, several edges
  // between two processes pair in order: the n-th from s to r with r's n-th from s.
  // send_block(r, k): the block of r's k-th source that fills r's block k;
  // recv_block(r, j): the block of r's j-th destination that r's block j fills;
  // -1 when the other end has no such edge.
  int send_block(int r, int k) const;
  int recv_block(int r, int j) const;
};
using TopologyRef = std::shared_ptr<const Topology>;

// What a Topology is called in messages: "a 2 x 3 Cartesian grid", "a graph of 4 nodes".
const char* topology_kind_name(Topology::Kind k);

}  // namespace mpisim::mpi
