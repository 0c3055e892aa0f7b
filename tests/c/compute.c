/* Virtual time: mpisim_compute charges time explicitly; with --compute host the
 * program's own loop costs the host CPU time it took. */
#include <mpi.h>
#include <mpisim.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc > 1 && !strcmp(argv[1], "loop")) {
    volatile double x = 0;
    for (long i = 0; i < 30000000L; ++i) x += (double)i;
  } else {
    mpisim_compute(0.25 * rank);
  }
  double before = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  double after = MPI_Wtime();
  printf("rank %d: computed until %s, barrier left at %s\n", rank, before > 0.0005 ? "later" : "0",
         after >= 0.0005 ? "later" : "0");
  if (rank == 0 && !(argc > 1)) printf("rank 0: barrier left at %.6f s\n", after);
  MPI_Finalize();
  return 0;
}
