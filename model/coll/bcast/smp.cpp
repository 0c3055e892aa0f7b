// Bcast, SMP-aware (MPICH's MPIR_Bcast_intra_smp): the node structure of the
// network's placement decides who talks to whom. Each node's first member is its
// leader; the bcasts inside a node and among the leaders are run with the
// library's default selection on communicators of their own (model/coll/smp.hpp).
//  - short buffers (below 12,288 bytes) or fewer than 8 ranks: the root hands the
//    buffer to its node's leader, the leaders broadcast it, and each node's leader
//    broadcasts it to its node (the root's node included);
//  - medium buffers (below 512 KiB) on a power-of-two p: the root broadcasts on
//    its own node first when it is not the leader, then the leaders, then the other
//    nodes (and the root's when the root is its leader);
//  - otherwise the flat scatter_ring, as MPICH, whose long-message path knows no
//    nodes.
// Any p, any root, any datatype; nothing to do for an empty buffer. With one rank
// per node it is the leaders' bcast alone, on a copy of the communicator.
// Cost without contention (short path, q nodes of c ranks, q and c powers of two
// below 8, root a leader; α' and β' the intra-node link's): lg q·(α + nβ) +
// lg c·(α' + nβ').
#include "model/coll/algorithms.hpp"
#include "model/coll/registry.hpp"
#include "model/coll/smp.hpp"

namespace mpisim::coll::bcast {

Task<void> smp(Rank& rank, const CollArgs& a) {
  const std::int64_t n = a.recvcount * a.recvtype->size();
  if (n == 0) co_return;
  const smp::Hierarchy& h = smp::hierarchy(rank, a);
  const smp::Place here = smp::place_of(h, a.me), root = smp::place_of(h, a.root);
  const int node = here.node, node_rank = here.node_rank, node_size = here.node_size;
  const int root_node = root.node, root_node_rank = root.node_rank;
  const Communicator* members = here.members;
  const int nodes = smp::nodes(h);
  // On the root's node, with a root that is not its leader.
  const bool root_apart = node == root_node && root_node_rank > 0;
  if (n < mpich::kBcastShort || a.p < mpich::kBcastMinProcs) {
    if (root_apart) {
      CollArgs s = smp::on(a, Collective::bcast, *members, node_rank, node_size);
      if (a.me == a.root) co_await send(rank, s, a.recvbuf, a.recvcount, a.recvtype, 0);
      else if (node_rank == 0) co_await recv(rank, s, a.recvbuf, a.recvcount, a.recvtype, root_node_rank);
    }
    if (h.leaders && node_rank == 0)
      co_await smp::bcast(rank, a, *h.leaders, node, nodes, root_node, a.recvbuf, a.recvcount, a.recvtype);
    if (members) co_await smp::bcast(rank, a, *members, node_rank, node_size, 0, a.recvbuf, a.recvcount, a.recvtype);
  } else if (n < mpich::kBcastLong && (a.p & (a.p - 1)) == 0) {
    if (root_apart)
      co_await smp::bcast(rank, a, *members, node_rank, node_size, root_node_rank, a.recvbuf, a.recvcount,
                          a.recvtype);
    if (h.leaders && node_rank == 0)
      co_await smp::bcast(rank, a, *h.leaders, node, nodes, root_node, a.recvbuf, a.recvcount, a.recvtype);
    if (members && !root_apart)
      co_await smp::bcast(rank, a, *members, node_rank, node_size, 0, a.recvbuf, a.recvcount, a.recvtype);
  } else {
    co_await scatter_ring(rank, a);
  }
}

}  // namespace mpisim::coll::bcast
