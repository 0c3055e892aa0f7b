/* Differential test of MPI_Dims_create, the real-MPI side: prints, one per line,
 * "nnodes ndims dims-before -> dims-after" for nnodes 1..N and 1..4 free
 * dimensions, then calls with fixed (nonzero) entries, then large nnodes in up
 * to 8 dimensions; tests/diff/dims_replay.cpp runs mpisim's dims_create on each and compares.
 * Usage: mpiexec -n 1 dims_oracle N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void one(int nnodes, int ndims, const int* before) {
  int dims[8], i;
  for (i = 0; i < ndims; ++i) dims[i] = before[i];
  if (MPI_Dims_create(nnodes, ndims, dims) != MPI_SUCCESS) return;
  printf("%d %d", nnodes, ndims);
  for (i = 0; i < ndims; ++i) printf(" %d", before[i]);
  printf(" ->");
  for (i = 0; i < ndims; ++i) printf(" %d", dims[i]);
  printf("\n");
}

int main(int argc, char** argv) {
  int n, d, i;
  MPI_Init(&argc, &argv);
  const int last = argc > 1 ? atoi(argv[1]) : 6000;
  for (n = 1; n <= last; ++n)
    for (d = 1; d <= 4; ++d) {
      int zeros[8] = {0};
      one(n, d, zeros);
    }
  /* Fixed entries: the free ones share what the fixed ones leave. */
  for (n = 1; n <= last; ++n) {
    static const int fixed[][6] = {{3, 0, 2, 0}, {4, 0, 0, 0, 2}, {3, 2, 0, 0, 0}, {4, 0, 0, 1, 0}, {5, 0, 0, 0, 0, 0}};
    for (i = 0; i < 5; ++i) {
      int d0 = fixed[i][0], prod = 1, k;
      for (k = 1; k <= d0; ++k) if (fixed[i][k]) prod *= fixed[i][k];
      if (n % prod == 0) one(n, d0, &fixed[i][1]);
    }
  }
  /* Large, highly composite nnodes in up to 8 dimensions. */
  {
    static const int large[] = {720720, 735134400, 1048576, 1073741824, 963761198, 2147483646, 997920, 362880};
    int zeros[8] = {0};
    for (i = 0; i < (int)(sizeof large / sizeof large[0]); ++i)
      for (d = 1; d <= 8; ++d) one(large[i], d, zeros);
  }
  MPI_Finalize();
  return 0;
}
