// Rows of the call table (model/scenario/calls_rows.hpp): process topologies
// (MPI-4.1 chapter 8): the constructors and the queries.
#include "model/scenario/calls_rows.hpp"

namespace mpisim::scenario::rows {

std::vector<CallSpec> topology_rows() {
  return {
      {CallId::dims_create, "MPI_Dims_create",
       {{P::nnodes, "nnodes", K::integer, req}, {P::ndims, "ndims", K::integer, req}, {P::dims, "dims", K::array_inout, req}},
       "a balanced grid of nnodes processes in ndims dimensions",
       "MPI-4.1 §8.5.2",
       "fill the zero entries of {dims} so that the product of its entries is {nnodes}, the dimensions as close "
       "to each other as possible, in non-increasing order; the nonzero entries stay. Of the grids whose largest "
       "and smallest filled entries differ least, it takes the one with the largest smallest entry, then the "
       "largest second-smallest, and so on: the grid MPICH returns (5040 in three dimensions is 21 x 16 x 15)."},
      {CallId::cart_create, "MPI_Cart_create",
       {{P::comm_old, "comm_old", K::comm, req}, {P::ndims, "ndims", K::integer, req}, {P::dims, "dims", K::int_array, req},
        {P::periods, "periods", K::int_array, req}, {P::reorder, "reorder", K::integer, req},
        {P::comm_cart, "comm_cart", K::comm_out, req}},
       "a communicator with a Cartesian grid topology (collective)",
       "MPI-4.1 §8.5.1",
       "{comm_cart} lays the processes of {comm_old} out on a grid of {dims} processes, periodic where {periods} is "
       "nonzero, ranked row-major (mpisim keeps the ranks of comm_old whatever {reorder} says); the processes past "
       "the grid get MPI_COMM_NULL."},
      {CallId::cart_sub, "MPI_Cart_sub",
       {{P::comm, "comm", K::comm, req}, {P::remain_dims, "remain_dims", K::int_array, req},
        {P::newcomm, "newcomm", K::comm_out, req}},
       "the sub-grids that keep the dimensions remain_dims marks (collective)",
       "MPI-4.1 §8.5.7",
       "split the grid of {comm} into sub-grids: the dimensions where {remain_dims} is nonzero are kept, and the "
       "processes that share their coordinates in the others form one {newcomm}, a grid of the kept dimensions."},
      {CallId::cart_map, "MPI_Cart_map",
       {{P::comm, "comm", K::comm, req}, {P::ndims, "ndims", K::integer, req}, {P::dims, "dims", K::int_array, req},
        {P::periods, "periods", K::int_array, req}, {P::newrank, "newrank", K::out_int, req}},
       "the rank a grid would give the calling process",
       "MPI-4.1 §8.5.8",
       "{newrank} = the caller's rank in the grid of {dims} that MPI_Cart_create would make on {comm} (mpisim keeps "
       "ranks), or MPI_UNDEFINED past the grid."},
      {CallId::cartdim_get, "MPI_Cartdim_get", {{P::comm, "comm", K::comm, req}, {P::ndims, "ndims", K::out_int, req}},
       "the number of dimensions of a Cartesian communicator",
       "MPI-4.1 §8.5.5",
       "{ndims} = the number of dimensions of the grid of {comm}."},
      {CallId::cart_get, "MPI_Cart_get",
       {{P::comm, "comm", K::comm, req}, {P::maxdims, "maxdims", K::integer, req}, {P::dims, "dims", K::array_out, req},
        {P::periods, "periods", K::array_out, req}, {P::coords, "coords", K::array_out, req}},
       "the grid of a Cartesian communicator and the caller's coordinates",
       "MPI-4.1 §8.5.5",
       "the first {maxdims} entries of the grid of {comm}: its dimensions {dims}, their periodicity {periods}, and "
       "the caller's coordinates {coords}."},
      {CallId::cart_rank, "MPI_Cart_rank",
       {{P::comm, "comm", K::comm, req}, {P::coords, "coords", K::int_array, req}, {P::rank, "rank", K::out_int, req}},
       "the rank at grid coordinates",
       "MPI-4.1 §8.5.5",
       "{rank} = the rank of the process at coordinates {coords} of the grid of {comm} (a periodic coordinate "
       "wraps around)."},
      {CallId::cart_coords, "MPI_Cart_coords",
       {{P::comm, "comm", K::comm, req}, {P::rank, "rank", K::integer, req}, {P::maxdims, "maxdims", K::integer, req},
        {P::coords, "coords", K::array_out, req}},
       "the grid coordinates of a rank",
       "MPI-4.1 §8.5.5",
       "{coords} = the coordinates of rank {rank} in the grid of {comm}."},
      {CallId::cart_shift, "MPI_Cart_shift",
       {{P::comm, "comm", K::comm, req}, {P::direction, "direction", K::integer, req}, {P::disp, "disp", K::integer, req},
        {P::rank_source, "rank_source", K::out_int, req}, {P::rank_dest, "rank_dest", K::out_int, req}},
       "the neighbours disp steps away along one dimension",
       "MPI-4.1 §8.5.6",
       "along dimension {direction} of the grid of {comm}: {rank_dest} is the process {disp} steps forward, "
       "{rank_source} the one {disp} steps back; past the edge of a non-periodic dimension, MPI_PROC_NULL."},
      {CallId::graph_create, "MPI_Graph_create",
       {{P::comm_old, "comm_old", K::comm, req}, {P::nnodes, "nnodes", K::integer, req}, {P::index, "index", K::int_array, req},
        {P::edges, "edges", K::int_array, req}, {P::reorder, "reorder", K::integer, req},
        {P::comm_graph, "comm_graph", K::comm_out, req}},
       "a communicator with a graph topology (collective)",
       "MPI-4.1 §8.5.3",
       "{comm_graph} has the graph of {nnodes} nodes whose node i has the neighbours edges[index[i-1] .. index[i]) "
       "(index = {index}, edges = {edges}); mpisim keeps ranks whatever {reorder} says; the processes past nnodes "
       "get MPI_COMM_NULL."},
      {CallId::graph_map, "MPI_Graph_map",
       {{P::comm, "comm", K::comm, req}, {P::nnodes, "nnodes", K::integer, req}, {P::index, "index", K::int_array, req},
        {P::edges, "edges", K::int_array, req}, {P::newrank, "newrank", K::out_int, req}},
       "the rank a graph would give the calling process",
       "MPI-4.1 §8.5.8",
       "{newrank} = the caller's rank in the graph MPI_Graph_create would make on {comm} (mpisim keeps ranks), or "
       "MPI_UNDEFINED past its nodes."},
      {CallId::graphdims_get, "MPI_Graphdims_get",
       {{P::comm, "comm", K::comm, req}, {P::nnodes, "nnodes", K::out_int, req}, {P::nedges, "nedges", K::out_int, req}},
       "the number of nodes and edges of a graph communicator",
       "MPI-4.1 §8.5.5",
       "{nnodes} and {nedges}: the size of the graph of {comm}."},
      {CallId::graph_get, "MPI_Graph_get",
       {{P::comm, "comm", K::comm, req}, {P::maxindex, "maxindex", K::integer, req},
        {P::maxedges, "maxedges", K::integer, req}, {P::index, "index", K::array_out, req},
        {P::edges, "edges", K::array_out, req}},
       "the index and edges arrays of a graph communicator",
       "MPI-4.1 §8.5.5",
       "the first {maxindex} entries of the graph's index ({index}) and {maxedges} of its edges ({edges})."},
      {CallId::graph_neighbors_count, "MPI_Graph_neighbors_count",
       {{P::comm, "comm", K::comm, req}, {P::rank, "rank", K::integer, req}, {P::nneighbors, "nneighbors", K::out_int, req}},
       "the number of neighbours of a graph node",
       "MPI-4.1 §8.5.5",
       "{nneighbors} = the number of neighbours of node {rank} of the graph of {comm}."},
      {CallId::graph_neighbors, "MPI_Graph_neighbors",
       {{P::comm, "comm", K::comm, req}, {P::rank, "rank", K::integer, req},
        {P::maxneighbors, "maxneighbors", K::integer, req}, {P::neighbors, "neighbors", K::array_out, req}},
       "the neighbours of a graph node",
       "MPI-4.1 §8.5.5",
       "{neighbors} = the first {maxneighbors} neighbours of node {rank} of the graph of {comm}, in edge order."},
      {CallId::dist_graph_create_adjacent, "MPI_Dist_graph_create_adjacent",
       {{P::comm_old, "comm_old", K::comm, req}, {P::indegree, "indegree", K::integer, req},
        {P::sources, "sources", K::int_array, req}, {P::sourceweights, "sourceweights", K::int_array, opt},
        {P::outdegree, "outdegree", K::integer, req}, {P::destinations, "destinations", K::int_array, req},
        {P::destweights, "destweights", K::int_array, opt}, {P::info, "info", K::integer, opt},
        {P::reorder, "reorder", K::integer, req}, {P::comm_dist_graph, "comm_dist_graph", K::comm_out, req}},
       "a communicator with a distributed graph: each process names its own edges (collective)",
       "MPI-4.1 §8.5.4",
       "{comm_dist_graph} has the graph in which this process receives from {sources} and sends to {destinations} "
       "(weights {sourceweights} and {destweights}; left out: MPI_UNWEIGHTED); every edge must be named at both of "
       "its ends. mpisim keeps ranks."},
      {CallId::dist_graph_create, "MPI_Dist_graph_create",
       {{P::comm_old, "comm_old", K::comm, req}, {P::n, "n", K::integer, req}, {P::sources, "sources", K::int_array, req},
        {P::degrees, "degrees", K::int_array, req}, {P::destinations, "destinations", K::int_array, req},
        {P::weights, "weights", K::int_array, opt}, {P::info, "info", K::integer, opt},
        {P::reorder, "reorder", K::integer, req}, {P::comm_dist_graph, "comm_dist_graph", K::comm_out, req}},
       "a communicator with a distributed graph: any process may name any edges (collective)",
       "MPI-4.1 §8.5.4",
       "{comm_dist_graph} has the graph whose edges are the union of what every process names: here from each of "
       "{sources}, degrees[i] = {degrees} edges to the next of {destinations} (weights {weights}; left out: "
       "MPI_UNWEIGHTED). mpisim keeps ranks; each process's edges are ordered by the naming process's rank, then "
       "as named."},
      {CallId::dist_graph_neighbors_count, "MPI_Dist_graph_neighbors_count",
       {{P::comm, "comm", K::comm, req}, {P::indegree, "indegree", K::out_int, req},
        {P::outdegree, "outdegree", K::out_int, req}, {P::weighted, "weighted", K::out_int, req}},
       "the numbers of sources and destinations of the calling process",
       "MPI-4.1 §8.5.5",
       "{indegree} sources and {outdegree} destinations in the distributed graph of {comm}; {weighted} = whether "
       "it was made with weights."},
      {CallId::dist_graph_neighbors, "MPI_Dist_graph_neighbors",
       {{P::comm, "comm", K::comm, req}, {P::maxindegree, "maxindegree", K::integer, req},
        {P::sources, "sources", K::array_out, req}, {P::sourceweights, "sourceweights", K::array_out, opt},
        {P::maxoutdegree, "maxoutdegree", K::integer, req}, {P::destinations, "destinations", K::array_out, req},
        {P::destweights, "destweights", K::array_out, opt}},
       "the sources and destinations of the calling process",
       "MPI-4.1 §8.5.5",
       "{sources} and {destinations}: the first {maxindegree} and {maxoutdegree} neighbours of this process in the "
       "distributed graph of {comm}, in the order the neighbourhood collectives use."},
      {CallId::topo_test, "MPI_Topo_test", {{P::comm, "comm", K::comm, req}, {P::status, "status", K::out_int, req}},
       "the kind of topology a communicator has",
       "MPI-4.1 §8.5.5",
       "{status} = MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH, or MPI_UNDEFINED when {comm} has no topology."},
  };
}

}  // namespace mpisim::scenario::rows
