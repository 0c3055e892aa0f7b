// Cartesian topologies: the grid's numbering, shifts at the edges, MPI_Dims_create.
#include <doctest/doctest.h>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/topology.hpp"

using namespace mpisim::mpi;

TEST_CASE("MPI_Dims_create: balanced, non-increasing, fixed entries kept") {
  auto dims = [](int n, std::vector<int> d) {
    dims_create(n, d);
    return d;
  };
  CHECK(dims(12, {0, 0}) == std::vector<int>{4, 3});
  CHECK(dims(24, {0, 0, 0}) == std::vector<int>{4, 3, 2});
  CHECK(dims(12, {0, 2, 0}) == std::vector<int>{3, 2, 2});
  CHECK(dims(7, {0, 0}) == std::vector<int>{7, 1});
  CHECK(dims(72, {0, 0}) == std::vector<int>{9, 8});    // not 12 x 6: as close as possible, as MPICH
  CHECK(dims(180, {0, 0}) == std::vector<int>{15, 12});
  CHECK(dims(16, {0, 0, 0}) == std::vector<int>{4, 2, 2});
  CHECK_THROWS_AS(dims(6, {1 << 30, 1 << 30, 0}), MpiError);  // fixed product past nnodes, not an overflow
  CHECK(dims(1, {0, 0, 0}) == std::vector<int>{1, 1, 1});
  CHECK_THROWS_AS(dims(16, {}), MpiError);  // no dimension to hold 16 nodes
  CHECK_THROWS_AS(dims(12, {5, 0}), MpiError);  // 5 does not divide 12
  CHECK_THROWS_AS(dims(0, {0}), MpiError);
  CHECK_THROWS_AS(dims(6, {-1, 0}), MpiError);
}

// MPICH's choice among the factorisations whose largest and smallest factors
// differ least: the largest smallest factor, then the largest second-smallest.
// Each expected grid is what MPICH 4.0 returns.
TEST_CASE("MPI_Dims_create: of equally spread grids, the one with the largest smallest factor, as MPICH") {
  auto dims = [](int n, std::vector<int> d) {
    dims_create(n, d);
    return d;
  };
  CHECK(dims(5040, {0, 0, 0}) == std::vector<int>{21, 16, 15});  // not 20 x 18 x 14, also 6 apart
  CHECK(dims(360, {0, 0, 0}) == std::vector<int>{10, 6, 6});     // not 9 x 8 x 5, also 4 apart
  CHECK(dims(3696, {0, 0, 0}) == std::vector<int>{22, 14, 12});
  CHECK(dims(2520, {0, 0, 0, 0}) == std::vector<int>{10, 7, 6, 6});
  CHECK(dims(5040, {0, 0, 0, 0}) == std::vector<int>{10, 9, 8, 7});
  CHECK(dims(720, {0, 0, 0, 2}) == std::vector<int>{10, 6, 6, 2});  // the fixed 2 stays
  CHECK(dims(2160, {0, 0, 1, 0}) == std::vector<int>{15, 12, 1, 12});
  CHECK(dims(5040, {0, 0, 0, 0, 0}) == std::vector<int>{7, 6, 6, 5, 4});
  // Many divisors in many dimensions: the search stays quick.
  CHECK(dims(735134400, std::vector<int>(8, 0)) == std::vector<int>{17, 15, 14, 13, 12, 12, 11, 10});
}

TEST_CASE("a Cartesian grid: row-major ranks, periodic wrap, MPI_PROC_NULL past an edge") {
  const CartTopology t = make_cart(12, {3, 4}, {true, false});
  CHECK(t.size() == 12);
  CHECK(t.coords(7) == std::vector<int>{1, 3});
  CHECK(t.rank({1, 3}, "coords") == 7);
  CHECK(t.rank({-1, 0}, "coords") == 8);  // wraps in the periodic dimension
  CHECK_THROWS_AS(t.rank({0, 4}, "coords"), MpiError);
  int source = 0, dest = 0;
  t.shift(7, 1, 1, &source, &dest);  // along the non-periodic one, at its last column
  CHECK(source == 6);
  CHECK(dest == PROC_NULL);
  t.shift(7, 0, 2, &source, &dest);  // periodic: 1 - 2 wraps to 2, 1 + 2 to 0
  CHECK(source == 11);
  CHECK(dest == 3);
  CHECK_THROWS_AS(make_cart(11, {3, 4}, {false, false}), MpiError);  // more processes than the communicator
  const CartSub rows = cart_sub(t, 7, {false, true});
  CHECK(rows.color == 1);
  CHECK(rows.key == 3);
  CHECK(rows.topology.dims == std::vector<int>{4});
}
