/* MPI_Comm_create_group (MPI-4.1 §7.4.2) is collective over a group: calls of
 * different groups with the same tag do not meet, even where one process makes
 * one after the other (here ranks 0 and 1 make a call on {0, 1} while the others
 * are already in a call on every rank, with the same tag), and successive calls
 * of one group pair in order. */
#include <mpi.h>
#include <stdio.h>

static int size_of(MPI_Comm c) {
  int n;
  MPI_Comm_size(c, &n);
  return n;
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Group world, pair, all;
  MPI_Comm a = MPI_COMM_NULL, b, c;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int first_two[2] = {0, 1};
  MPI_Group_incl(world, size < 2 ? size : 2, first_two, &pair);
  MPI_Group_incl(world, 1, first_two, &all);
  MPI_Group_free(&all);
  MPI_Comm_group(MPI_COMM_WORLD, &all);
  if (rank < 2) MPI_Comm_create_group(MPI_COMM_WORLD, pair, 7, &a);
  MPI_Comm_create_group(MPI_COMM_WORLD, all, 7, &b);
  MPI_Comm_create_group(MPI_COMM_WORLD, all, 7, &c); /* the same group again: the next call */
  int one = 1, sum;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, b);
  printf("rank %d: pair %d, all %d and %d, sum %d\n", rank, a == MPI_COMM_NULL ? 0 : size_of(a), size_of(b),
         size_of(c), sum);
  if (a != MPI_COMM_NULL) MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free(&c);
  MPI_Group_free(&pair);
  MPI_Group_free(&all);
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
