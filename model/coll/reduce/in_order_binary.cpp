// Reduce, in-order binary tree (Open MPI's in-order_binary, its tuned algorithm 6,
// unsegmented as its fixed decisions run it; they take it for non-commutative
// operations on larger communicators or buffers). The tree keeps rank order: its
// root is rank p - 1; a node of a subtree of ranks lo .. hi is its highest rank
// hi, its left child hi - 1 heads the upper part of the others and its right child
// the lower part, ranks lo .. lo + m/2 - 1 for the subtree's m ranks (so the
// right part holds floor(m/2) of them, the left the rest but the node). Open MPI's
// generic reduce runs on it (reduce/tree.hpp): each node combines from the left,
// right child's data op (left child's data op its own), which is rank order. When
// the root is not rank p - 1, rank p - 1 reduces into a buffer of its own and
// sends the result to the root, which receives it after taking its part.
// Any operation. Cost on Hockney with p = 2^(h+1) - 1 and the root at p - 1:
// h·(α + nβ + 2nγ).
#include "model/coll/algorithms.hpp"
#include "model/coll/reduce/tree.hpp"

namespace mpisim::coll::reduce {
namespace {

struct InOrderNode {
  int parent = -1;
  int children[2] = {-1, -1};
  int count = 0;
};

// Rank r's place in the in-order tree of p ranks.
InOrderNode in_order_node(int r, int p) {
  InOrderNode t;
  int size = p, head = p - 1, base = 0;  // the current subtree: ranks base .. base + size - 1, headed by base + head
  for (;;) {
    const int right = size / 2;                          // ranks in the right (lower) subtree
    const int left_head = size > 1 ? head - 1 : -1;      // relative to base
    const int right_head = left_head > 0 ? right - 1 : -1;
    const int me = r - base;
    if (me == head) {
      if (left_head >= 0) t.children[t.count++] = left_head + base;
      if (right_head >= 0) t.children[t.count++] = right_head + base;
      return t;
    }
    if (me > right_head) {  // in the left subtree: ranks base + right .. base + head - 1
      if (me == left_head) t.parent = head + base;
      size = size - right - 1;
      base += right;
      head = size - 1;
    } else {  // in the right subtree: ranks base .. base + right - 1
      if (me == right_head) t.parent = head + base;
      size = right;
      head = right_head;
    }
  }
}

}  // namespace

Task<void> in_order_binary(Rank& rank, const CollArgs& a) {
  const int p = a.p, top = p - 1;
  const bool root = a.me == a.root;
  const InOrderNode t = in_order_node(a.me, p);
  const std::span<const int> children(t.children, static_cast<std::size_t>(t.count));
  const TypeRef& type = a.sendtype;
  const std::int64_t n = a.sendcount;
  if (a.root == top) {
    co_await generic(rank, a, t.parent, children, root && a.in_place() ? a.recvbuf : a.sendbuf, root ? a.recvbuf : 0,
                     root && a.in_place());
    co_return;
  }
  if (root) {
    // Its contribution, apart from recvbuf when in place: the result arrives there.
    Scratch own(rank, a.in_place() ? n : 0, type);
    if (a.in_place()) co_await local_copy(rank, a.recvbuf, n, type, own.addr(), n, type);
    co_await generic(rank, a, t.parent, children, a.in_place() ? own.addr() : a.sendbuf, 0, false);
    co_await recv(rank, a, a.recvbuf, n, type, top);
  } else if (a.me == top) {
    Scratch result(rank, n, type);
    co_await generic(rank, a, t.parent, children, a.sendbuf, result.addr(), false);
    co_await send(rank, a, result.addr(), n, type, a.root);
  } else {
    co_await generic(rank, a, t.parent, children, a.sendbuf, 0, false);
  }
}

}  // namespace mpisim::coll::reduce
