/* Erroneous programs, one per argument: each must stop with a diagnostic. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A frame larger than the stack (with mpisim cc's stack probes, the guard catches it). */
static int overflow(void) {
  volatile char big[4 << 20];
  big[0] = 1;
  MPI_Barrier(MPI_COMM_SELF);
  return big[0];
}

/* A thread that calls MPI: only the rank's own thread may. */
static void *worker(void *arg) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return arg;
}

/* A user operation that gives up. */
static void give_up(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in, (void)inout, (void)len, (void)type;
  MPI_Abort(MPI_COMM_WORLD, 4);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, x = 1, y[4];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "bad-rank") && rank == 0) MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
  if (!strcmp(what, "deadlock")) MPI_Recv(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (!strcmp(what, "root-mismatch")) MPI_Bcast(&x, 1, MPI_INT, rank == 1 ? 1 : 0, MPI_COMM_WORLD);
  if (!strcmp(what, "truncate")) {
    if (rank == 0) MPI_Send(y, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(y, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (!strcmp(what, "abort") && rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
  if (!strcmp(what, "exit") && rank == 2) exit(3);
  if (!strcmp(what, "no-finalize") && rank == 0) return 0;
  if (!strcmp(what, "bad-type")) MPI_Send(&x, 1, 12345, 0, 0, MPI_COMM_SELF);
  if (!strcmp(what, "null-buffer")) MPI_Allreduce(NULL, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!strcmp(what, "freed-comm")) {
    MPI_Comm c, keep;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    keep = c;
    MPI_Comm_free(&c);
    MPI_Barrier(keep);
  }
  if (!strcmp(what, "aliased")) MPI_Allgather(y, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
  if (!strcmp(what, "start-active")) {
    MPI_Request r;
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Start(&r);
  }
  if (!strcmp(what, "mrecv-null")) {
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
  }
  if (!strcmp(what, "cancel-collective")) {
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
  }
  if (!strcmp(what, "matched-unreceived") && rank == 0) {
    MPI_Message m;
    MPI_Send(&x, 1, MPI_INT, 0, 4, MPI_COMM_SELF);
    MPI_Mprobe(0, 4, MPI_COMM_SELF, &m, MPI_STATUS_IGNORE);
  }
  if (!strcmp(what, "graph-edge")) {
    int index[2] = {1, 2}, edges[2] = {1, 5};
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &g);
  }
  if (!strcmp(what, "shift-not-cart")) {
    int src, dst;
    MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst);
  }
  if (!strcmp(what, "dist-graph-inconsistent")) {
    int right = (rank + 1) % size, left = (rank + size - 1) % size, self = rank;
    MPI_Comm g;
    /* each rank sends right but says it receives from itself */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, rank == 2 ? &self : &left, MPI_UNWEIGHTED, 1, &right,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  }
  if (!strcmp(what, "neighbor-no-topology")) MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
  if (!strcmp(what, "abort-in-op")) {
    MPI_Op op;
    MPI_Op_create(give_up, 1, &op);
    MPI_Allreduce(&x, y, 1, MPI_INT, op, MPI_COMM_WORLD);
  }
  if (!strcmp(what, "thread") && rank == 3) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
  }
  /* The same programs as scenarios/errors/comm-free-world.json and
     algorithm-intercomm-only.json: both front-ends must give the same diagnostic. */
  if (!strcmp(what, "free-world")) {
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_Comm_free(&world);
  }
  if (!strcmp(what, "bcast-inter-algorithm")) {
    x = rank;
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (!strcmp(what, "segv") && rank == 1) *(volatile int *)16 = 1;
  if (!strcmp(what, "overflow") && rank == 2) x = overflow();
  if (!strcmp(what, "unfinished") && rank == 0) {
    MPI_Request r;
    MPI_Isend(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
  }
  MPI_Finalize();
  return 0;
}
