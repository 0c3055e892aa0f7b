/* The profiling interface (MPI-4.1 §15.2): the program defines MPI_Send and
 * MPI_Allreduce itself, counting the calls, and reaches MPI through their PMPI_
 * names; PMPI_ names of other calls work as their MPI_ names. */
#include <mpi.h>
#include <stdio.h>

static int sends, allreduces;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  ++sends;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ++allreduces;
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int main(int argc, char **argv) {
  PMPI_Init(&argc, &argv);
  int rank, size;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int token = rank;
  for (int round = 0; round < 3; ++round) {
    if (rank % 2 == 0) {
      MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, round, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      int got;
      PMPI_Recv(&got, 1, MPI_INT, (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, round, MPI_COMM_WORLD);
      token = got;
    }
  }
  int total;
  MPI_Allreduce(&token, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  PMPI_Allreduce(&token, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Fint f = PMPI_Message_c2f(m);
  printf("rank %d: token %d total %d sends %d allreduces %d message %s\n", rank, token, total, sends, allreduces,
         PMPI_Message_f2c(f) == MPI_MESSAGE_NULL ? "null" : "other");
  PMPI_Finalize();
  return 0;
}
