/* MPI_Comm_create_group (MPI-4.1 §7.4.2) on overlapping groups of one
   communicator, all with tag 0: each process makes the calls of its groups in
   turn, so calls on different groups run at the same time (as in MPICH's
   comm_group_rand). Each process reports its rank and size in each new
   communicator, after a barrier on it. The
   groups are the arguments ("023" is world ranks 0, 2 and 3); 4 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const char *const *groups = (const char *const *)argv + 1;
  for (int g = 0; g < argc - 1; ++g) {
    int ranks[4], n = 0, member = 0;
    for (const char *p = groups[g]; *p; ++p) {
      ranks[n++] = *p - '0';
      member |= *p - '0' == rank;
    }
    if (!member) continue;
    MPI_Group sub;
    MPI_Comm comm;
    MPI_Group_incl(world, n, ranks, &sub);
    MPI_Comm_create_group(MPI_COMM_WORLD, sub, 0, &comm);
    MPI_Barrier(comm);
    int size, me;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    printf("rank %d: group %s size %d rank %d\n", rank, groups[g], size, me);
    MPI_Comm_free(&comm);
    MPI_Group_free(&sub);
  }
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
