// Fully connected: a dedicated full-duplex cable between every two nodes, so
// only messages between the same two nodes in the same direction share a link.
// The graph has n(n-1)/2 cables: the builder refuses more than 2048 nodes (about
// two million cables); a crossbar, or the contention-free Hockney model, serves there.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

class DirectRouter final : public Router {
 public:
  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    out.push_back(t.link(src, dst));
  }
  std::string rule() const override { return "the direct link"; }
};

}  // namespace

Topology make_fully_connected(std::uint32_t nodes, LinkSpec link) {
  if (nodes == 0) throw std::invalid_argument("a fully connected network needs at least one node");
  if (nodes > 2048)
    throw std::invalid_argument("a fully connected network of " + std::to_string(nodes) +
                                " nodes would need " + std::to_string(std::uint64_t{nodes} * (nodes - 1) / 2) +
                                " cables; at most 2048 nodes (use a crossbar, or the hockney model)");
  TopologyGraph g;
  for (std::uint32_t i = 0; i < nodes; ++i) add_vertex(g, "node " + std::to_string(i));
  for (std::uint32_t i = 0; i < nodes; ++i)
    for (std::uint32_t j = i + 1; j < nodes; ++j) add_cable(g, i, j, link);
  return to_topology(g, "fully_connected", nodes, std::make_unique<DirectRouter>());
}

}  // namespace mpisim::net
