// Allgatherv, gatherv then bcast (Open MPI's default allgatherv, its tuned
// algorithm 1): the blocks are gathered at rank 0 as Open MPI's linear gatherv
// does (rank 0 receives them one after the other, in rank order; its own block
// stays or is copied in place), then rank 0 broadcasts the whole result as one
// element of an indexed datatype of the blocks, with the bcast Open MPI's fixed
// decisions pick for that many bytes on p ranks (deploy.hpp: ompi_default; the
// scatter-allgather ones fall back to the linear bcast, one element being fewer
// than p; a rules file loaded into Open MPI would choose that bcast too, which
// this does not follow). Any p, any displacements.
#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"
#include "model/coll/deploy.hpp"
#include "model/coll/smp.hpp"
#include "model/mpi/type_constructors.hpp"

namespace mpisim::coll::allgather {
namespace {

Task<void> run(Rank& rank, const Algorithm& alg, CollArgs sub) { co_await alg.run(rank, sub); }

}  // namespace

Task<void> gatherv_bcast(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const TypeRef& t = a.recvtype;
  // Open MPI's linear gatherv moves no empty block.
  if (a.me == 0) {
    for (int i = 0; i < p; ++i) {
      const Address block = a.recvbuf + a.recv_offset(i);
      if (a.recv_count(i) == 0) continue;
      if (i != 0) co_await recv(rank, a, block, a.recv_count(i), t, i);
      else if (!a.in_place() && a.sendcount > 0)
        co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, block, a.recv_count(0), t);
    }
  } else if (a.in_place()) {
    if (a.recv_count(a.me) > 0) co_await send(rank, a, a.recvbuf + a.recv_offset(a.me), a.recv_count(a.me), t, 0);
  } else if (a.sendcount > 0) {
    co_await send(rank, a, a.sendbuf, a.sendcount, a.sendtype, 0);
  }
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  std::int64_t total = 0;
  for (int i = 0; i < p; ++i) {
    lengths[static_cast<std::size_t>(i)] = a.recv_count(i);
    displs[static_cast<std::size_t>(i)] = t->extent() != 0 ? a.recv_offset(i) / t->extent() : 0;
    total += a.recv_count(i);
  }
  TypeRef all = mpi::type_indexed(lengths, displs, t, "allgatherv blocks");
  all->commit();
  LibraryDefault d;
  ompi_default(Collective::bcast, static_cast<std::uint64_t>(p), static_cast<std::uint64_t>(total * t->size()), &d, 1);
  CollArgs s = smp::on(a, Collective::bcast, *a.comm, a.me, p);
  s.root = 0;
  s.recvbuf = a.recvbuf;
  s.recvcount = 1;
  s.recvtype = all;
  co_await run(rank, d.algorithm ? *d.algorithm : auto_algorithm(s), std::move(s));
}

}  // namespace mpisim::coll::allgather
