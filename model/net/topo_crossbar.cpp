// Crossbar (star): every node has a full-duplex cable to one central switch.
// A message goes up its sender's cable and down its receiver's: two links, so
// its route latency is twice the link latency and messages share a link only
// when they leave the same node or enter the same node.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

class CrossbarRouter final : public Router {
 public:
  void route(const Topology&, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    // Cable i joins node i and the switch, so link 2i goes up and 2i+1 comes down.
    out.push_back(2 * src);
    out.push_back(2 * dst + 1);
  }
  std::string rule() const override { return "up the sender's link, down the receiver's"; }
};

}  // namespace

Topology make_crossbar(std::uint32_t nodes, LinkSpec link) {
  if (nodes == 0) throw std::invalid_argument("a crossbar needs at least one node");
  TopologyGraph g;
  for (std::uint32_t i = 0; i < nodes; ++i) add_vertex(g, "node " + std::to_string(i));
  std::uint32_t sw = add_vertex(g, "switch");
  for (std::uint32_t i = 0; i < nodes; ++i) add_cable(g, i, sw, link);
  return to_topology(g, "crossbar", nodes, std::make_unique<CrossbarRouter>());
}

}  // namespace mpisim::net
