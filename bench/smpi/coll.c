/* One collective, timed in SimGrid's SMPI, for bench/smpi/compare.sh and
 * bench/smpi/sweep.sh.
 * usage: coll COLLECTIVE BYTES [init]
 *   COLLECTIVE: barrier bcast gather scatter allgather allgatherv allreduce reduce
 *               reduce_scatter alltoall alltoallv
 * BYTES is the count in bytes as `mpisim cost` means it (docs/cost.md): the buffer
 * for bcast; the vector each rank contributes for reduce and allreduce; each rank's
 * block of the result for reduce_scatter; what each rank contributes (gather,
 * allgather(v)), receives (scatter) or sends to each rank (alltoall(v)). Reductions add
 * MPI_DOUBLEs with MPI_SUM (BYTES rounded up to a multiple of 8); the others move
 * MPI_BYTEs; the root is rank 0.
 * With "init" (allreduce and alltoall), the send buffers are filled first, as the
 * data-mode scenarios of bench/scenarios fill theirs (allreduce: rank * 1000 + i;
 * alltoall: the low byte of rank * 100000 + i), so both simulators do the same work
 * on real bytes. Without it the buffers come from SMPI_SHARED_MALLOC (one block
 * behind every rank's buffer, its contents never copied), so that a sweep of
 * 256 ranks x 1 MiB blocks fits in memory; the times are the same.
 * Prints the makespan in picoseconds: from time 0 to the last rank's exit from
 * the call (the same quantity as mpisim's makespan for a one-call scenario). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int init;

static void* buffer(size_t bytes) {
  if (init) return calloc(bytes + 1, 1);
  void* p = SMPI_SHARED_MALLOC(bytes + 1);
  return p;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3 && !(argc == 4 && strcmp(argv[3], "init") == 0)) {
    if (rank == 0) fprintf(stderr, "usage: coll COLLECTIVE BYTES [init]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* call = argv[1];
  long bytes = atol(argv[2]);
  init = argc == 4;
  int n = (int)((bytes + 7) / 8); /* doubles, for the reductions */
  size_t p = (size_t)size;
  void *s = NULL, *r = NULL;
  int* counts = NULL;
  int* displs = NULL;
  /* Buffers first, so that their allocation is not timed. */
  if (strcmp(call, "allreduce") == 0 || strcmp(call, "reduce") == 0) {
    s = buffer((size_t)n * 8);
    r = buffer((size_t)n * 8);
    if (init)
      for (int i = 0; i < n; ++i) ((double*)s)[i] = (double)rank * 1000 + i;
  } else if (strcmp(call, "reduce_scatter") == 0) {
    s = buffer((size_t)n * 8 * p);
    r = buffer((size_t)n * 8);
    counts = malloc(p * sizeof(int));
    for (size_t i = 0; i < p; ++i) counts[i] = n;
  } else if (strcmp(call, "bcast") == 0) {
    s = buffer((size_t)bytes);
  } else if (strcmp(call, "gather") == 0 || strcmp(call, "scatter") == 0 || strcmp(call, "allgather") == 0 ||
             strcmp(call, "allgatherv") == 0) {
    s = buffer((size_t)bytes);
    r = buffer((size_t)bytes * p);
    counts = malloc(p * sizeof(int));
    displs = malloc(p * sizeof(int));
    for (size_t i = 0; i < p; ++i) counts[i] = (int)bytes, displs[i] = (int)(bytes * (long)i);
  } else if (strcmp(call, "alltoall") == 0 || strcmp(call, "alltoallv") == 0) {
    s = buffer((size_t)bytes * p);
    r = buffer((size_t)bytes * p);
    counts = malloc(p * sizeof(int));
    displs = malloc(p * sizeof(int));
    for (size_t i = 0; i < p; ++i) counts[i] = (int)bytes, displs[i] = (int)(bytes * (long)i);
    if (init)
      for (long i = 0; i < bytes * size; ++i) ((char*)s)[i] = (char)(unsigned char)((long)rank * 100000 + i);
  } else if (strcmp(call, "barrier") != 0) {
    if (rank == 0) fprintf(stderr, "coll: unknown collective %s\n", call);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double t0 = MPI_Wtime();
  if (strcmp(call, "allreduce") == 0)
    MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (strcmp(call, "reduce") == 0)
    MPI_Reduce(s, r, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else if (strcmp(call, "reduce_scatter") == 0)
    MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  else if (strcmp(call, "bcast") == 0)
    MPI_Bcast(s, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(call, "gather") == 0)
    MPI_Gather(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(call, "scatter") == 0)
    MPI_Scatter(r, (int)bytes, MPI_BYTE, s, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (strcmp(call, "allgather") == 0)
    MPI_Allgather(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (strcmp(call, "allgatherv") == 0)
    MPI_Allgatherv(s, (int)bytes, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  else if (strcmp(call, "alltoall") == 0)
    MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
  else if (strcmp(call, "alltoallv") == 0)
    MPI_Alltoallv(s, counts, displs, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0, last = 0;
  MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.0f\n", last * 1e12);
  MPI_Finalize();
  return 0;
}
