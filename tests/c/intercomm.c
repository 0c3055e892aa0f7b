/* Intercommunicators: two halves of MPI_COMM_WORLD joined, collectives across
 * them, and merged back. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int color = rank < size / 2 ? 0 : 1;
  MPI_Comm half, inter, merged;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  /* the leaders: rank 0 of each half, world ranks 0 and size/2 */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? size / 2 : 0, 7, &inter);
  int is_inter, remote, local;
  MPI_Comm_test_inter(inter, &is_inter);
  MPI_Comm_remote_size(inter, &remote);
  MPI_Comm_size(inter, &local);
  printf("rank %d: inter %d, local %d, remote %d\n", rank, is_inter, local, remote);

  /* group 0's rank 0 broadcasts to group 1 */
  int hrank, v = -1;
  MPI_Comm_rank(half, &hrank);
  if (color == 0) {
    v = 4242;
    MPI_Bcast(&v, 1, MPI_INT, hrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  } else {
    MPI_Bcast(&v, 1, MPI_INT, 0, inter);
  }
  printf("rank %d: bcast across %d\n", rank, color == 0 ? 0 : v);
  /* allreduce across: each group gets the other group's sum */
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter);
  printf("rank %d: the other group's sum %d\n", rank, sum);

  MPI_Intercomm_merge(inter, color, &merged);
  int mrank, msize;
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  printf("rank %d: merged rank %d of %d\n", rank, mrank, msize);
  MPI_Group rg;
  int rgsize;
  MPI_Comm_remote_group(inter, &rg);
  MPI_Group_size(rg, &rgsize);
  printf("rank %d: remote group size %d\n", rank, rgsize);
  MPI_Group_free(&rg);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
