/* MPI_ERR_IN_STATUS (MPI-4.1 §3.7.5): a request of MPI_Waitall, MPI_Testall or
   MPI_Waitsome fails (a message longer than its receive buffer) under
   MPI_ERRORS_RETURN; the call returns MPI_ERR_IN_STATUS and each status's
   MPI_ERROR says how its request ended. Two ranks or more (the others idle). */
#include <mpi.h>
#include <stdio.h>

static void report(const char *call, int rc, const MPI_Status *sts, int n) {
  int error_class;
  MPI_Error_class(rc, &error_class);
  printf("%s: in_status %d, errors", call, error_class == MPI_ERR_IN_STATUS);
  for (int i = 0; i < n; ++i) {
    int c = sts[i].MPI_ERROR;
    if (c != MPI_SUCCESS) MPI_Error_class(c, &c);
    printf(" %s", c == MPI_SUCCESS ? "success" : c == MPI_ERR_TRUNCATE ? "truncate" : "other");
  }
  printf("\n");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int four[4] = {1, 2, 3, 4}, one = 0, room[4];
  if (rank == 0) {
    for (int round = 0; round < 3; ++round) {
      MPI_Send(four, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
      MPI_Send(four, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    MPI_Request rs[3];
    MPI_Status sts[3];
    MPI_Irecv(room, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &rs[0]);
    MPI_Irecv(&one, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &rs[1]);
    rs[2] = MPI_REQUEST_NULL;
    report("waitall", MPI_Waitall(3, rs, sts), sts, 3);
    printf("waitall: requests null %d %d\n", rs[0] == MPI_REQUEST_NULL, rs[1] == MPI_REQUEST_NULL);

    MPI_Irecv(room, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &rs[0]);
    MPI_Irecv(&one, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &rs[1]);
    int flag = 0, rc = MPI_SUCCESS;
    while (!flag && rc == MPI_SUCCESS) rc = MPI_Testall(2, rs, &flag, sts);
    report("testall", rc, sts, 2);

    MPI_Irecv(room, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &rs[0]);
    MPI_Irecv(&one, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &rs[1]);
    int done = 0;
    while (done < 2) {
      int outcount, indices[2];
      rc = MPI_Waitsome(2, rs, &outcount, indices, sts);
      if (rc != MPI_SUCCESS) {
        int error_class;
        MPI_Error_class(rc, &error_class);
        for (int k = 0; k < outcount; ++k)
          printf("waitsome: request %d %s\n", indices[k], sts[k].MPI_ERROR == MPI_SUCCESS ? "success" : "failed");
      }
      done += outcount;
    }
  }
  MPI_Finalize();
  return 0;
}
