/* Graph and distributed graph topologies: MPI_Graph_create on a ring with
   chords and its queries, MPI_Dist_graph_create_adjacent (each rank names its
   own edges) and MPI_Dist_graph_create (rank 0 names every edge), the
   neighbour queries, MPI_Topo_test, the map calls, and a duplicate keeping the
   topology. Runs on any number of ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* A graph of size - 1 nodes (the last rank is left out): node i's neighbours
     are i + 1 and i + 2 (mod nnodes). */
  int nnodes = size > 1 ? size - 1 : 1;
  int *index = malloc(sizeof(int) * (size_t)nnodes), *edges = malloc(sizeof(int) * 2 * (size_t)nnodes);
  for (int i = 0; i < nnodes; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + 1) % nnodes;
    edges[2 * i + 1] = (i + 2) % nnodes;
  }
  MPI_Comm graph;
  MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 0, &graph);
  int mapped;
  MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &mapped);
  if (graph == MPI_COMM_NULL) {
    printf("rank %d: not in the graph, mapped %d\n", rank, mapped == MPI_UNDEFINED ? -1 : mapped);
  } else {
    int kind, n, e, count, nb[4] = {-1, -1, -1, -1};
    MPI_Topo_test(graph, &kind);
    MPI_Graphdims_get(graph, &n, &e);
    MPI_Graph_neighbors_count(graph, rank, &count);
    MPI_Graph_neighbors(graph, rank, 4, nb);
    int *gi = malloc(sizeof(int) * (size_t)n), *ge = malloc(sizeof(int) * (size_t)e);
    MPI_Graph_get(graph, n, e, gi, ge);
    MPI_Comm dup;
    MPI_Comm_dup(graph, &dup);
    int dup_kind;
    MPI_Topo_test(dup, &dup_kind);
    printf("rank %d: graph kind %d dims %d %d, %d neighbours %d %d, index[last] %d, edges[last] %d, dup kind %d, mapped %d\n",
           rank, kind, n, e, count, nb[0], nb[1], gi[n - 1], ge[e - 1], dup_kind, mapped);
    free(gi);
    free(ge);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&graph);
  }
  free(index);
  free(edges);

  /* A directed ring with weights, each rank naming its own edges. */
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int src[1] = {left}, sw[1] = {10 + left}, dst[1] = {right}, dw[1] = {10 + rank};
  MPI_Comm ring;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, sw, 1, dst, dw, MPI_INFO_NULL, 0, &ring);
  int indeg, outdeg, weighted, kind;
  MPI_Topo_test(ring, &kind);
  MPI_Dist_graph_neighbors_count(ring, &indeg, &outdeg, &weighted);
  int s[1], sws[1], d[1], dws[1];
  MPI_Dist_graph_neighbors(ring, 1, s, sws, 1, d, dws);
  printf("rank %d: adjacent kind %d in %d out %d weighted %d: from %d (%d) to %d (%d)\n", rank, kind, indeg, outdeg,
         weighted, s[0], sws[0], d[0], dws[0]);
  MPI_Comm_free(&ring);

  /* Rank 0 names every edge of a star: 0 -> i for every i, of weight i + 1. */
  int n0 = rank == 0 ? 1 : 0, sources0[1] = {0}, degrees0[1] = {size};
  int *dests0 = malloc(sizeof(int) * (size_t)size), *weights0 = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; ++i) dests0[i] = i, weights0[i] = i + 1;
  MPI_Comm star;
  MPI_Dist_graph_create(MPI_COMM_WORLD, n0, sources0, degrees0, dests0, weights0, MPI_INFO_NULL, 0, &star);
  MPI_Dist_graph_neighbors_count(star, &indeg, &outdeg, &weighted);
  /* (MPI_Dist_graph_neighbors is queried on the ring above only: MPICH 4.0 crashes
     in it on this star's leaves.) */
  printf("rank %d: star in %d out %d weighted %d\n", rank, indeg, outdeg, weighted);
  free(dests0);
  free(weights0);
  MPI_Comm_free(&star);

  /* MPI_Cart_map keeps ranks in order; past the grid, MPI_UNDEFINED. */
  int dims[1] = {size > 1 ? size - 1 : 1}, periods[1] = {0};
  MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &mapped);
  printf("rank %d: cart_map %d\n", rank, mapped == MPI_UNDEFINED ? -1 : mapped);
  MPI_Finalize();
  return 0;
}
