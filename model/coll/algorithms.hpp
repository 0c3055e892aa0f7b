#pragma once
// Every algorithm's entry point, by collective (one folder each, one file per
// algorithm, the file's stem the algorithm's name). The registry lists them.
#include "model/coll/collective.hpp"

namespace mpisim::coll {

namespace ns {
Task<void> name(Rank& rank, const CollArgs& a); \
}  // namespace ns
namespace barrier {
Task<void> dissemination(Rank& rank, const CollArgs& a);
Task<void> binomial(Rank& rank, const CollArgs& a);
Task<void> linear(Rank& rank, const CollArgs& a);
Task<void> tree(Rank& rank, const CollArgs& a);
Task<void> recursive_doubling(Rank& rank, const CollArgs& a);
Task<void> double_ring(Rank& rank, const CollArgs& a);
Task<void> two_proc(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators
}  // namespace barrier
namespace bcast {
Task<void> binomial(Rank& rank, const CollArgs& a);
Task<void> scatter_recursive_doubling(Rank& rank, const CollArgs& a);
Task<void> scatter_ring(Rank& rank, const CollArgs& a);
Task<void> pipelined_chain(Rank& rank, const CollArgs& a);
Task<void> linear(Rank& rank, const CollArgs& a);
Task<void> knomial(Rank& rank, const CollArgs& a);
Task<void> binary_tree(Rank& rank, const CollArgs& a);
Task<void> split_binary_tree(Rank& rank, const CollArgs& a);
Task<void> chain(Rank& rank, const CollArgs& a);
Task<void> smp(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators
}  // namespace bcast
namespace scatter {
Task<void> linear(Rank& rank, const CollArgs& a); // also MPI_Scatterv
Task<void> linear_nb(Rank& rank, const CollArgs& a);
Task<void> binomial(Rank& rank, const CollArgs& a);
Task<void> inter_local_scatter(Rank& rank, const CollArgs& a);  // intercommunicators
Task<void> inter_linear(Rank& rank, const CollArgs& a);         // intercommunicators, also MPI_Scatterv
}  // namespace scatter
namespace gather {
Task<void> linear(Rank& rank, const CollArgs& a); // also MPI_Gatherv
Task<void> binomial(Rank& rank, const CollArgs& a);
Task<void> linear_sync(Rank& rank, const CollArgs& a);
Task<void> inter_local_gather(Rank& rank, const CollArgs& a);  // intercommunicators
Task<void> inter_linear(Rank& rank, const CollArgs& a);        // intercommunicators, also MPI_Gatherv
}  // namespace gather
namespace allgather {
Task<void> two_proc(Rank& rank, const CollArgs& a); // also MPI_Allgatherv
Task<void> gatherv_bcast(Rank& rank, const CollArgs& a); // MPI_Allgatherv
Task<void> neighbor(Rank& rank, const CollArgs& a); // also MPI_Allgatherv
Task<void> ring(Rank& rank, const CollArgs& a); // also MPI_Allgatherv
Task<void> recursive_doubling(Rank& rank, const CollArgs& a);
Task<void> bruck(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators, also MPI_Allgatherv
}  // namespace allgather
namespace alltoall {
Task<void> pairwise(Rank& rank, const CollArgs& a); // also MPI_Alltoallv and MPI_Alltoallw
Task<void> linear(Rank& rank, const CollArgs& a);
Task<void> linear_sync(Rank& rank, const CollArgs& a);
Task<void> two_proc(Rank& rank, const CollArgs& a);
Task<void> bruck(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators, also MPI_Alltoallv/w
}  // namespace alltoall
namespace reduce {
Task<void> binomial(Rank& rank, const CollArgs& a);
Task<void> chain(Rank& rank, const CollArgs& a);
Task<void> in_order_binary(Rank& rank, const CollArgs& a);
Task<void> rabenseifner(Rank& rank, const CollArgs& a);
Task<void> linear(Rank& rank, const CollArgs& a);
Task<void> smp(Rank& rank, const CollArgs& a);
Task<void> binary(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators
}  // namespace reduce
namespace allreduce {
Task<void> recursive_doubling(Rank& rank, const CollArgs& a);
Task<void> linear(Rank& rank, const CollArgs& a);
Task<void> rabenseifner(Rank& rank, const CollArgs& a);
Task<void> ring(Rank& rank, const CollArgs& a);
Task<void> reduce_bcast(Rank& rank, const CollArgs& a);
Task<void> smp(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators
}  // namespace allreduce
namespace reduce_scatter {
Task<void> recursive_halving(Rank& rank, const CollArgs& a); // also MPI_Reduce_scatter_block
Task<void> pairwise(Rank& rank, const CollArgs& a);
Task<void> recursive_doubling(Rank& rank, const CollArgs& a);
Task<void> ring(Rank& rank, const CollArgs& a);
Task<void> butterfly(Rank& rank, const CollArgs& a);  // also MPI_Reduce_scatter_block
Task<void> reduce_scatterv(Rank& rank, const CollArgs& a);
Task<void> inter(Rank& rank, const CollArgs& a);  // intercommunicators, also MPI_Reduce_scatter_block
}  // namespace reduce_scatter
namespace scan {
Task<void> recursive_doubling(Rank& rank, const CollArgs& a); // also MPI_Exscan
Task<void> linear(Rank& rank, const CollArgs& a);
}  // namespace scan
namespace neighbor {
Task<void> linear(Rank& rank, const CollArgs& a);  // every neighbourhood collective
}  // namespace neighbor

}  // namespace mpisim::coll
