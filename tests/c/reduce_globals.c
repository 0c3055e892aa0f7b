/* Reductions of vectors above the eager limit whose buffers are globals: each
   rank's copy lies elsewhere while another rank runs, and a partner may read or
   combine into it from there (a reduction round's data read where it lies). */
#include <mpi.h>
#include <stdio.h>

#define N 65536
static double in[N];
static double out[N];

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < N; ++i) in[i] = rank * 1000.0 + i;
  MPI_Allreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int wrong = 0;
  double checksum = 0;
  for (int i = 0; i < N; ++i) {
    wrong += out[i] != 1000.0 * size * (size - 1) / 2 + (double)size * i;
    checksum += out[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, in, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < N; ++i) wrong += in[i] != (size - 1) * 1000.0 + i;
  MPI_Reduce_scatter_block(out, in, N / size, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N / size; ++i) wrong += in[i] != size * out[rank * (N / size) + i];
  printf("rank %d: %d wrong, checksum %.0f\n", rank, wrong, checksum);
  MPI_Finalize();
  return 0;
}
