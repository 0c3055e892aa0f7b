// Bcast, pipelined chain: the ranks form a chain from the root (root, root+1, ...)
// and the buffer travels down it in segments (the step's "segment" option, bytes;
// 8 KiB by default), so every link of the chain works at once. Any p.
// Cost on Hockney with k = ceil(n/s) segments of s bytes: (p - 2 + k)·(α + sβ).
#include <algorithm>

#include "model/coll/algorithms.hpp"
#include "model/coll/bcast/bytes.hpp"

namespace mpisim::coll::bcast {

Task<void> pipelined_chain(Rank& rank, const CollArgs& a) {
  Bytes buf(rank, a);
  co_await buf.open();
  const int p = a.p;
  const int v = (a.me - a.root + p) % p;
  const std::int64_t n = buf.bytes();
  const std::int64_t seg = a.segment_bytes > 0 ? a.segment_bytes : 8192;
  const std::int64_t k = n == 0 ? 1 : (n + seg - 1) / seg;
  const int prev = (a.me - 1 + p) % p, next = (a.me + 1) % p;
  const bool has_next = v + 1 < p;
  Requests recvs, sends;
  if (v > 0)
    for (std::int64_t i = 0; i < k; ++i) {
      std::int64_t lo = i * seg, len = std::min(seg, n - lo);
      recvs.push_back(post_recv(rank, a, buf.at() + lo, len, Bytes::packed(), prev));
    }
  for (std::int64_t i = 0; i < k; ++i) {
    std::int64_t lo = i * seg, len = std::min(seg, n - lo);
    if (v > 0) co_await rank.wait(std::exchange(recvs[static_cast<std::size_t>(i)], nullptr));
    if (has_next) sends.push_back(post_send(rank, a, buf.at() + lo, len, Bytes::packed(), next));
  }
  co_await rank.wait_all(sends);
  co_await buf.close();
}

}  // namespace mpisim::coll::bcast
