/* The seed examples as a C program: MPI-4.1 Examples 6.11, 6.12 and 6.13
 * (scatter, scatterv with a stride, scatterv into a column), MPI_Scatter in
 * place, and reduce-scatter with MPI_SUM, in place, and with a non-commutative
 * user operation (2x2 integer matrix product). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, gsize;

static void report(const char *what, int ok, int first, int last) {
  printf("%s rank %d: %s (first %d, last %d)\n", what, rank, ok ? "as the standard says" : "WRONG", first, last);
}

/* inout = in x inout for row-major 2x2 matrices of ints */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  int *a = in, *b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) {
    int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
    for (int i = 0; i < 4; ++i) b[i] = c[i];
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &gsize);
  const int root = 0;

  /* Example 6.11: 100 ints to each process. */
  int *sendbuf = malloc(sizeof(int) * gsize * 150 + sizeof(int) * gsize * gsize), rbuf[100];
  for (int i = 0; i < gsize * 150; ++i) sendbuf[i] = i;
  MPI_Scatter(sendbuf, 100, MPI_INT, rbuf, 100, MPI_INT, root, MPI_COMM_WORLD);
  int ok = 1;
  for (int j = 0; j < 100; ++j) ok &= rbuf[j] == 100 * rank + j;
  report("scatter", ok, rbuf[0], rbuf[99]);

  /* Example 6.12: the sets 150 ints apart at the root. */
  int *counts = malloc(sizeof(int) * gsize), *displs = malloc(sizeof(int) * gsize);
  for (int k = 0; k < gsize; ++k) counts[k] = 100, displs[k] = k * 150;
  MPI_Scatterv(sendbuf, counts, displs, MPI_INT, rbuf, 100, MPI_INT, root, MPI_COMM_WORLD);
  ok = 1;
  for (int j = 0; j < 100; ++j) ok &= rbuf[j] == 150 * rank + j;
  report("scatterv-stride", ok, rbuf[0], rbuf[99]);

  /* Example 6.13: rank i receives 100-i ints into column i of a 100x150 array. */
  static int recvarray[100][150];
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 150; ++j) recvarray[i][j] = -1;
  for (int k = 0; k < gsize; ++k) counts[k] = 100 - k, displs[k] = 100 * k + k * (k - 1) / 2;
  for (int i = 0; i < 100 * gsize + gsize * gsize; ++i) sendbuf[i] = i;
  MPI_Datatype rtype;
  MPI_Type_vector(100 - rank, 1, 150, MPI_INT, &rtype);
  MPI_Type_commit(&rtype);
  MPI_Scatterv(sendbuf, counts, displs, MPI_INT, &recvarray[0][rank], 1, rtype, root, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 150; ++j)
      ok &= recvarray[i][j] == (j == rank && i < 100 - rank ? displs[rank] + i : -1);
  report("scatterv-column", ok, recvarray[0][rank], recvarray[99 - rank][rank]);
  MPI_Type_free(&rtype);

  /* MPI_Scatter in place at the root (root 1). */
  const int r1 = gsize > 1 ? 1 : 0;
  int in_place[400], ten[10];
  for (int i = 0; i < 10 * gsize; ++i) in_place[i] = i;
  for (int j = 0; j < 10; ++j) ten[j] = -1;
  if (rank == r1)
    MPI_Scatter(in_place, 10, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r1, MPI_COMM_WORLD);
  else
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, ten, 10, MPI_INT, r1, MPI_COMM_WORLD);
  ok = 1;
  if (rank == r1)
    for (int j = 0; j < 10 * gsize; ++j) ok &= in_place[j] == j;
  else
    for (int j = 0; j < 10; ++j) ok &= ten[j] == 10 * rank + j;
  report("scatter-in-place", ok, rank == r1 ? in_place[0] : ten[0], rank == r1 ? in_place[10 * gsize - 1] : ten[9]);

  /* Reduce-scatter: the sum, block by block. */
  int p = gsize, *v = malloc(sizeof(int) * 2 * p), r[2];
  for (int i = 0; i < 2 * p; ++i) v[i] = rank + i;
  MPI_Reduce_scatter_block(v, r, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ok = r[0] == p * (p - 1) / 2 + p * (2 * rank) && r[1] == p * (p - 1) / 2 + p * (2 * rank + 1);
  report("reduce_scatter_block", ok, r[0], r[1]);
  int *w = malloc(sizeof(int) * p * (p + 1) / 2), *rc = malloc(sizeof(int) * p);
  for (int i = 0; i < p * (p + 1) / 2; ++i) w[i] = rank * i;
  for (int k = 0; k < p; ++k) rc[k] = k + 1;
  MPI_Reduce_scatter(MPI_IN_PLACE, w, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  report("reduce_scatter-in-place", w[0] == (p * (p - 1) / 2) * (rank * (rank + 1) / 2), w[0], w[rank]);

  /* A non-commutative user operation: A0 A1 ... in rank order. */
  MPI_Datatype matrix;
  MPI_Op op;
  int commute = -1;
  MPI_Type_contiguous(4, MPI_INT, &matrix);
  MPI_Type_commit(&matrix);
  MPI_Op_create(matmul, 0, &op);
  MPI_Op_commutative(op, &commute);
  int *m = malloc(sizeof(int) * 4 * p), mr[4];
  for (int i = 0; i < 4 * p; ++i) m[i] = i % 4 == 2 ? 0 : (i % 4 == 3 ? rank + 1 : 1);
  MPI_Reduce_scatter_block(m, mr, 1, matrix, op, MPI_COMM_WORLD);
  printf("matmul rank %d: commutative %d, [%d %d; %d %d]\n", rank, commute, mr[0], mr[1], mr[2], mr[3]);
  MPI_Op_free(&op);
  MPI_Type_free(&matrix);
  free(sendbuf), free(counts), free(displs), free(v), free(w), free(rc), free(m);
  MPI_Finalize();
  return 0;
}
