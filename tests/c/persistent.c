/* Persistent collectives: initialised once, started and completed again and again. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int x = 0, sum = 0, b = 0, gathered[64];
  MPI_Request reqs[3];
  MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
  MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]);
  MPI_Allgather_init(&x, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]);
  for (int round = 0; round < 3; ++round) {
    x = rank * 10 + round;
    b = rank == 0 ? 100 + round : -1;
    MPI_Start(&reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Startall(2, &reqs[1]);
    MPI_Status st[2];
    MPI_Waitall(2, &reqs[1], st);
    printf("rank %d round %d: sum %d bcast %d gathered[last] %d, still a request %d\n", rank, round, sum, b,
           gathered[size - 1], reqs[0] != MPI_REQUEST_NULL);
  }
  int flag = 0;
  MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE); /* inactive: completes at once */
  printf("rank %d: test on an inactive request %d\n", rank, flag);
  for (int i = 0; i < 3; ++i) MPI_Request_free(&reqs[i]);
  printf("rank %d: freed %d\n", rank, reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL);
  MPI_Finalize();
  return 0;
}
