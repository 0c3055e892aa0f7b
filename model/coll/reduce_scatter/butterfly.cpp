// Reduce_scatter(_block), butterfly (Open MPI's tuned algorithm 4 for both;
// Rabenseifner's recursive halving with a mirror-permuted result).
//
// With q the largest power of two ≤ p and rem = p - q, each even rank below 2·rem
// hands its whole vector to the odd rank above it, which combines it and stands
// for both; the q ranks left are renumbered v (the odd ones of the first pairs,
// then the rest). Block v of the vector is the blocks of the ranks v stands for.
// In round k (mask = 2^k) v exchanges with v ^ mask: the upper half of the blocks
// it still reduces goes to the partner when v is the lower of the two, the lower
// half otherwise, and it combines the half it receives; after lg q rounds v holds
// the reduced block whose index is v's bits reversed. A last exchange with the
// rank that mirror permutation names puts each block where it belongs (a pair's
// even rank receives its own). Commutative operations only.
// Cost on Hockney (p a power of two): lg p·α + (p-1)/p·n(β + γ), plus α for the
// last exchange.
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce_scatter/blocks.hpp"

namespace mpisim::coll::reduce_scatter {

namespace {
int mirror(int x, int bits) {
  int r = 0;
  for (int i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}
}  // namespace

Task<void> butterfly(Rank& rank, const CollArgs& a) {
  const int p = a.p, me = a.me;
  const TypeRef& t = a.recvtype;
  if (p < 2) {
    if (!a.in_place()) co_await local_copy(rank, a.sendbuf, a.recv_count(me), t, a.recvbuf, a.recv_count(me), t);
    co_return;
  }
  Work w(rank, a);
  co_await w.open();
  Scratch other(rank, w.total(), t);
  const std::vector<std::int64_t>& start = w.starts();
  const std::int64_t extent = t->extent();
  Address snd = w.all(), rcv = other.addr();
  int q = 1, bits = 0;
  while (q * 2 <= p) q *= 2, ++bits;
  const int rem = p - q;
  // The real ranks block v stands for: [first(v), end(v)).
  const auto first = [&](int v) { return v < rem ? 2 * v : v + rem; };
  const auto end = [&](int v) { return v < rem ? 2 * v + 2 : v + rem + 1; };
  const auto real = [&](int v) { return v < rem ? 2 * v + 1 : v + rem; };
  const auto elem = [&](std::size_t rank_index) { return start[rank_index]; };
  int v = -1;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      co_await send(rank, a, snd, w.total(), t, me + 1);
    } else {
      co_await recv(rank, a, rcv, w.total(), t, me - 1);
      co_await combine(rank, *a.op, rcv, snd, w.total(), t, /*inout_first=*/false);
      v = me / 2;
    }
  } else {
    v = me - rem;
  }
  if (v < 0) {  // a pair's even rank: its block comes back at the end
    const int from = real(mirror((me + 1) / 2, bits));
    co_await recv(rank, a, a.recvbuf, a.recv_count(me), t, from);
    co_return;
  }
  int blocks = q, send_index = 0, recv_index = 0;
  for (int mask = 1; mask < q; mask <<= 1) {
    const int vpeer = v ^ mask;
    blocks /= 2;
    if ((v & mask) == 0) send_index += blocks;
    else recv_index += blocks;
    const std::int64_t s_at = elem(static_cast<std::size_t>(first(send_index)));
    const std::int64_t s_n = elem(static_cast<std::size_t>(end(send_index + blocks - 1))) - s_at;
    const std::int64_t r_at = elem(static_cast<std::size_t>(first(recv_index)));
    const std::int64_t r_n = elem(static_cast<std::size_t>(end(recv_index + blocks - 1))) - r_at;
    co_await sendrecv(rank, a, snd + s_at * extent, s_n, t, real(vpeer), rcv + r_at * extent, r_n, t, real(vpeer));
    if (v < vpeer) {
      co_await combine(rank, *a.op, snd + r_at * extent, rcv + r_at * extent, r_n, t, /*inout_first=*/false);
      std::swap(snd, rcv);
    } else {
      co_await combine(rank, *a.op, rcv + r_at * extent, snd + r_at * extent, r_n, t, /*inout_first=*/false);
    }
    send_index = recv_index;
  }
  // snd holds block send_index reduced: hand it to the rank(s) it belongs to.
  const int vpeer = mirror(v, bits);
  const int peer = real(vpeer);
  int index = first(send_index);
  if (vpeer < rem) {
    co_await send(rank, a, snd + elem(static_cast<std::size_t>(index)) * extent, a.recv_count(index), t, peer - 1);
    ++index;
  }
  if (vpeer != v)
    co_await sendrecv(rank, a, snd + elem(static_cast<std::size_t>(index)) * extent, a.recv_count(index), t, peer,
                      a.recvbuf, a.recv_count(me), t, peer);
  else
    co_await local_copy(rank, snd + elem(static_cast<std::size_t>(me)) * extent, a.recv_count(me), t, a.recvbuf,
                        a.recv_count(me), t);
}

}  // namespace mpisim::coll::reduce_scatter
