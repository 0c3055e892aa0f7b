/* MPI_Comm_idup and MPI_Comm_idup_with_info (MPI-4.1 §7.4.2): the duplicates are
   made while the ranks reduce on MPI_COMM_WORLD, and work once the requests
   complete; an attribute is copied to them as by MPI_Comm_dup. Handles convert to
   Fortran's and back. Any number of ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int keyval, value = 42;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);

  MPI_Comm dup, dup2;
  MPI_Request reqs[2];
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &reqs[0]);
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup2, &reqs[1]);
  int v = rank + 1, sum = -1;
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Status statuses[2];
  MPI_Waitall(2, reqs, statuses);

  int dup_size, cmp, sum2 = -1, flag = 0, *got = NULL;
  MPI_Comm_size(dup, &dup_size);
  MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
  MPI_Allreduce(&v, &sum2, 1, MPI_INT, MPI_SUM, dup2);
  MPI_Comm_get_attr(dup, keyval, &got, &flag);
  printf("rank %d: sum %d, dup size %d congruent %d, sum on the second %d, attribute %d %d\n", rank, sum, dup_size,
         cmp == MPI_CONGRUENT, sum2, flag, flag ? *got : -1);
  /* A handle is the same in Fortran (MPI_Fint) and back. */
  MPI_Message none = MPI_MESSAGE_NULL;
  printf("rank %d: handles through Fortran: %d %d %d %d\n", rank, MPI_Comm_f2c(MPI_Comm_c2f(dup)) == dup,
         MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE, MPI_Message_f2c(MPI_Message_c2f(none)) == none,
         MPI_Request_f2c(MPI_Request_c2f(reqs[0])) == MPI_REQUEST_NULL);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&dup2);
  MPI_Comm_free_keyval(&keyval);
  MPI_Finalize();
  return 0;
}
