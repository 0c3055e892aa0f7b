/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 §3.10): one request completes
   both the send and the receive, with the receive's status; a freed one completes
   unseen. And a loop that waits on MPI_Wtime alone ends. Any number of ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  int out[2] = {rank, rank * 10}, in[2] = {-1, -1}, count = 0;
  MPI_Request r;
  MPI_Status st;
  MPI_Isendrecv(out, 2, MPI_INT, right, 3, in, 2, MPI_INT, left, 3, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  printf("rank %d: isendrecv got %d %d from %d, tag %d, count %d, request null %d\n", rank, in[0], in[1],
         st.MPI_SOURCE, st.MPI_TAG, count, r == MPI_REQUEST_NULL);

  /* The data sent is the buffer's content at the call; a test loop completes it. */
  int buf[3] = {rank, rank + 100, rank + 200}, flag = 0;
  MPI_Isendrecv_replace(buf, 3, MPI_INT, left, 4, right, 4, MPI_COMM_WORLD, &r);
  while (!flag) MPI_Test(&r, &flag, &st);
  printf("rank %d: isendrecv_replace got %d %d %d from %d\n", rank, buf[0], buf[1], buf[2], st.MPI_SOURCE);

  /* Mixed with single requests in one MPI_Waitall. */
  MPI_Request rs[3];
  MPI_Status sts[3];
  int one = -1;
  MPI_Irecv(&one, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &rs[0]);
  MPI_Isendrecv(out, 1, MPI_INT, right, 5, in, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &rs[1]);
  MPI_Isend(&out[1], 1, MPI_INT, left, 6, MPI_COMM_WORLD, &rs[2]);
  MPI_Waitall(3, rs, sts);
  printf("rank %d: waitall got %d and %d, sources %d %d\n", rank, one, in[0], sts[0].MPI_SOURCE, sts[1].MPI_SOURCE);

  /* MPI_PROC_NULL on both sides: complete at once, empty status. */
  MPI_Isendrecv(out, 1, MPI_INT, MPI_PROC_NULL, 0, in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  printf("rank %d: proc_null source %d count %d\n", rank, st.MPI_SOURCE == MPI_PROC_NULL, count);

  /* A request freed before it completes: the exchange still happens. */
  int late = -1;
  MPI_Isendrecv(&rank, 1, MPI_INT, right, 8, &late, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Sendrecv(&rank, 1, MPI_INT, right, 9, &one, 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: freed request null %d\n", rank, r == MPI_REQUEST_NULL);

  /* Waiting for the clock alone ends. */
  const double t0 = MPI_Wtime();
  while (MPI_Wtime() - t0 < 1e-4) continue;
  printf("rank %d: waited on MPI_Wtime\n", rank);
  MPI_Finalize();
  return 0;
}
