/* Persistent collectives (MPI-4.1 §6.13) may be started in any order, differing
 * among processes: each start of a request meets the same start of the same
 * request elsewhere. Even ranks start A then B, odd ranks B then A, three times;
 * MPI_Startall with the order reversed too. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, size, one = 1, sum = 0, mine, max = -1;
  MPI_Request req[2], rev[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mine = rank;
  MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Allreduce_init(&mine, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
  for (int round = 0; round < 3; round++) {
    mine = rank + round;
    if (rank % 2 == 0) {
      MPI_Start(&req[0]);
      MPI_Start(&req[1]);
    } else {
      MPI_Start(&req[1]);
      MPI_Start(&req[0]);
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    if (rank == 0) printf("round %d: sum %d, max %d\n", round, sum, max);
  }
  rev[0] = rank % 2 ? req[1] : req[0];
  rev[1] = rank % 2 ? req[0] : req[1];
  MPI_Startall(2, rev);
  MPI_Waitall(2, rev, MPI_STATUSES_IGNORE);
  if (rank == 0) printf("startall: sum %d, max %d\n", sum, max);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  MPI_Finalize();
  return 0;
}
