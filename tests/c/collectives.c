/* Every blocking collective on MPI_COMM_WORLD, with results printed per rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void print(const char *what, const int *v, int n) {
  char line[4096];
  int at = snprintf(line, sizeof line, "%s rank %d:", what, rank);
  for (int i = 0; i < n && at < (int)sizeof line - 16; ++i) at += snprintf(line + at, sizeof line - at, " %d", v[i]);
  printf("%s\n", line);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = size;
  int *a = malloc(sizeof(int) * n * (n + 2)), *b = malloc(sizeof(int) * n * (n + 2));
  int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
  for (int i = 0; i < n * (n + 2); ++i) a[i] = rank * 100 + i, b[i] = -1;

  const int root = size > 1 ? 1 : 0;
  int x = rank == root ? 42 : 0;
  MPI_Bcast(&x, 1, MPI_INT, root, MPI_COMM_WORLD);
  print("bcast", &x, 1);

  MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) print("gather", b, 2 * n);
  MPI_Scatter(a, 1, MPI_INT, &x, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
  print("scatter", &x, 1);
  MPI_Allgather(&rank, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
  print("allgather", b, n);
  MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
  print("alltoall", b, n);

  for (int i = 0; i < n; ++i) counts[i] = i + 1, displs[i] = i * (n + 1);
  for (int i = 0; i < n * n; ++i) b[i] = -1;
  MPI_Gatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) print("gatherv", b, n * n);
  MPI_Allgatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD);
  print("allgatherv", b, n * n);
  for (int i = 0; i < n * n; ++i) b[i] = -1;
  MPI_Scatterv(a, counts, displs, MPI_INT, b, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
  print("scatterv", b, rank + 1);
  {
    /* rank j sends j + 1 elements to every rank, so each receives j + 1 from rank j */
    int *sc = malloc(sizeof(int) * n), *rc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n),
        *rd = malloc(sizeof(int) * n);
    for (int j = 0; j < n; ++j) sc[j] = rank + 1, sd[j] = j * (n + 1), rc[j] = j + 1, rd[j] = j * (n + 1);
    for (int i = 0; i < n * (n + 2); ++i) b[i] = -1;
    MPI_Alltoallv(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, MPI_COMM_WORLD);
    print("alltoallv", b, n * (n + 1));
    free(sc), free(rc), free(sd), free(rd);
  }

  int v[3] = {rank, rank * rank, 10 - rank}, r[3] = {0, 0, 0};
  MPI_Reduce(v, r, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) print("reduce-sum", r, 3);
  MPI_Allreduce(v, r, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  print("allreduce-max", r, 3);
  MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  print("allreduce-inplace-min", v, 3);
  MPI_Scan(&rank, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  print("scan", &x, 1);
  x = -7;
  MPI_Exscan(&rank, &x, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
  if (rank > 0) print("exscan", &x, 1);
  for (int i = 0; i < n; ++i) a[i] = rank + i, counts[i] = 1;
  MPI_Reduce_scatter(a, &x, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  print("reduce_scatter", &x, 1);
  MPI_Reduce_scatter_block(a, &x, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
  print("reduce_scatter_block", &x, 1);

  double d = rank + 0.5, dsum = 0;
  MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  printf("allreduce-double rank %d: %.2f\n", rank, dsum);
  struct { double v; int i; } in = {(rank * 7) % size, rank}, out;
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  printf("maxloc rank %d: %.1f at %d\n", rank, out.v, out.i);
  MPI_Barrier(MPI_COMM_WORLD);
  free(a), free(b), free(counts), free(displs);
  MPI_Finalize();
  return 0;
}
