/* For tests/coll/tuning.sh: one MPI_Reduce_scatter_block (MPI_SUM of doubles,
 * COUNT per rank) whose result tells which algorithm ran. The ranks hold 1e16,
 * 1, -1e16, 1, ... so that the order in which an algorithm adds them shows in
 * the rounding: recursive doubling adds neighbours first ((1e16 + 1) + (-1e16 +
 * 1) = 0), recursive halving ranks p/2 apart ((1e16 - 1e16) + (1 + 1) = 2),
 * pairwise one rank after the other (1). Rank 0 prints its first element.
 *   tuning_probe COUNT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, count = argc > 1 ? atoi(argv[1]) : 1024;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* s = malloc(sizeof(double) * (size_t)count * (size_t)size);
  double* r = malloc(sizeof(double) * (size_t)count);
  const double v = rank % 2 == 1 ? 1.0 : rank % 4 == 0 ? 1e16 : -1e16;
  for (int i = 0; i < count * size; ++i) s[i] = v;
  MPI_Reduce_scatter_block(s, r, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("%.17g\n", r[0]);
  free(s);
  free(r);
  MPI_Finalize();
  return 0;
}
