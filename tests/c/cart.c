/* Cartesian topologies: a balanced grid, neighbours by shift (a halo exchange),
 * coordinates, rows by MPI_Cart_sub. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  int d3[3] = {0, 2, 0};
  if (size % 2 == 0) {
    MPI_Dims_create(size, 3, d3);
  }
  if (rank == 0) printf("dims %d x %d; 3-d with a fixed 2: %d %d %d\n", dims[0], dims[1], d3[0], d3[1], d3[2]);
  if (rank == 0) {
    /* the most even grids, as MPICH chooses them */
    const int ns[] = {72, 180, 16, 2147483646, 1000000, 97, 64, 120};
    for (int k = 0; k < 8; ++k)
      for (int nd = 1; nd <= 4; ++nd) {
        int d[4] = {0, 0, 0, 0};
        MPI_Dims_create(ns[k], nd, d);
        printf("dims_create %d in %d: %d %d %d %d\n", ns[k], nd, d[0], d[1], d[2], d[3]);
      }
  }
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int topo, ndims, coords[2], up, down, left, right, again;
  MPI_Topo_test(grid, &topo);
  MPI_Cartdim_get(grid, &ndims);
  MPI_Cart_coords(grid, rank, 2, coords);
  MPI_Cart_rank(grid, coords, &again);
  MPI_Cart_shift(grid, 0, 1, &up, &down);
  MPI_Cart_shift(grid, 1, 1, &left, &right);
  int mine = rank, from_up = -9, from_left = -9;
  MPI_Sendrecv(&mine, 1, MPI_INT, down, 0, &from_up, 1, MPI_INT, up, 0, grid, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&mine, 1, MPI_INT, right, 1, &from_left, 1, MPI_INT, left, 1, grid, MPI_STATUS_IGNORE);
  printf("rank %d: cart %d, %d dims, at (%d,%d) = %d, up %d down %d left %d right %d, got %d from up, %d from left\n",
         rank, topo == MPI_CART, ndims, coords[0], coords[1], again, up, down, left, right, from_up, from_left);
  int remain[2] = {0, 1}, rrank, rsize, sum = 0;
  MPI_Comm row;
  MPI_Cart_sub(grid, remain, &row);
  MPI_Comm_rank(row, &rrank);
  MPI_Comm_size(row, &rsize);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
  int rd, rp, rc;
  MPI_Cart_get(row, 1, &rd, &rp, &rc);
  printf("rank %d: row rank %d of %d, row sum %d, row grid %d periodic %d at %d\n", rank, rrank, rsize, sum, rd, rp, rc);
  MPI_Topo_test(MPI_COMM_WORLD, &topo);
  if (rank == 0) printf("world has a topology %d\n", topo != MPI_UNDEFINED);
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
