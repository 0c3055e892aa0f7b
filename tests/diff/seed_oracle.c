/* Differential test of the seed collectives, the real MPI's side: the seed
 * scenarios (scenarios/seed/) written in C, run under mpiexec with 4 processes.
 * Prints (through rank 0, in rank order) one line per buffer of interest:
 *   <scenario> <rank> <buffer> <values...>
 * seed_replay runs the same scenarios in mpisim and compares. Where the standard
 * leaves part of a buffer undefined (in-place reduce-scatter: everything after the
 * rank's block), only the defined prefix is printed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* Each rank's lines collect here; at the end rank 0 gathers and prints them all,
 * in rank order, so no forwarding of several processes' output can split a line. */
static char* out = NULL;
static size_t out_len = 0, out_cap = 0;

static void emit(const char* text) {
  size_t n = strlen(text);
  if (out_len + n + 1 > out_cap) {
    out_cap = 2 * (out_len + n + 1);
    out = realloc(out, out_cap);
  }
  memcpy(out + out_len, text, n + 1);
  out_len += n;
}

static void print(const char* scenario, const char* buffer, const int* v, int n) {
  char item[64];
  snprintf(item, sizeof item, "%s %d %s", scenario, rank, buffer);
  emit(item);
  for (int i = 0; i < n; ++i) {
    snprintf(item, sizeof item, " %d", v[i]);
    emit(item);
  }
  emit("\n");
}

static void flush_all(void) {
  int len = (int)out_len, *lens = NULL, *displs = NULL, total = 0;
  char* all = NULL;
  if (rank == 0) lens = malloc(sizeof(int) * size), displs = malloc(sizeof(int) * size);
  MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < size; ++i) displs[i] = total, total += lens[i];
    all = malloc((size_t)total + 1);
  }
  MPI_Gatherv(out, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    fwrite(all, 1, (size_t)total, stdout);
    free(all), free(lens), free(displs);
  }
  free(out);
}

static void scatter(void) { /* 4.11 */
  int root = 0, *sendbuf = NULL, rbuf[100];
  if (rank == root) {
    sendbuf = malloc(sizeof(int) * 100 * size);
    for (int i = 0; i < 100 * size; ++i) sendbuf[i] = i;
  }
  for (int i = 0; i < 100; ++i) rbuf[i] = -1;
  MPI_Scatter(sendbuf, 100, MPI_INT, rbuf, 100, MPI_INT, root, MPI_COMM_WORLD);
  print("scatter", "rbuf", rbuf, 100);
  free(sendbuf);
}

static void scatterv_stride(void) { /* 4.12 */
  int root = 0, stride = 150, *sendbuf = NULL, rbuf[100], *displs = malloc(sizeof(int) * size),
      *scounts = malloc(sizeof(int) * size);
  if (rank == root) {
    sendbuf = malloc(sizeof(int) * size * stride);
    for (int i = 0; i < size * stride; ++i) sendbuf[i] = i;
  }
  for (int i = 0; i < size; ++i) displs[i] = i * stride, scounts[i] = 100;
  for (int i = 0; i < 100; ++i) rbuf[i] = -1;
  MPI_Scatterv(sendbuf, scounts, displs, MPI_INT, rbuf, 100, MPI_INT, root, MPI_COMM_WORLD);
  print("scatterv-stride", "rbuf", rbuf, 100);
  free(sendbuf), free(displs), free(scounts);
}

static void scatterv_column(void) { /* 4.13 */
  int root = 0, *sendbuf = NULL, *displs = malloc(sizeof(int) * size), *scounts = malloc(sizeof(int) * size);
  static int recvarray[100][150];
  MPI_Datatype rtype;
  if (rank == root) {
    sendbuf = malloc(sizeof(int) * (100 * size + size * size));
    for (int i = 0; i < 100 * size + size * size; ++i) sendbuf[i] = i;
  }
  for (int i = 0; i < size; ++i) displs[i] = 100 * i + i * (i - 1) / 2, scounts[i] = 100 - i;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 150; ++j) recvarray[i][j] = -1;
  MPI_Type_vector(100 - rank, 1, 150, MPI_INT, &rtype);
  MPI_Type_commit(&rtype);
  MPI_Scatterv(sendbuf, scounts, displs, MPI_INT, &recvarray[0][rank], 1, rtype, root, MPI_COMM_WORLD);
  print("scatterv-column", "recvarray", &recvarray[0][0], 15000);
  MPI_Type_free(&rtype);
  free(sendbuf), free(displs), free(scounts);
}

static void scatter_in_place(void) {
  int root = 1, sendbuf[40], rbuf[10];
  for (int i = 0; i < 40; ++i) sendbuf[i] = i;
  for (int i = 0; i < 10; ++i) rbuf[i] = -1;
  if (rank == root)
    MPI_Scatter(sendbuf, 10, MPI_INT, MPI_IN_PLACE, 0, MPI_INT, root, MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, 0, MPI_INT, rbuf, 10, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    print("scatter-in-place", "sendbuf", sendbuf, 40);
  else
    print("scatter-in-place", "rbuf", rbuf, 10);
}

/* inoutvec = invec x inoutvec, 2x2 int matrices stored row by row. */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  int *a = in, *b = inout;
  (void)type;
  for (int m = 0; m < *len; ++m, a += 4, b += 4) {
    int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
    for (int k = 0; k < 4; ++k) b[k] = c[k];
  }
}

static void reduce_scatter(void) {
  int p = size, *v = malloc(sizeof(int) * 2 * p), r[2], *w = malloc(sizeof(int) * p * (p + 1) / 2),
      *counts = malloc(sizeof(int) * p), *m = malloc(sizeof(int) * 4 * p), mr[4];
  MPI_Datatype matrix;
  MPI_Op op;
  for (int i = 0; i < 2 * p; ++i) v[i] = rank + i;
  MPI_Reduce_scatter_block(v, r, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < p * (p + 1) / 2; ++i) w[i] = rank * i;
  for (int i = 0; i < p; ++i) counts[i] = i + 1;
  MPI_Reduce_scatter(MPI_IN_PLACE, w, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Type_contiguous(4, MPI_INT, &matrix);
  MPI_Type_commit(&matrix);
  MPI_Op_create(matmul, 0, &op);
  for (int i = 0; i < 4 * p; ++i) m[i] = i % 4 == 2 ? 0 : (i % 4 == 3 ? rank + 1 : 1);
  MPI_Reduce_scatter_block(m, mr, 1, matrix, op, MPI_COMM_WORLD);
  print("reduce-scatter", "r", r, 2);
  print("reduce-scatter", "w", w, counts[rank]);
  print("reduce-scatter", "mr", mr, 4);
  MPI_Op_free(&op);
  MPI_Type_free(&matrix);
  free(v), free(w), free(counts), free(m);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  scatter();
  scatterv_stride();
  scatterv_column();
  scatter_in_place();
  reduce_scatter();
  flush_all();
  MPI_Finalize();
  return 0;
}
