#include <doctest/doctest.h>

#include <vector>

#include "sim/ring.hpp"

using mpisim::sim::Ring;

namespace {

struct Node {
  int value = 0;
  Node* next = nullptr;
};

std::vector<int> walk(const Ring<Node>& ring) {
  std::vector<int> out;
  for (const Node* n = ring.first(); n != nullptr; n = ring.after(n)) out.push_back(n->value);
  return out;
}

// Removes the first node whose value is v, found by a walk as the runtime does.
void remove_value(Ring<Node>& ring, int v) {
  Node* prev = nullptr;
  for (Node* n = ring.first(); n != nullptr; prev = n, n = ring.after(n))
    if (n->value == v) {
      ring.remove(prev, n);
      return;
    }
  FAIL("value not in the ring");
}

}  // namespace

TEST_CASE("ring: first in, first out, through the objects' own links") {
  Ring<Node> ring;
  CHECK(ring.empty());
  CHECK(ring.first() == nullptr);
  CHECK(ring.pop_front() == nullptr);
  Node a{1}, b{2}, c{3};
  ring.push_back(&a);
  CHECK(ring.first() == &a);
  CHECK(ring.last() == &a);
  CHECK(ring.after(&a) == nullptr);
  ring.push_back(&b);
  ring.push_back(&c);
  CHECK(walk(ring) == std::vector<int>{1, 2, 3});
  CHECK(ring.pop_front() == &a);
  CHECK(a.next == nullptr);
  CHECK(walk(ring) == std::vector<int>{2, 3});
  ring.push_back(&a);
  CHECK(walk(ring) == std::vector<int>{2, 3, 1});
  CHECK(ring.pop_front() == &b);
  CHECK(ring.pop_front() == &c);
  CHECK(ring.pop_front() == &a);
  CHECK(ring.empty());
  CHECK((a.next == nullptr && b.next == nullptr && c.next == nullptr));
}

TEST_CASE("ring: removal from the front, the middle, the end and of the only object") {
  Ring<Node> ring;
  std::vector<Node> nodes(5);
  for (int i = 0; i < 5; ++i) {
    nodes[static_cast<std::size_t>(i)].value = i;
    ring.push_back(&nodes[static_cast<std::size_t>(i)]);
  }
  remove_value(ring, 2);  // middle
  CHECK(walk(ring) == std::vector<int>{0, 1, 3, 4});
  remove_value(ring, 0);  // first
  CHECK(walk(ring) == std::vector<int>{1, 3, 4});
  remove_value(ring, 4);  // last: the one before becomes the last
  CHECK(walk(ring) == std::vector<int>{1, 3});
  CHECK(ring.last()->value == 3);
  ring.push_back(&nodes[4]);  // appended after the new last
  CHECK(walk(ring) == std::vector<int>{1, 3, 4});
  remove_value(ring, 1);
  remove_value(ring, 3);
  CHECK(walk(ring) == std::vector<int>{4});
  remove_value(ring, 4);  // the only one
  CHECK(ring.empty());
  for (const Node& n : nodes) CHECK(n.next == nullptr);
}

TEST_CASE("ring: an object put back in front is taken first") {
  Ring<Node> ring;
  Node a{1}, b{2}, c{3};
  ring.push_front(&a);
  CHECK(walk(ring) == std::vector<int>{1});
  CHECK(ring.last() == &a);
  ring.push_back(&b);
  ring.push_front(&c);
  CHECK(walk(ring) == std::vector<int>{3, 1, 2});
  CHECK(ring.last() == &b);
  CHECK(ring.pop_front() == &c);
  CHECK(walk(ring) == std::vector<int>{1, 2});
}
