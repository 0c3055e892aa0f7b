// A graph given in the network file: hosts, switches and cables with their own
// latency and bandwidth.
//
// Routes are shortest paths by latency; among paths of equal latency, the one
// with fewest hops; among those, at each vertex the lowest-numbered next vertex.
// Boost.Graph's Dijkstra computes, per destination (once, then cached), every
// vertex's distance to it as latency·2^16 + hops; a route then walks from the
// source to the first neighbour (by number) that lies on a shortest path. The
// encoding bounds a graph to 65,535 vertices and a link's latency to 1 ms.
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <cmath>
#include <map>
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

constexpr std::int64_t kHop = 1 << 16;

std::int64_t weight_of(const LinkSpec& s) { return std::llround(s.latency_ps) * kHop + 1; }

class ShortestPathRouter final : public Router {
 public:
  explicit ShortestPathRouter(TopologyGraph g) : g_(std::move(g)) {}

  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    const std::vector<std::int64_t>& dist = distances_to(dst);
    for (std::uint32_t u = src; u != dst;) {
      std::uint32_t next = u;
      for (const Topology::Hop& h : t.neighbours(u))
        if (dist[h.vertex] + weight_of(t.link_spec(h.link)) == dist[u]) {
          next = h.vertex;
          out.push_back(h.link);
          break;
        }
      u = next;
    }
  }
  std::string rule() const override {
    return "shortest latency, then fewest hops, then the lowest-numbered next vertex";
  }

 private:
  const std::vector<std::int64_t>& distances_to(std::uint32_t dst) const {
    auto it = cache_.find(dst);
    if (it != cache_.end()) return it->second;
    std::vector<std::int64_t> dist(boost::num_vertices(g_));
    auto weight = boost::make_function_property_map<TopologyGraph::edge_descriptor>(
        [this](TopologyGraph::edge_descriptor e) { return weight_of(g_[e].spec); });
    boost::dijkstra_shortest_paths(g_, dst, boost::weight_map(weight).distance_map(dist.data()));
    return cache_.emplace(dst, std::move(dist)).first->second;
  }

  TopologyGraph g_;
  mutable std::map<std::uint32_t, std::vector<std::int64_t>> cache_;
};

}  // namespace

Topology make_custom(std::uint32_t hosts, std::uint32_t switches, const std::vector<CustomEdge>& edges) {
  if (hosts == 0) throw std::invalid_argument("a custom graph needs at least one host");
  if (std::uint64_t{hosts} + switches > 65535)
    throw std::invalid_argument("a custom graph has at most 65,535 vertices (hosts + switches)");
  TopologyGraph g;
  for (std::uint32_t i = 0; i < hosts; ++i) add_vertex(g, "node " + std::to_string(i));
  for (std::uint32_t i = 0; i < switches; ++i) add_vertex(g, "switch " + std::to_string(i));
  for (const CustomEdge& e : edges) {
    if (e.a >= hosts + switches || e.b >= hosts + switches)
      throw std::invalid_argument("a link names vertex " + std::to_string(std::max(e.a, e.b)) + "; the graph has " +
                                  std::to_string(hosts + switches) + " (hosts first, then switches)");
    if (e.a == e.b) throw std::invalid_argument("a link joins vertex " + std::to_string(e.a) + " to itself");
    if (e.spec.latency_ps > 1e9) throw std::invalid_argument("a link's latency is above 1 ms");
    add_cable(g, e.a, e.b, e.spec);
  }
  auto router = std::make_unique<ShortestPathRouter>(g);
  return to_topology(g, "custom", hosts, std::move(router));
}

}  // namespace mpisim::net
