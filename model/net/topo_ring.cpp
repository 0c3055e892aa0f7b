// Ring: node i is cabled to node i+1 (mod n). A message takes the shorter way
// round; when both ways are equally long it goes the increasing way.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

class RingRouter final : public Router {
 public:
  explicit RingRouter(std::uint32_t n) : n_(n) {}
  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    std::uint32_t forward = (dst + n_ - src) % n_;
    bool up = forward <= n_ - forward;
    for (std::uint32_t v = src; v != dst;) {
      std::uint32_t next = up ? (v + 1) % n_ : (v + n_ - 1) % n_;
      out.push_back(t.link(v, next));
      v = next;
    }
  }
  std::string rule() const override { return "the shorter way round; the increasing way on a tie"; }

 private:
  std::uint32_t n_;
};

}  // namespace

Topology make_ring(std::uint32_t nodes, LinkSpec link) {
  if (nodes == 0) throw std::invalid_argument("a ring needs at least one node");
  TopologyGraph g;
  for (std::uint32_t i = 0; i < nodes; ++i) add_vertex(g, "node " + std::to_string(i));
  // Two nodes share one cable; one node has none.
  for (std::uint32_t i = 0; i < nodes && nodes > 1; ++i)
    if (nodes > 2 || i == 0) add_cable(g, i, (i + 1) % nodes, link);
  return to_topology(g, "ring", nodes, std::make_unique<RingRouter>(nodes));
}

}  // namespace mpisim::net
