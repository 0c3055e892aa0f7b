// The neighbourhood collectives (MPI-4.1 §8.6), linear: a receive from every
// source into its block, then a send to every destination of its block (the one
// send buffer for allgather(v)), all posted at once; then one wait for all.
// Several edges between two processes pair up by posting order
// (Topology::send_block): the receives in block order, the sends in block order
// on a graph, and on a Cartesian grid each dimension's positive direction first,
// so that what goes in the positive direction arrives from the negative one even
// when both neighbours are one process.
// An MPI_PROC_NULL neighbour (the edge of a non-periodic Cartesian dimension)
// sends nothing and its block is left untouched. MPICH's algorithm.
#include "model/coll/algorithms.hpp"

namespace mpisim::coll::neighbor {

Task<void> linear(Rank& rank, const CollArgs& a) {
  const mpi::Topology& t = *a.comm->topology();
  const std::vector<int> in = t.sources(a.me), out = t.destinations(a.me);
  const bool all_to_all = a.kind != Collective::neighbor_allgather && a.kind != Collective::neighbor_allgatherv;
  Requests reqs;
  reqs.reserve(in.size() + out.size());
  for (std::size_t k = 0; k < in.size(); ++k) {
    const int i = static_cast<int>(k);
    reqs.push_back(post_recv(rank, a, a.recvbuf + a.recv_offset(i), a.recv_count(i), a.recv_type(i), in[k]));
  }
  const bool cart = t.kind == mpi::Topology::Kind::cart;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const int j = cart ? static_cast<int>(k ^ 1) : static_cast<int>(k);
    const int to = out[static_cast<std::size_t>(j)];
    if (all_to_all) reqs.push_back(post_send(rank, a, a.sendbuf + a.send_offset(j), a.send_count(j), a.send_type(j), to));
    else reqs.push_back(post_send(rank, a, a.sendbuf, a.sendcount, a.sendtype, to));
  }
  co_await rank.wait_all(reqs);
}

}  // namespace mpisim::coll::neighbor
