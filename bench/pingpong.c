/* Ping-pong between ranks 0 and 1 under a real MPI, for `mpisim calibrate`.
 *
 *   mpicc -O2 -o pingpong bench/pingpong.c
 *   mpiexec -n 2 ./pingpong > pingpong.csv          one-way times, 1 B to 4 MiB
 *   mpiexec -n 2 ./pingpong exchange BYTES ITERS      an exchange to predict
 *
 * The first form prints CSV lines "bytes,microseconds": half the round trip of a
 * message of that size, the best of 5 repetitions of a timed loop. The second
 * times ITERS MPI_Sendrecv of BYTES in both directions at once and prints the
 * microseconds per iteration, the best of 5. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double best_of_5(int rank, char* buf, char* other, long bytes, int iters, int exchange) {
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (exchange) {
        MPI_Sendrecv(buf, (int)bytes, MPI_BYTE, 1 - rank, 0, other, (int)bytes, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
      } else if (rank == 0) {
        MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    double t = (MPI_Wtime() - t0) / iters;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (t < best) best = t;
  }
  return exchange ? best : best / 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int exchange = argc == 4 && strcmp(argv[1], "exchange") == 0;
  if (size != 2 || !(argc == 1 || exchange)) {
    if (rank == 0) fprintf(stderr, "usage: mpiexec -n 2 pingpong [exchange BYTES ITERS]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long most = exchange ? atol(argv[2]) : 4L << 20;
  char* buf = calloc((size_t)most + 1, 1);
  char* other = calloc((size_t)most + 1, 1);
  if (exchange) {
    int iters = atoi(argv[3]);
    best_of_5(rank, buf, other, most, iters > 10 ? iters / 10 : 1, 1); /* warm up */
    double t = best_of_5(rank, buf, other, most, iters, 1);
    if (rank == 0) printf("%.4f\n", t * 1e6);
  } else {
    if (rank == 0) printf("# bytes,one-way time (us): ping-pong of ranks 0 and 1, best of 5\n");
    for (long bytes = 1; bytes <= most; bytes *= 2) {
      int iters = bytes <= 4096 ? 2000 : bytes <= (256L << 10) ? 200 : 20;
      best_of_5(rank, buf, other, bytes, iters / 10 + 1, 0); /* warm up */
      double t = best_of_5(rank, buf, other, bytes, iters, 0);
      if (rank == 0) printf("%ld,%.4f\n", bytes, t * 1e6);
    }
  }
  free(buf);
  free(other);
  MPI_Finalize();
  return 0;
}
