#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

std::vector<std::int64_t> block_starts(const CollArgs& a) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(a.p) + 1, 0);
  for (int i = 0; i < a.p; ++i) start[static_cast<std::size_t>(i) + 1] = start[static_cast<std::size_t>(i)] + a.recv_count(i);
  return start;
}

Work::Work(Rank& rank, const CollArgs& a)
    : rank_(rank), a_(a), start_(block_starts(a)), scratch_(rank, start_.back(), a.recvtype) {}

Task<void> Work::open() {
  const Address src = a_.in_place() ? a_.recvbuf : a_.sendbuf;
  co_await local_copy(rank_, src, total(), a_.recvtype, all(), total(), a_.recvtype);
}

Task<void> Work::finish() {
  co_await local_copy(rank_, at(a_.me), count(a_.me), a_.recvtype, a_.recvbuf, a_.recv_count(a_.me), a_.recvtype);
}

Address Work::at(int block) const { return all() + start_[static_cast<std::size_t>(block)] * a_.recvtype->extent(); }

std::int64_t Work::count(int block) const {
  auto b = static_cast<std::size_t>(block);
  return start_[b + 1] - start_[b];
}

}  // namespace mpisim::coll::reduce_scatter
