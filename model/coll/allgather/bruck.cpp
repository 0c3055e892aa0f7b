// Allgather(v), Bruck et al. (1997) (MPICH's choice for short data on other p).
//
// The blocks are gathered packed in scratch space in the order r, r+1, ...,
// r+p-1 (mod p). In round k rank r sends the first min(2^k, p - 2^k) blocks it
// holds to r - 2^k and appends as many received from r + 2^k; after ceil(lg p)
// rounds it holds all p, and copies each to its place in recvbuf. Any p.
// Cost on Hockney: ceil(lg p)·α + (p-1)/p·nβ (plus the local copies).
#include "model/coll/algorithms.hpp"
#include "model/coll/allgather/blocks.hpp"

namespace mpisim::coll::allgather {

Task<void> bruck(Rank& rank, const CollArgs& a) {
  static const TypeRef packed = mpi::predefined_type("MPI_PACKED");
  const int p = a.p;
  const std::int64_t size = a.recvtype->size();
  // offset[j]: where the block of rank me + j starts in the scratch space.
  std::vector<std::int64_t> offset(static_cast<std::size_t>(p) + 1, 0);
  for (int j = 0; j < p; ++j)
    offset[static_cast<std::size_t>(j) + 1] = offset[static_cast<std::size_t>(j)] + a.recv_count((a.me + j) % p) * size;
  auto at = [&](int j) { return offset[static_cast<std::size_t>(j)]; };
  Scratch tmp(rank, at(p), packed);
  if (a.in_place())
    co_await local_copy(rank, a.recvbuf + a.recv_offset(a.me), a.recv_count(a.me), a.recvtype, tmp.addr(), at(1),
                        packed);
  else
    co_await local_copy(rank, a.sendbuf, a.sendcount, a.sendtype, tmp.addr(), at(1), packed);
  for (int pow = 1; pow < p; pow *= 2) {
    const int n = std::min(pow, p - pow);
    co_await sendrecv(rank, a, tmp.addr(), at(n), packed, (a.me - pow + p) % p, tmp.addr() + at(pow),
                      at(pow + n) - at(pow), packed, (a.me + pow) % p);
  }
  for (int j = 0; j < p; ++j) {
    const int r = (a.me + j) % p;
    if (j == 0 && a.in_place()) continue;
    co_await local_copy(rank, tmp.addr() + at(j), at(j + 1) - at(j), packed, a.recvbuf + a.recv_offset(r),
                        a.recv_count(r), a.recvtype);
  }
}

}  // namespace mpisim::coll::allgather
