// The topology builders and their routers: sizes, connectivity, and routes that
// are walks from the source to the destination of the length each rule gives.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

#include "model/net/topology.hpp"

using namespace mpisim::net;

namespace {

const LinkSpec kLink{1000, 1};

std::vector<std::uint32_t> route(const Topology& t, std::uint32_t a, std::uint32_t b) {
  std::vector<std::uint32_t> out;
  t.route(a, b, out);
  return out;
}

// Every route between distinct hosts is a walk of existing links from a to b that
// never visits a vertex twice.
void check_routes(const Topology& t) {
  for (std::uint32_t a = 0; a < t.hosts(); ++a)
    for (std::uint32_t b = 0; b < t.hosts(); ++b) {
      if (a == b) continue;
      auto links = route(t, a, b);
      CAPTURE(a);
      CAPTURE(b);
      REQUIRE(!links.empty());
      std::uint32_t at = a;
      std::set<std::uint32_t> seen{a};
      for (std::uint32_t l : links) {
        REQUIRE(l < t.link_count());
        REQUIRE(t.link_from(l) == at);
        at = t.link_to(l);
        REQUIRE(seen.insert(at).second);
      }
      REQUIRE(at == b);
    }
}

}  // namespace

TEST_CASE("a crossbar has one switch and a route of two links: up and down") {
  Topology t = make_crossbar(5, kLink);
  CHECK(t.hosts() == 5);
  CHECK(t.vertices() == 6);
  CHECK(t.cables().size() == 5);
  check_routes(t);
  CHECK(route(t, 1, 3) == std::vector<std::uint32_t>{2, 7});
  CHECK(t.link_name(2) == "node 1 -> switch");
  CHECK(t.link_name(7) == "switch -> node 3");
}

TEST_CASE("a fully connected network routes over the direct link") {
  Topology t = make_fully_connected(6, kLink);
  CHECK(t.cables().size() == 15);
  check_routes(t);
  for (std::uint32_t a = 0; a < 6; ++a)
    for (std::uint32_t b = 0; b < 6; ++b)
      if (a != b) CHECK(route(t, a, b).size() == 1);
  CHECK_THROWS_AS(make_fully_connected(4096, kLink), std::invalid_argument);
}

TEST_CASE("a ring takes the shorter way round, the increasing way on a tie") {
  Topology t = make_ring(6, kLink);
  CHECK(t.cables().size() == 6);
  check_routes(t);
  CHECK(route(t, 0, 2).size() == 2);
  CHECK(route(t, 0, 5).size() == 1);
  auto tie = route(t, 1, 4);  // 3 hops either way
  REQUIRE(tie.size() == 3);
  CHECK(t.link_to(tie[0]) == 2);
  CHECK(make_ring(2, kLink).cables().size() == 1);
  CHECK(make_ring(1, kLink).cables().empty());
}

TEST_CASE("a torus routes in dimension order over the shorter way in each dimension") {
  Topology t = make_torus({4, 3, 2}, kLink);
  CHECK(t.hosts() == 24);
  // Dimension 0 (4 nodes): 24 cables; dimension 1 (3): 24; dimension 2 (2): one per pair, 12.
  CHECK(t.cables().size() == 60);
  check_routes(t);
  auto hops = [](std::uint32_t a, std::uint32_t b, std::uint32_t d) {
    std::uint32_t f = (b + d - a) % d;
    return std::min(f, d - f);
  };
  for (std::uint32_t a = 0; a < 24; ++a)
    for (std::uint32_t b = 0; b < 24; ++b) {
      if (a == b) continue;
      std::size_t expected = hops(a % 4, b % 4, 4) + hops(a / 4 % 3, b / 4 % 3, 3) + hops(a / 12, b / 12, 2);
      CHECK(route(t, a, b).size() == expected);
      // Dimension 0 first: the first hop changes the first coordinate that differs.
      std::uint32_t next = t.link_to(route(t, a, b)[0]);
      if (a % 4 != b % 4) CHECK(next / 4 == a / 4);
    }
  CHECK(t.vertex_name(5) == "node (1,1,0)");
  CHECK_THROWS_AS(make_torus({4, 0}, kLink), std::invalid_argument);
}

