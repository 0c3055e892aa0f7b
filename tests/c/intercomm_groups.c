/* MPI_Intercomm_create_from_groups (MPI-4.1 §7.6.2): the even and the odd world
 * ranks make an intercommunicator with no parent communicator, then a broadcast
 * and an allreduce cross it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world, evens, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int even_range[1][3] = {{0, (size - 1) / 2 * 2, 2}}, odd_range[1][3] = {{1, (size - 2) / 2 * 2 + 1, 2}};
  MPI_Group_range_incl(world, 1, even_range, &evens);
  MPI_Group_range_incl(world, 1, odd_range, &odds);
  MPI_Comm across;
  if (rank % 2 == 0)
    MPI_Intercomm_create_from_groups(evens, 0, odds, 0, "evens and odds", MPI_INFO_NULL, MPI_ERRORS_RETURN, &across);
  else
    MPI_Intercomm_create_from_groups(odds, 0, evens, 0, "evens and odds", MPI_INFO_NULL, MPI_ERRORS_RETURN, &across);
  int inter, mine, theirs, lr;
  MPI_Comm_test_inter(across, &inter);
  MPI_Comm_size(across, &mine);
  MPI_Comm_remote_size(across, &theirs);
  MPI_Comm_rank(across, &lr);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(across, &eh);
  printf("rank %d: inter %d, local rank %d, sizes %d and %d, returns errors %d\n", rank, inter, lr, mine, theirs,
         eh == MPI_ERRORS_RETURN);
  int x = rank * 10, sum = -1;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, across);
  int value = rank % 2 == 0 ? 77 : -1;
  /* The evens' leader broadcasts to the odds. */
  if (rank % 2 == 0) MPI_Bcast(&value, 1, MPI_INT, lr == 0 ? MPI_ROOT : MPI_PROC_NULL, across);
  else MPI_Bcast(&value, 1, MPI_INT, 0, across);
  printf("rank %d: sum across %d, broadcast %d\n", rank, sum, value);
  MPI_Comm_free(&across);
  MPI_Group_free(&evens);
  MPI_Group_free(&odds);
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
