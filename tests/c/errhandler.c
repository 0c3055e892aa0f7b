/* MPI_ERRORS_RETURN: erroneous calls return their error class and the program
 * goes on; a communicator made afterwards inherits the handler. */
#include <mpi.h>
#include <stdio.h>

static int rank, size;

static void show(const char *what, int err) {
  int cls;
  MPI_Error_class(err, &cls);
  printf("rank %d: %s -> class %d\n", rank, what, cls);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  printf("rank %d: default is fatal %d\n", rank, eh == MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  printf("rank %d: now returns %d\n", rank, eh == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&eh);

  int x = rank, y[4] = {0, 0, 0, 0};
  show("send to rank size", MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
  show("negative count", MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD));
  show("bad tag", MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD));
  show("bad root", MPI_Bcast(&x, 1, MPI_INT, size + 3, MPI_COMM_WORLD));
  show("bad op for type", MPI_Allreduce(&x, y, 1, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD));
  if (size > 1) {
    /* a message longer than the receive buffer: the receive returns MPI_ERR_TRUNCATE */
    if (rank == 0) MPI_Send(y, 4, MPI_INT, 1, 9, MPI_COMM_WORLD);
    if (rank == 1) show("truncated receive", MPI_Recv(y, 2, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  }
  if (size > 1) {
    /* a truncated receive completed by MPI_Testany: the error is returned and the
       request is gone (its handle is MPI_REQUEST_NULL) */
    MPI_Request r = MPI_REQUEST_NULL;
    int index = -1, flag = 0, err = MPI_SUCCESS;
    if (rank == 0) MPI_Send(y, 4, MPI_INT, 1, 10, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Irecv(y, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &r);
      while (!flag && err == MPI_SUCCESS) err = MPI_Testany(1, &r, &index, &flag, MPI_STATUS_IGNORE);
      show("testany on a truncated receive", err);
      printf("rank %d: the request is null %d\n", rank, r == MPI_REQUEST_NULL);
    }
  }
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_get_errhandler(dup, &eh);
  printf("rank %d: dup inherits %d\n", rank, eh == MPI_ERRORS_RETURN);
  show("dup: bad rank", MPI_Send(&x, 1, MPI_INT, -7, 0, dup));
  int sum = 0;
  show("a good allreduce", MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, dup));
  printf("rank %d: sum %d\n", rank, sum);
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