TEST_CASE("a k-ary n-tree has k^n nodes, n levels of k^(n-1) switches, and up/down routes") {
  Topology t = make_fat_tree(3, 3, 1, kLink);
  CHECK(t.hosts() == 27);
  CHECK(t.vertices() == 27 + 27);
  // Nodes to leaves: 27; each of the two lower levels' 9 switches has 3 up links: 54.
  CHECK(t.cables().size() == 27 + 54);
  check_routes(t);
  CHECK(route(t, 0, 1).size() == 2);    // same leaf
  CHECK(route(t, 0, 3).size() == 4);    // differ in digit 1: up to level 1
  CHECK(route(t, 0, 26).size() == 6);   // differ in digit 2: up to level 2
  // Destination mod k: messages to different nodes of a leaf climb different links.
  std::set<std::uint32_t> first_up;
  for (std::uint32_t d : {9u, 10u, 11u}) first_up.insert(route(t, 0, d)[1]);
  CHECK(first_up.size() == 3);
}

TEST_CASE("a fat tree's switch links carry bandwidth / oversubscription") {
  Topology t = make_fat_tree(2, 2, 4, LinkSpec{1000, 2});
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    bool host_link = t.link_from(l) < t.hosts() || t.link_to(l) < t.hosts();
    CHECK(t.link_spec(l).ps_per_byte == (host_link ? 2 : 8));
  }
  CHECK_THROWS_AS(make_fat_tree(1, 2, 1, kLink), std::invalid_argument);
  CHECK_THROWS_AS(make_fat_tree(2, 2, 0.5, kLink), std::invalid_argument);
}

TEST_CASE("a dragonfly joins every two groups by one global link and routes minimally") {
  // 5 groups of 2 routers, 2 nodes each: 2 global links per router.
  LinkSpec global{5000, 1};
  Topology t = make_dragonfly(5, 2, 2, kLink, global);
  CHECK(t.hosts() == 20);
  CHECK(t.vertices() == 30);
  // 20 node links + 5 local + C(5,2) = 10 global.
  CHECK(t.cables().size() == 20 + 5 + 10);
  check_routes(t);
  for (std::uint32_t a = 0; a < 20; ++a)
    for (std::uint32_t b = 0; b < 20; ++b) {
      if (a == b) continue;
      auto links = route(t, a, b);
      int globals = 0;
      for (auto l : links) globals += t.link_spec(l).latency_ps == 5000;
      CHECK(globals == (a / 4 != b / 4 ? 1 : 0));
      CHECK(links.size() <= 5);
    }
  CHECK(t.vertex_name(21) == "router 0.1");
}

TEST_CASE("a custom graph routes by latency, then hops, then the lowest next vertex") {
  // Hosts 0, 1; switches 2, 3, 4. Two ways from 0 to 1: through switch 2 (2 us in
  // total) or through switches 3 and 4 (1.5 us, three hops).
  LinkSpec us{1e6, 1};
  LinkSpec half{0.5e6, 1};
  std::vector<CustomEdge> edges{{0, 2, us}, {2, 1, us}, {0, 3, half}, {3, 4, half}, {4, 1, half}};
  Topology t = make_custom(2, 3, edges);
  check_routes(t);
  auto r = route(t, 0, 1);
  REQUIRE(r.size() == 3);
  CHECK(t.link_to(r[0]) == 3);
  // Equal latency: the fewest hops win.
  std::vector<CustomEdge> tie{{0, 2, us}, {2, 1, us}, {0, 3, half}, {3, 4, us}, {4, 1, half}};
  CHECK(route(make_custom(2, 3, tie), 0, 1).size() == 2);
  // Equal latency and hops: the lower-numbered next vertex.
  std::vector<CustomEdge> twins{{0, 3, us}, {3, 1, us}, {0, 2, us}, {2, 1, us}};
  CHECK(make_custom(2, 2, twins).link_to(route(make_custom(2, 2, twins), 0, 1)[0]) == 2);
}

TEST_CASE("a custom graph that is not connected is refused, naming a vertex it cannot reach") {
  std::vector<CustomEdge> edges{{0, 2, kLink}, {1, 3, kLink}};
  try {
    make_custom(2, 2, edges);
    FAIL("accepted a disconnected graph");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "the graph is not connected: node 1 cannot be reached from node 0");
  }
  CHECK_THROWS_AS(make_custom(2, 0, {{0, 5, kLink}}), std::invalid_argument);
}
