#include "model/coll/reduce/tree.hpp"

#include <array>
#include <utility>

#include "model/coll/algorithms.hpp"

namespace mpisim::coll::reduce {

Task<void> generic(Rank& rank, const CollArgs& a, int parent, std::span<const int> children, Address own,
                   Address result, bool own_in_result) {
  const TypeRef& type = a.sendtype;
  const std::int64_t n = a.sendcount;
  const std::size_t k = children.size();
  if (k == 0) {
    if (parent >= 0) co_await send(rank, a, own, n, type, parent);
    else if (!own_in_result) co_await local_copy(rank, own, n, type, result, n, type);
    co_return;
  }
  const bool commute = a.op->commutative;
  const bool direct = commute && !own_in_result;  // the first child's data straight into the accumulator
  const std::size_t spares = direct ? k - 1 : k;
  Scratch acc_buf(rank, parent >= 0 ? n : 0, type), in0(rank, spares > 0 ? n : 0, type),
      in1(rank, spares > 1 ? n : 0, type);
  const Address acc = parent >= 0 ? acc_buf.addr() : result;
  const std::array<Address, 2> spare = {in0.addr(), in1.addr()};
  auto into = [&](std::size_t i) { return direct ? (i == 0 ? acc : spare[(i - 1) % 2]) : spare[i % 2]; };
  if (!commute && !own_in_result) co_await local_copy(rank, own, n, type, acc, n, type);
  Request* next = post_recv(rank, a, into(0), n, type, children[0]);
  for (std::size_t i = 0; i < k; ++i) {
    Request* now = std::exchange(next, nullptr);
    if (i + 1 < k) next = post_recv(rank, a, into(i + 1), n, type, children[i + 1]);
    co_await rank.wait(now);
    co_await combine(rank, *a.op, direct && i == 0 ? own : into(i), acc, n, type);
  }
  if (parent >= 0) co_await send(rank, a, acc, n, type, parent);
}

Task<void> on_tree(Rank& rank, const CollArgs& a, int parent, std::span<const int> children) {
  const int p = a.p;
  const bool root = a.me == a.root;
  std::array<int, 2> real{};
  for (std::size_t i = 0; i < children.size(); ++i) real[i] = (children[i] + a.root) % p;
  co_await generic(rank, a, parent < 0 ? -1 : (parent + a.root) % p, std::span<const int>(real.data(), children.size()),
                   root && a.in_place() ? a.recvbuf : a.sendbuf, root ? a.recvbuf : 0, root && a.in_place());
}

}  // namespace mpisim::coll::reduce
