#include "model/coll/allgather/blocks.hpp"

#include "model/mpi/type_constructors.hpp"

namespace mpisim::coll::allgather {

Span recv_blocks(const CollArgs& a, int lo, int hi) {
  if (a.rdispls().empty())
    return Span{a.recvbuf + a.recv_offset(lo), static_cast<std::int64_t>(hi - lo) * a.recvcount, a.recvtype};
  std::vector<std::int64_t> lengths, displs;
  const std::int64_t base = a.recv_offset(lo);
  for (int i = lo; i < hi; ++i) {
    lengths.push_back(a.recv_count(i));
    displs.push_back(a.recv_offset(i) - base);
  }
  TypeRef t = mpi::type_hindexed(lengths, displs, a.recvtype, "blocks");
  t->commit();
  return Span{a.recvbuf + base, 1, std::move(t)};
}

Task<void> place_own(Rank& rank, const CollArgs& a) {
  if (a.in_place()) co_return;
  co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, a.recvbuf + a.recv_offset(a.me), a.recv_count(a.me),
                      a.recvtype);
}

}  // namespace mpisim::coll::allgather
