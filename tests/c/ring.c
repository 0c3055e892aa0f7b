/* A ring: each rank passes a token to the next, n times around. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  int token = rank, got = -1;
  for (int i = 0; i < rounds; ++i) {
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token = got + 1;
  }
  printf("rank %d of %d: token %d\n", rank, size, token);
  MPI_Finalize();
  return 0;
}
