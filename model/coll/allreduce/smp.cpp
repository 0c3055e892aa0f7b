// Allreduce, SMP-aware (MPICH's MPIR_Allreduce_intra_smp): each node reduces to
// its leader (its first member), the leaders allreduce in place, and each leader
// broadcasts the result to its node; all three with the library's default
// selection on communicators of their own (model/coll/smp.hpp). A node's members
// need not be consecutive ranks, so the operation must be commutative. Any p; with
// one rank per node it is the leaders' allreduce alone.
// Cost on Hockney (q nodes of c ranks, binomial inside the nodes, recursive
// doubling among leaders, p and q powers of two, short vectors):
// lg c·(α + nβ + nγ) + lg q·(α + nβ + nγ) + lg c·(α + nβ).
#include "model/coll/algorithms.hpp"
#include "model/coll/smp.hpp"

namespace mpisim::coll::allreduce {

Task<void> smp(Rank& rank, const CollArgs& a) {
  const smp::Hierarchy& h = smp::hierarchy(rank, a);
  const smp::Place here = smp::place_of(h, a.me);
  const int node = here.node, node_rank = here.node_rank, node_size = here.node_size;
  const Communicator* members = here.members;
  if (members) {
    CollArgs s = smp::on(a, Collective::reduce, *members, node_rank, node_size);
    s.root = 0;
    s.sendbuf = a.in_place() && node_rank != 0 ? a.recvbuf : a.sendbuf;
    s.sendcount = s.recvcount = a.recvcount;
    s.sendtype = s.recvtype = a.recvtype;
    s.recvbuf = node_rank == 0 ? a.recvbuf : 0;
    co_await smp::run_auto(rank, s);
  } else if (!a.in_place()) {
    co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype);
  }
  if (h.leaders && node_rank == 0) {
    CollArgs s = smp::on(a, Collective::allreduce, *h.leaders, node, smp::nodes(h));
    s.sendbuf = kInPlace;
    s.recvbuf = a.recvbuf;
    s.sendcount = s.recvcount = a.recvcount;
    s.sendtype = s.recvtype = a.recvtype;
    co_await smp::run_auto(rank, s);
  }
  if (members) co_await smp::bcast(rank, a, *members, node_rank, node_size, 0, a.recvbuf, a.recvcount, a.recvtype);
}

}  // namespace mpisim::coll::allreduce
