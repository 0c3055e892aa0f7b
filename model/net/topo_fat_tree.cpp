// Fat tree: the k-ary n-tree of Petrini and Vanneschi. k^n nodes; n levels of
// k^(n-1) switches, level 0 the leaves. Write a node's index in base k as digits
// h_{n-1} .. h_0 and a switch's index w as digits w_{n-2} .. w_0:
//  - node h is cabled to leaf switch h / k;
//  - switch (l, w) is cabled to each switch (l+1, w') whose index differs from w
//    in digit l alone (k up links; the top level has none).
// Links between switches carry bandwidth / oversubscription, the nodes' own links
// the full bandwidth: an oversubscription of 2 halves the bisection.
//
// Routing is up/down. A message climbs to the lowest level D whose switches reach
// both nodes (D is the highest node digit above h_0 in which they differ, 0 when
// they share a leaf), then descends. Climbing from level l it takes the up link
// whose new digit l is the destination's digit h_l ("destination mod k"), which
// spreads the messages to different nodes over the equal-cost paths
// deterministically; descending, each step sets the next digit to the destination's.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

std::uint32_t digit(std::uint32_t x, std::uint32_t i, std::uint32_t k) {
  for (; i > 0; --i) x /= k;
  return x % k;
}

std::uint32_t with_digit(std::uint32_t x, std::uint32_t i, std::uint32_t k, std::uint32_t v) {
  std::uint32_t p = 1;
  for (; i > 0; --i) p *= k;
  return x - ((x / p) % k) * p + v * p;
}

class FatTreeRouter final : public Router {
 public:
  FatTreeRouter(std::uint32_t k, std::uint32_t n, std::uint32_t hosts, std::uint32_t per_level)
      : k_(k), n_(n), hosts_(hosts), per_level_(per_level) {}

  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    std::uint32_t top = 0;
    for (std::uint32_t i = n_ - 1; i >= 1; --i)
      if (digit(src, i, k_) != digit(dst, i, k_)) {
        top = i;
        break;
      }
    std::uint32_t w = src / k_;
    std::uint32_t v = sw(0, w);
    out.push_back(t.link(src, v));
    for (std::uint32_t l = 0; l < top; ++l) {
      w = with_digit(w, l, k_, digit(dst, l, k_));
      std::uint32_t next = sw(l + 1, w);
      out.push_back(t.link(v, next));
      v = next;
    }
    for (std::uint32_t l = top; l >= 1; --l) {
      w = with_digit(w, l - 1, k_, digit(dst, l, k_));
      std::uint32_t next = sw(l - 1, w);
      out.push_back(t.link(v, next));
      v = next;
    }
    out.push_back(t.link(v, dst));
  }
  std::string rule() const override {
    return "up/down: climb to the lowest common level choosing up links by the destination's digits, then descend";
  }

 private:
  std::uint32_t sw(std::uint32_t level, std::uint32_t w) const { return hosts_ + level * per_level_ + w; }
  std::uint32_t k_, n_, hosts_, per_level_;
};

}  // namespace

Topology make_fat_tree(std::uint32_t k, std::uint32_t n, double oversubscription, LinkSpec link) {
  if (k < 2) throw std::invalid_argument("a fat tree needs k >= 2 (links per switch in each direction)");
  if (n < 1) throw std::invalid_argument("a fat tree needs n >= 1 levels");
  if (!(oversubscription >= 1)) throw std::invalid_argument("the oversubscription must be at least 1");
  std::uint64_t hosts = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    hosts *= k;
    if (hosts > (1u << 22)) throw std::invalid_argument("a fat tree of more than 2^22 nodes is not supported");
  }
  auto h = static_cast<std::uint32_t>(hosts);
  std::uint32_t per_level = h / k;
  TopologyGraph g;
  for (std::uint32_t i = 0; i < h; ++i) add_vertex(g, "node " + std::to_string(i));
  for (std::uint32_t l = 0; l < n; ++l)
    for (std::uint32_t w = 0; w < per_level; ++w)
      add_vertex(g, "switch " + std::to_string(l) + "." + std::to_string(w));
  for (std::uint32_t i = 0; i < h; ++i) add_cable(g, i, h + i / k, link);
  LinkSpec inner{link.latency_ps, link.ps_per_byte * oversubscription};
  for (std::uint32_t l = 0; l + 1 < n; ++l)
    for (std::uint32_t w = 0; w < per_level; ++w)
      for (std::uint32_t v = 0; v < k; ++v)
        add_cable(g, h + l * per_level + w, h + (l + 1) * per_level + with_digit(w, l, k, v), inner);
  return to_topology(g, "fat_tree", h, std::make_unique<FatTreeRouter>(k, n, h, per_level));
}

}  // namespace mpisim::net
