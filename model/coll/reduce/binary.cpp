// Reduce, binary tree (Open MPI's binary, its tuned algorithm 4, unsegmented as
// its fixed decisions run it), on Open MPI's binary tree rooted at the root
// (model/coll/binary_tree.hpp). A rank with children posts a receive from each,
// the first straight into its accumulator; it combines its own contribution into
// the first child's, then the second child's into that, and sends the result to
// its parent (the root keeps it in recvbuf). A leaf sends its contribution.
// Commutative operations only (Open MPI runs another tree for the others).
// Cost on Hockney for a complete tree of height h (p = 2^(h+1) - 1):
// h·(α + nβ + 2nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/binary_tree.hpp"

namespace mpisim::coll::reduce {

Task<void> binary(Rank& rank, const CollArgs& a) {
  const int p = a.p;
  const bool root = a.me == a.root;
  const BinaryTree t = binary_tree_of((a.me - a.root + p) % p, p);
  const TypeRef& type = a.sendtype;
  const std::int64_t n = a.sendcount;
  const Address mine = root && a.in_place() ? a.recvbuf : a.sendbuf;
  const auto real = [&](int v) { return (v + a.root) % p; };
  if (t.count == 0) {
    if (!root) co_await send(rank, a, mine, n, type, real(t.parent));
    else if (!a.in_place()) co_await local_copy(rank, mine, n, type, a.recvbuf, n, type);
    co_return;
  }
  Scratch acc_buf(rank, root ? 0 : n, type), second(rank, t.count > 1 ? n : 0, type), first(rank, root && a.in_place() ? n : 0, type);
  const Address acc = root ? a.recvbuf : acc_buf.addr();
  // With MPI_IN_PLACE the root's recvbuf holds its own contribution: the first
  // child's data goes apart and is combined into it.
  const Address first_in = root && a.in_place() ? first.addr() : acc;
  Request* from[2] = {post_recv(rank, a, first_in, n, type, real(t.children[0])),
                      t.count > 1 ? post_recv(rank, a, second.addr(), n, type, real(t.children[1])) : nullptr};
  co_await rank.wait(std::exchange(from[0], nullptr));
  if (root && a.in_place()) co_await combine(rank, *a.op, first_in, acc, n, type);
  else co_await combine(rank, *a.op, mine, acc, n, type);
  if (t.count > 1) {
    co_await rank.wait(std::exchange(from[1], nullptr));
    co_await combine(rank, *a.op, second.addr(), acc, n, type);
  }
  if (!root) co_await send(rank, a, acc, n, type, real(t.parent));
}

}  // namespace mpisim::coll::reduce
