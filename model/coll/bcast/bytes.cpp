#include "model/coll/bcast/bytes.hpp"

#include <algorithm>

namespace mpisim::coll::bcast {

const TypeRef& Bytes::packed() {
  static const TypeRef t = mpi::predefined_type("MPI_PACKED");
  return t;
}

Bytes::Bytes(Rank& rank, const CollArgs& a)
    : rank_(rank), a_(a), bytes_(a.recvcount * a.recvtype->size()) {
  const mpi::Datatype& t = *a.recvtype;
  if (t.dense() && t.size() == t.extent()) {
    at_ = a.recvbuf + t.lb();
  } else {
    scratch_ = std::make_unique<Scratch>(rank, bytes_, packed());
    at_ = scratch_->addr();
  }
}

Task<void> Bytes::open() {
  if (scratch_ && a_.me == a_.root)
    co_await local_copy(rank_, a_.recvbuf, a_.recvcount, a_.recvtype, at_, bytes_, packed());
}

Task<void> Bytes::close() {
  if (scratch_ && a_.me != a_.root)
    co_await local_copy(rank_, at_, bytes_, packed(), a_.recvbuf, a_.recvcount, a_.recvtype);
}

std::pair<std::int64_t, std::int64_t> chunk_span(std::int64_t total, std::int64_t chunk, int first, int n) {
  std::int64_t lo = std::min<std::int64_t>(total, first * chunk), hi = std::min<std::int64_t>(total, (first + n) * chunk);
  return {lo, hi - lo};
}

Task<void> scatter_chunks(Rank& rank, const CollArgs& a, Address at, std::int64_t total, std::int64_t chunk) {
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  auto span = [&](int first, int n) { return chunk_span(total, chunk, first, n); };
  int mask = 1;
  for (; mask < p; mask <<= 1)
    if (v & mask) {
      auto [lo, n] = span(v, std::min(mask, p - v));
      if (n > 0) co_await recv(rank, a, at + lo, n, Bytes::packed(), (a.me - mask + p) % p);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < p) {
      auto [lo, n] = span(v + mask, std::min(mask, p - v - mask));
      if (n > 0) co_await send(rank, a, at + lo, n, Bytes::packed(), (a.me + mask) % p);
    }
}

}  // namespace mpisim::coll::bcast
