/* MPI_Cancel on sends (MPI-4.1 §3.8.4): a send whose message is not yet matched
 * is cancelled, whatever its protocol, even when its request is already complete
 * (eager, buffered); one whose message was received is not. Two ranks or more;
 * rank 0 sends to the last rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int last = size - 1, n = 1 << 18;
  int *data = calloc(n, sizeof(int));
  char *pool = malloc(4 * sizeof(int) + MPI_BSEND_OVERHEAD);
  MPI_Buffer_attach(pool, 4 * sizeof(int) + MPI_BSEND_OVERHEAD);
  for (int round = 0; round < 4; ++round) {
    const int count = round == 2 ? n : 4;  /* round 2: past the eager limit */
    if (rank == 0) {
      MPI_Request r;
      MPI_Status st;
      int flag = -1;
      if (round == 1) MPI_Ibsend(data, count, MPI_INT, last, round, MPI_COMM_WORLD, &r);
      else MPI_Isend(data, count, MPI_INT, last, round, MPI_COMM_WORLD, &r);
      if (round == 3) MPI_Barrier(MPI_COMM_WORLD);  /* received by then */
      MPI_Cancel(&r);
      MPI_Wait(&r, &st);
      MPI_Test_cancelled(&st, &flag);
      printf("round %d: cancelled %d\n", round, flag);
      MPI_Send(&flag, 1, MPI_INT, last, 100 + round, MPI_COMM_WORLD);
    } else if (rank == last) {
      int flag, pending = -1;
      if (round == 3) {
        MPI_Recv(data, count, MPI_INT, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
      }
      MPI_Recv(&flag, 1, MPI_INT, 0, 100 + round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Iprobe(0, round, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
      printf("round %d: sender says cancelled %d; a message left to receive %d\n", round, flag, pending);
      if (pending) MPI_Recv(data, count, MPI_INT, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (round == 3) {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  int bytes;
  MPI_Buffer_detach(&pool, &bytes);
  free(pool);
  free(data);
  MPI_Finalize();
  return 0;
}
