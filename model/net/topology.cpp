#include "model/net/topology.hpp"

#include <algorithm>
#include <boost/graph/connected_components.hpp>
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {

Topology::Topology(std::string kind, std::uint32_t hosts, std::vector<std::string> vertex_names,
                   std::vector<Cable> cables, std::unique_ptr<Router> router)
    : kind_(std::move(kind)),
      hosts_(hosts),
      names_(std::move(vertex_names)),
      cables_(std::move(cables)),
      adjacency_(names_.size()),
      router_(std::move(router)) {
  for (std::uint32_t c = 0; c < cables_.size(); ++c) {
    adjacency_[cables_[c].a].push_back({cables_[c].b, 2 * c});
    adjacency_[cables_[c].b].push_back({cables_[c].a, 2 * c + 1});
  }
  // By neighbour, then by link: the first cable between two vertices is the one used.
  for (auto& hops : adjacency_)
    std::stable_sort(hops.begin(), hops.end(), [](const Hop& x, const Hop& y) { return x.vertex < y.vertex; });
}

std::string Topology::link_name(std::uint32_t link) const {
  return names_[link_from(link)] + " -> " + names_[link_to(link)];
}

// A binary search whose steps are data, not branches: routes call it for every
// hop, and a switch's neighbours (dozens on a fat tree) would make each step a
// coin toss for the branch predictor.
std::uint32_t Topology::link(std::uint32_t u, std::uint32_t v) const {
  const auto& hops = adjacency_[u];
  if (hops.empty()) return kNoLink;
  const Hop* base = hops.data();
  for (std::size_t n = hops.size(); n > 1;) {
    const std::size_t half = n / 2;
    base += base[half].vertex < v ? half : 0;  // the first neighbour not below v is in [base, base + n - half]
    n -= half;
  }
  base += base->vertex < v;
  return base != hops.data() + hops.size() && base->vertex == v ? base->link : kNoLink;
}

void Topology::links_along(const std::vector<std::uint32_t>& path, std::vector<std::uint32_t>& out) const {
  for (std::size_t i = 1; i < path.size(); ++i) out.push_back(link(path[i - 1], path[i]));
}

std::uint32_t add_vertex(TopologyGraph& g, std::string name) {
  return static_cast<std::uint32_t>(boost::add_vertex(VertexInfo{std::move(name)}, g));
}

void add_cable(TopologyGraph& g, std::uint32_t a, std::uint32_t b, LinkSpec spec) {
  boost::add_edge(a, b, CableInfo{spec}, g);
}

Topology to_topology(const TopologyGraph& g, std::string kind, std::uint32_t hosts, std::unique_ptr<Router> router) {
  auto n = static_cast<std::uint32_t>(boost::num_vertices(g));
  if (n == 0) throw std::invalid_argument("the network has no node");
  std::vector<int> component(n);
  int components = boost::connected_components(g, component.data());
  if (components > 1) {
    std::uint32_t v = 0;
    while (component[v] == component[0]) ++v;
    throw std::invalid_argument("the graph is not connected: " + g[v].name + " cannot be reached from " + g[0].name);
  }
  std::vector<std::string> names;
  names.reserve(n);
  for (std::uint32_t v = 0; v < n; ++v) names.push_back(g[v].name);
  std::vector<Cable> cables;
  cables.reserve(boost::num_edges(g));
  for (auto [it, end] = boost::edges(g); it != end; ++it)
    cables.push_back(Cable{static_cast<std::uint32_t>(boost::source(*it, g)),
                           static_cast<std::uint32_t>(boost::target(*it, g)), g[*it].spec});
  return Topology(std::move(kind), hosts, std::move(names), std::move(cables), std::move(router));
}

const std::vector<TopologyKind>& topology_kinds() {
  static const std::vector<TopologyKind> kinds{
      {"crossbar", "nodes", "every node has one up and one down link to a central switch (a star)"},
      {"fully_connected", "nodes", "a dedicated full-duplex link between every two nodes: no shared links"},
      {"ring", "nodes", "nodes in a cycle, each linked to its two neighbours; routes take the shorter way"},
      {"torus", "dims", "a torus of any dimensions (e.g. [8,8,8]); dimension-order routing"},
      {"fat_tree", "k, n, oversubscription", "a k-ary n-tree of switches over k^n nodes; up/down routing"},
      {"dragonfly", "groups, routers, hosts_per_router, global_link",
       "fully connected router groups, one global link between every two groups; minimal routing"},
      {"custom", "hosts, switches, links", "any connected graph given in the file; shortest-latency routing"},
  };
  return kinds;
}

}  // namespace mpisim::net
