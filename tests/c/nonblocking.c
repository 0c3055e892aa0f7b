/* Nonblocking point-to-point and collectives, tests and waits. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int out[2] = {rank, rank * 10}, in[2] = {-1, -1};
  MPI_Request reqs[4];
  MPI_Irecv(&in[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(&in[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[1]);
  MPI_Isend(&out[0], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[2]);
  MPI_Isend(&out[1], 1, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[3]);
  MPI_Status st[4];
  MPI_Waitall(4, reqs, st);
  int count;
  MPI_Get_count(&st[0], MPI_INT, &count);
  printf("rank %d: from left %d, from right %d, source %d tag %d count %d, null %d\n", rank, in[0], in[1],
         st[0].MPI_SOURCE, st[0].MPI_TAG, count, reqs[0] == MPI_REQUEST_NULL);

  int sum = 0, mine = rank + 1;
  MPI_Request r;
  MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  printf("rank %d: iallreduce %d\n", rank, sum);

  int value = rank == 0 ? 99 : 0, flag = 0;
  MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
  while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  printf("rank %d: ibcast %d\n", rank, value);

  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (size > 1 && rank == 0) {
    int v = 5;
    MPI_Send(&v, 1, MPI_INT, size - 1, 7, MPI_COMM_WORLD);
  } else if (size > 1 && rank == size - 1) {
    MPI_Status s;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s);
    int v;
    MPI_Recv(&v, 1, MPI_INT, s.MPI_SOURCE, s.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: probed source %d tag %d, got %d\n", rank, s.MPI_SOURCE, s.MPI_TAG, v);
  }
  MPI_Status s;
  MPI_Recv(&count, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &s);
  MPI_Get_count(&s, MPI_INT, &count);
  printf("rank %d: proc_null source %d tag %d count %d\n", rank, s.MPI_SOURCE, s.MPI_TAG, count);
  MPI_Finalize();
  return 0;
}
