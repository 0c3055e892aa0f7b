/* The neighbourhood collectives (MPI-4.1 §8.6) on a Cartesian grid (periodic in
   one dimension, not in the other: the edge ranks have MPI_PROC_NULL neighbours,
   whose blocks stay untouched), a graph and a distributed graph, in their
   blocking, nonblocking and persistent forms. Each rank prints what it got.
   Runs on any number of ranks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void show(int rank, const char *what, const int *v, int n) {
  char line[512];
  int at = snprintf(line, sizeof line, "rank %d: %s", rank, what);
  for (int i = 0; i < n && at < (int)sizeof line - 16; ++i) at += snprintf(line + at, sizeof line - (size_t)at, " %d", v[i]);
  printf("%s\n", line);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int dims[2] = {0, 0}, periods[2] = {1, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int me;
  MPI_Comm_rank(grid, &me);

  /* allgather: my rank to each of my 4 neighbours (-1 where there is none) */
  int got[8];
  for (int i = 0; i < 8; ++i) got[i] = -1;
  MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, grid);
  show(rank, "cart allgather", got, 4);

  /* alltoall: block j is 100 * me + j, two ints each */
  int out[8], in[8];
  for (int j = 0; j < 8; ++j) out[j] = 100 * me + j, in[j] = -1;
  MPI_Neighbor_alltoall(out, 2, MPI_INT, in, 2, MPI_INT, grid);
  show(rank, "cart alltoall", in, 8);

  /* allgatherv: one int from each source, the slots two ints apart */
  int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 2, 4, 6};
  for (int i = 0; i < 8; ++i) got[i] = -1;
  MPI_Neighbor_allgatherv(&me, 1, MPI_INT, got, counts, displs, MPI_INT, grid);
  show(rank, "cart allgatherv", got, 8);

  /* alltoallv: to destination j, scounts[j] ints from out + sdispls[j] */
  int scounts[4] = {1, 2, 1, 2}, sdispls[4] = {0, 1, 3, 4}, rcounts[4], rdispls[4] = {0, 2, 4, 6};
  /* the block from my k-th source is what that source sends along that edge: in a
     Cartesian grid, my k-th source's matching block is its (k ^ 1)-th */
  for (int k = 0; k < 4; ++k) rcounts[k] = scounts[k ^ 1];
  for (int i = 0; i < 8; ++i) in[i] = -1;
  MPI_Neighbor_alltoallv(out, scounts, sdispls, MPI_INT, in, rcounts, rdispls, MPI_INT, grid);
  show(rank, "cart alltoallv", in, 8);

  /* alltoallw: byte displacements, one int each */
  int wcounts[4] = {1, 1, 1, 1};
  MPI_Aint wsd[4] = {0, 4, 8, 12}, wrd[4] = {12, 8, 4, 0};
  MPI_Datatype types[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
  for (int i = 0; i < 8; ++i) in[i] = -1;
  MPI_Neighbor_alltoallw(out, wcounts, wsd, types, in, wcounts, wrd, types, grid);
  show(rank, "cart alltoallw", in, 4);

  /* nonblocking alltoall, and a persistent allgather started twice */
  MPI_Request r;
  for (int i = 0; i < 8; ++i) in[i] = -1;
  MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, grid, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  show(rank, "cart ialltoall", in, 4);
  int value = me;
  MPI_Neighbor_allgather_init(&value, 1, MPI_INT, got, 1, MPI_INT, grid, MPI_INFO_NULL, &r);
  for (int round = 0; round < 2; ++round) {
    value = 1000 * round + me;
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    show(rank, round ? "cart persistent 2" : "cart persistent 1", got, 4);
  }
  MPI_Request_free(&r);
  MPI_Comm_free(&grid);

  /* a distributed graph: a ring both ways, each rank naming its own edges */
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int src[2] = {left, right}, dst[2] = {right, left};
  MPI_Comm dg;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
  for (int j = 0; j < 2; ++j) out[j] = 10 * rank + j;
  for (int i = 0; i < 2; ++i) in[i] = -1;
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, dg);
  show(rank, "dist graph alltoall", in, 2);
  MPI_Comm_free(&dg);

  /* a graph: node i's neighbours are i + 1 and i - 1 */
  int index[64], edges[128];
  const int n = size < 64 ? size : 64;
  for (int i = 0; i < n; ++i) index[i] = 2 * (i + 1), edges[2 * i] = (i + 1) % n, edges[2 * i + 1] = (i + n - 1) % n;
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
  if (g != MPI_COMM_NULL) {
    for (int i = 0; i < 2; ++i) got[i] = -1;
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, g);
    show(rank, "graph allgather", got, 2);
    MPI_Comm_free(&g);
  }
  MPI_Finalize();
  return 0;
}
