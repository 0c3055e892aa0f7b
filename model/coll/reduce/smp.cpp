// Reduce, SMP-aware (MPICH's MPIR_Reduce_intra_smp): the nodes other than the
// root's reduce to their leaders (their first members), the leaders reduce to the
// root's node's leader, and the root's node reduces to the root, that leader
// bringing everything from the other nodes with its own contribution. All three
// run with the library's default selection on communicators of their own
// (model/coll/smp.hpp). A node's members need not be consecutive ranks, so the
// operation must be commutative. Any p, any root; with one rank per node it is the
// leaders' reduce alone.
// Cost without contention (root 0, q > 1 nodes of c ranks, binomial everywhere,
// q and c powers of two; α' and β' the intra-node link's): lg c·(α' + nβ' + nγ) +
// lg q·(α + nβ + nγ) + lg c·nγ, the root's node combining last what its members
// sent meanwhile.
#include "model/coll/algorithms.hpp"
#include "model/coll/smp.hpp"

namespace mpisim::coll::reduce {

Task<void> smp(Rank& rank, const CollArgs& a) {
  const smp::Hierarchy& h = smp::hierarchy(rank, a);
  const smp::Place here = smp::place_of(h, a.me), root = smp::place_of(h, a.root);
  const int node = here.node, node_rank = here.node_rank, node_size = here.node_size;
  const int root_node = root.node, root_node_rank = root.node_rank;
  const Communicator* members = here.members;
  const int nodes = smp::nodes(h);
  const bool leads = h.leaders && node_rank == 0;
  const bool root_node_here = node == root_node;
  const std::int64_t n = a.sendcount;
  const TypeRef& t = a.sendtype;
  Scratch tmp(rank, leads ? n : 0, t);  // a leader's partial result
  // One reduce of (from -> into at `root`) on `comm`, where the caller is `me` of `size`.
  const auto reduce = [&](const Communicator& comm, int me, int size, int root, Address from, Address into) {
    CollArgs s = smp::on(a, Collective::reduce, comm, me, size);
    s.root = root;
    s.sendbuf = from;
    s.recvbuf = into;
    s.sendcount = s.recvcount = n;
    s.sendtype = s.recvtype = t;
    return smp::run_auto(rank, s);
  };
  if (!members && !h.leaders) {  // alone
    if (!a.in_place()) co_await local_copy(rank, a.sendbuf, n, t, a.recvbuf, a.recvcount, a.recvtype);
    co_return;
  }
  Address mine = a.sendbuf;  // what this rank brings to its node's last reduce
  if (members && !root_node_here) co_await reduce(*members, node_rank, node_size, 0, a.sendbuf, leads ? tmp.addr() : 0);
  if (leads) {
    if (!root_node_here) {
      co_await reduce(*h.leaders, node, nodes, root_node, members ? tmp.addr() : a.sendbuf, 0);
    } else if (a.me != a.root) {
      co_await reduce(*h.leaders, node, nodes, root_node, a.sendbuf, tmp.addr());
      mine = tmp.addr();
    } else {
      co_await reduce(*h.leaders, node, nodes, root_node, a.sendbuf, a.recvbuf);
      mine = kInPlace;  // the root's recvbuf holds the other nodes' result and its own
    }
  }
  if (members && root_node_here)
    co_await reduce(*members, node_rank, node_size, root_node_rank, mine, a.me == a.root ? a.recvbuf : 0);
}

}  // namespace mpisim::coll::reduce
