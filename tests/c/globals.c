/* Globals belong to their rank: each rank counts in its own copy. */
#include <mpi.h>
#include <stdio.h>

static int calls;
int total = 100;
static char name[32] = "initial";

static void count(void) { ++calls; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i <= rank; ++i) {
    count();
    MPI_Barrier(MPI_COMM_WORLD);  /* every rank switches here */
  }
  total += rank;
  snprintf(name, sizeof name, "rank-%d", rank);
  int remaining = size - 1 - rank; /* the barriers the higher ranks still make */
  for (int i = 0; i < remaining; ++i) MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: calls %d total %d name %s\n", rank, calls, total, name);
  MPI_Finalize();
  return 0;
}
