#pragma once
// Cartesian process topologies (MPI-4.1 §8.5): the grid a communicator's ranks
// are laid out on, as values and functions. Ranks are numbered row-major (the
// last dimension varies fastest); a periodic dimension wraps around.
#include <cstdint>
#include <vector>

namespace mpisim::mpi {

struct CartTopology {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const;  // the product of dims
  // The coordinates of grid rank r (0 <= r < size()).
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
void dims_create(int nnodes, std::vector<int>& dims);

// MPI_Cart_sub (§8.5.7): the color of `r`'s sub-grid (its coordinates in the
// dropped dimensions) and its key in it (its rank in the kept ones), and the
// sub-grid's topology.
struct CartSub {
  int color, key;
  CartTopology topology;
};
CartSub cart_sub(const CartTopology& t, int r, const std::vector<bool>& remain);

}  // namespace mpisim::mpi
