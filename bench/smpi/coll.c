/* One collective, timed in SimGrid's SMPI, for bench/smpi/compare.sh.
 * usage: coll allreduce|bcast|alltoall BYTES [init]
 * With "init", the send buffers are filled first, as the data-mode scenarios of
 * bench/scenarios fill theirs (allreduce: rank * 1000 + i; alltoall: the low byte
 * of rank * 100000 + i), so both simulators do the same work on real bytes.
 * Prints the makespan in picoseconds: from time 0 to the last rank's exit from
 * the call (the same quantity as mpisim's makespan for a one-call scenario).
 * BYTES is the count in bytes as `mpisim cost` means it (docs/cost.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3 && !(argc == 4 && strcmp(argv[3], "init") == 0)) {
    if (rank == 0) fprintf(stderr, "usage: coll allreduce|bcast|alltoall BYTES [init]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long bytes = atol(argv[2]);
  int init = argc == 4;
  double t0 = MPI_Wtime();
  if (strcmp(argv[1], "allreduce") == 0) {
    int n = (int)((bytes + 7) / 8);
    double* s = calloc((size_t)n + 1, sizeof(double));
    double* r = calloc((size_t)n + 1, sizeof(double));
    if (init)
      for (int i = 0; i < n; ++i) s[i] = (double)rank * 1000 + i;
    MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  } else if (strcmp(argv[1], "bcast") == 0) {
    char* b = calloc((size_t)bytes + 1, 1);
    MPI_Bcast(b, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  } else {
    char* s = calloc((size_t)bytes * size + 1, 1);
    char* r = calloc((size_t)bytes * size + 1, 1);
    if (init)
      for (long i = 0; i < bytes * size; ++i) s[i] = (char)(unsigned char)((long)rank * 100000 + i);
    MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime() - t0, last = 0;
  MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.0f\n", last * 1e12);
  MPI_Finalize();
  return 0;
}
