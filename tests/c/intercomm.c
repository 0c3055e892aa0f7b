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
  /* reduce_scatter across: recvcounts has one entry per process of the local
     group, whose sizes differ on an odd number of ranks (MPI-4.1 §6.10.1); both
     groups reduce 12 elements, each receiving its block of the other group's sum. */
  enum { kTotal = 12 };
  int counts[kTotal], sendv[kTotal], recvv[kTotal];
  for (int i = 0; i < local; ++i) counts[i] = kTotal / local + (i < kTotal % local);
  for (int j = 0; j < kTotal; ++j) sendv[j] = rank * 100 + j;
  MPI_Reduce_scatter(sendv, recvv, counts, MPI_INT, MPI_SUM, inter);
  char line[256];
  int at = snprintf(line, sizeof line, "rank %d: reduce_scatter across", rank);
  for (int j = 0; j < counts[hrank]; ++j) at += snprintf(line + at, sizeof line - (size_t)at, " %d", recvv[j]);
  printf("%s\n", line);

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

  /* A duplicate is an intercommunicator of the same groups, congruent with it. */
  MPI_Comm dup;
  int dup_inter, cmp;
  MPI_Comm_dup(inter, &dup);
  MPI_Comm_test_inter(dup, &dup_inter);
  MPI_Comm_compare(inter, dup, &cmp);
  printf("rank %d: dup inter %d, congruent %d\n", rank, dup_inter, cmp == MPI_CONGRUENT);
  /* Split by the parity of the local rank, reversed by key: a color with members
     in both groups makes an intercommunicator of them. */
  MPI_Comm parts;
  MPI_Comm_split(dup, hrank % 2, -hrank, &parts);
  if (parts == MPI_COMM_NULL) {
    printf("rank %d: no split part\n", rank);
  } else {
    int prank, psize, premote;
    MPI_Comm_rank(parts, &prank);
    MPI_Comm_size(parts, &psize);
    MPI_Comm_remote_size(parts, &premote);
    printf("rank %d: split part rank %d of %d, remote %d\n", rank, prank, psize, premote);
    MPI_Comm_free(&parts);
  }
  /* Create from each group's first process: two one-process groups facing each other. */
  MPI_Group lg, first;
  MPI_Comm_group(half, &lg);
  int zero = 0;
  MPI_Group_incl(lg, 1, &zero, &first);
  MPI_Comm leaders;
  MPI_Comm_create(dup, first, &leaders);
  if (leaders != MPI_COMM_NULL) {
    int lsum = -1;
    MPI_Allreduce(&rank, &lsum, 1, MPI_INT, MPI_SUM, leaders);
    printf("rank %d: leaders' allreduce across %d\n", rank, lsum);
    MPI_Comm_free(&leaders);
  } else {
    printf("rank %d: not a leader\n", rank);
  }
  MPI_Group_free(&first);
  MPI_Group_free(&lg);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
