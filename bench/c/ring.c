/* Benchmark: a ring of MPI_Sendrecv, `rounds` times around (argv[1], default 1000). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 1000;
  int token = rank, got = 0;
  for (int i = 0; i < rounds; ++i) {
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token = got;
  }
  if (rank == 0) printf("%d ranks, %d rounds: token %d\n", size, rounds, token);
  MPI_Finalize();
  return 0;
}
