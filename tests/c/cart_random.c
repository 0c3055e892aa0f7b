/* Random Cartesian grids, the same on every rank (a seed from the command line):
   MPI_Dims_create with some dimensions fixed, MPI_Cart_create with random
   periods, then each rank's coordinates, shifts by several displacements in
   every dimension, MPI_Cart_rank back from the coordinates, and a random
   MPI_Cart_sub. Compared with MPICH at several rank counts and seeds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;
static int next(int n) { /* a deterministic generator, the same on every rank */
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((state >> 33) % (unsigned long long)n);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  state = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  for (int trial = 0; trial < 12; ++trial) {
    int ndims = 1 + next(4), dims[4] = {0, 0, 0, 0}, periods[4], remain[4];
    int left = size;
    for (int d = 0; d < ndims; ++d) {
      periods[d] = next(2);
      remain[d] = next(2);
      if (next(3) == 0) { /* fix this dimension to a divisor of what is left */
        int f = 1 + next(left);
        while (left % f != 0) --f;
        dims[d] = f;
        left /= f;
      }
    }
    int kept = 0;
    for (int d = 0; d < ndims; ++d) kept += remain[d];
    /* Every dimension dropped gives each process a zero-dimensional grid of its
       own (Open MPI, later MPICH); MPICH 4.0 gives MPI_COMM_NULL but at rank 0. */
    if (kept == 0) remain[next(ndims)] = 1;
    int free_dims = 0;
    for (int d = 0; d < ndims; ++d) free_dims += dims[d] == 0;
    if (free_dims == 0) dims[ndims - 1] = 0; /* one left to choose, so the product can be size */
    MPI_Dims_create(size, ndims, dims);
    if (rank == 0) {
      printf("trial %d: dims", trial);
      for (int d = 0; d < ndims; ++d) printf(" %d%s", dims[d], periods[d] ? "p" : "");
      printf("\n");
    }
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &grid);
    int coords[4], back;
    MPI_Cart_coords(grid, rank, ndims, coords);
    MPI_Cart_rank(grid, coords, &back);
    char line[512];
    int at = snprintf(line, sizeof line, "trial %d rank %d: coords", trial, rank);
    for (int d = 0; d < ndims; ++d) at += snprintf(line + at, sizeof line - (size_t)at, " %d", coords[d]);
    at += snprintf(line + at, sizeof line - (size_t)at, ", back %d, shifts", back);
    const int disps[4] = {-2, 1, 2, 3};
    for (int d = 0; d < ndims; ++d)
      for (int k = 0; k < 4; ++k) {
        int src, dst;
        MPI_Cart_shift(grid, d, disps[k], &src, &dst);
        at += snprintf(line + at, sizeof line - (size_t)at, " %d/%d", src, dst);
      }
    MPI_Comm sub;
    MPI_Cart_sub(grid, remain, &sub);
    int subrank, subsize, subdims = 0;
    MPI_Comm_rank(sub, &subrank);
    MPI_Comm_size(sub, &subsize);
    MPI_Cartdim_get(sub, &subdims);
    snprintf(line + at, sizeof line - (size_t)at, ", sub %d of %d (%d dims)", subrank, subsize, subdims);
    printf("%s\n", line);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&grid);
  }
  MPI_Finalize();
  return 0;
}
