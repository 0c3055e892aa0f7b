/* Persistent point-to-point requests, MPI_Cancel and matched probes: each rank
   prints what it received and how each request ended. Runs on any number of
   ranks (alone, it talks to itself). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  /* A ring of persistent requests, started five times; the send buffer changes
     between starts and each start sends what it holds then. */
  int out = 0, in = -1, sum = 0;
  MPI_Request reqs[2];
  MPI_Status statuses[2];
  MPI_Recv_init(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]);
  MPI_Send_init(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
  for (int i = 0; i < 5; ++i) {
    out = rank * 100 + i;
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, statuses);
    sum += in;
  }
  int inactive_flag = 0;
  MPI_Test(&reqs[0], &inactive_flag, MPI_STATUS_IGNORE); /* inactive: at once, flag 1 */
  printf("rank %d: persistent ring sum %d, inactive test %d, handle kept %d\n", rank, sum, inactive_flag,
         reqs[0] != MPI_REQUEST_NULL);
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);

  /* Persistent synchronous and ready sends. */
  int a = rank + 1000, b = -1;
  MPI_Request rr, ss;
  MPI_Recv_init(&b, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &rr);
  MPI_Ssend_init(&a, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &ss);
  MPI_Start(&rr);
  MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: a ready send would be correct too */
  MPI_Start(&ss);
  MPI_Wait(&ss, MPI_STATUS_IGNORE);
  MPI_Wait(&rr, MPI_STATUS_IGNORE);
  printf("rank %d: ssend_init got %d\n", rank, b);
  MPI_Request_free(&rr);
  MPI_Request_free(&ss);

  /* A receive that nothing matches, cancelled. */
  int never = -1, flag = 0;
  MPI_Request r;
  MPI_Status st;
  MPI_Irecv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  printf("rank %d: receive cancelled %d, request null %d\n", rank, flag, r == MPI_REQUEST_NULL);

  /* Matched probes: the message MPI_Mprobe found is received by MPI_Mrecv. */
  int msg[3] = {rank, rank * 2, rank * 3}, got[3] = {0, 0, 0};
  MPI_Send(msg, 3, MPI_INT, right, 5, MPI_COMM_WORLD);
  MPI_Message m;
  MPI_Mprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &m, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_INT, &count);
  MPI_Mrecv(got, 3, MPI_INT, &m, &st);
  printf("rank %d: mprobe from %d count %d got %d %d %d, handle null %d\n", rank, st.MPI_SOURCE, count, got[0],
         got[1], got[2], m == MPI_MESSAGE_NULL);

  /* MPI_Improbe polls until the message is there; MPI_Imrecv receives it. */
  MPI_Send(msg, 2, MPI_INT, left, 6, MPI_COMM_WORLD);
  do MPI_Improbe(right, 6, MPI_COMM_WORLD, &flag, &m, &st);
  while (!flag);
  MPI_Imrecv(got, 3, MPI_INT, &m, &r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  printf("rank %d: improbe got %d values from %d: %d %d\n", rank, count, st.MPI_SOURCE, got[0], got[1]);

  /* A probe of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, received at once. */
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st);
  int was_no_proc = m == MPI_MESSAGE_NO_PROC;
  MPI_Mrecv(got, 3, MPI_INT, &m, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  printf("rank %d: no_proc %d source %d count %d\n", rank, was_no_proc, st.MPI_SOURCE == MPI_PROC_NULL, count);

  /* A persistent receive from MPI_PROC_NULL completes at once, every start. */
  MPI_Recv_init(got, 3, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
  for (int i = 0; i < 3; ++i) {
    MPI_Start(&r);
    MPI_Wait(&r, &st);
  }
  printf("rank %d: proc_null persistent source %d\n", rank, st.MPI_SOURCE == MPI_PROC_NULL);
  MPI_Request_free(&r);

  /* A status the program sets: cancelled, then not (MPI-4.1 §13.3). */
  int cancelled_set, cancelled_cleared;
  MPI_Status_set_cancelled(&st, 1);
  MPI_Test_cancelled(&st, &cancelled_set);
  MPI_Status_set_cancelled(&st, 0);
  MPI_Test_cancelled(&st, &cancelled_cleared);
  printf("rank %d: set_cancelled %d %d\n", rank, cancelled_set, cancelled_cleared);

  MPI_Finalize();
  return 0;
}
