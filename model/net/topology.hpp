#pragma once
// A network's physical shape: hosts, switches and full-duplex cables, with a
// deterministic route between any two hosts.
//
// Each builder (topo_*.cpp, one per shape) describes its shape as a Boost.Graph
// graph (topology_graph.hpp) and turns it into a Topology: the cables become
// numbered directed links — cable c is link 2c from its first vertex to its
// second and link 2c+1 back — and a Router of that shape computes routes as
// lists of link ids. This header keeps Boost out of the files that only route.
//
// Vertices 0 .. hosts-1 are the hosts (where ranks are placed); switches and
// routers follow.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mpisim::net {

// A link's parameters: latency and time per byte (1 / bandwidth), in picoseconds.
struct LinkSpec {
  double latency_ps = 0;
  double ps_per_byte = 0;
};

struct Cable {
  std::uint32_t a, b;
  LinkSpec spec;
};

class Topology;

class Router {
 public:
  virtual ~Router() = default;
  // Appends the directed links from host `src` to host `dst` (src != dst), in order.
  virtual void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const = 0;
  // How routes are chosen, in a sentence (for the docs and --list-topologies).
  virtual std::string rule() const = 0;
};

class Topology {
 public:
  static constexpr std::uint32_t kNoLink = 0xffffffffu;

  Topology(std::string kind, std::uint32_t hosts, std::vector<std::string> vertex_names, std::vector<Cable> cables,
           std::unique_ptr<Router> router);

  const std::string& kind() const { return kind_; }
  std::uint32_t hosts() const { return hosts_; }
  std::uint32_t vertices() const { return static_cast<std::uint32_t>(names_.size()); }
  const std::string& vertex_name(std::uint32_t v) const { return names_[v]; }
  const std::vector<Cable>& cables() const { return cables_; }
  std::uint32_t link_count() const { return static_cast<std::uint32_t>(2 * cables_.size()); }
  const LinkSpec& link_spec(std::uint32_t link) const { return cables_[link / 2].spec; }
  std::uint32_t link_from(std::uint32_t link) const { return link % 2 ? cables_[link / 2].b : cables_[link / 2].a; }
  std::uint32_t link_to(std::uint32_t link) const { return link % 2 ? cables_[link / 2].a : cables_[link / 2].b; }
  // "node 3 -> switch 0"
  std::string link_name(std::uint32_t link) const;
  // The directed link from `u` to its neighbour `v` (the first cable between them), or kNoLink.
  std::uint32_t link(std::uint32_t u, std::uint32_t v) const;
  // The neighbours of `u` with the link to each, by increasing neighbour.
  struct Hop {
    std::uint32_t vertex, link;
  };
  const std::vector<Hop>& neighbours(std::uint32_t u) const { return adjacency_[u]; }

  void route(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const {
    router_->route(*this, src, dst, out);
  }
  std::string routing_rule() const { return router_->rule(); }
  // Appends the links of the path that visits `path` (consecutive neighbours).
  void links_along(const std::vector<std::uint32_t>& path, std::vector<std::uint32_t>& out) const;

 private:
  std::string kind_;
  std::uint32_t hosts_;
  std::vector<std::string> names_;
  std::vector<Cable> cables_;
  std::vector<std::vector<Hop>> adjacency_;
  std::unique_ptr<Router> router_;
};

// The shapes, one builder each. Every builder throws std::invalid_argument with a
// readable reason when its parameters describe no network (the network file's
// reader turns that into an input error with the JSON path).
Topology make_crossbar(std::uint32_t nodes, LinkSpec link);
Topology make_fully_connected(std::uint32_t nodes, LinkSpec link);
Topology make_ring(std::uint32_t nodes, LinkSpec link);
Topology make_torus(const std::vector<std::uint32_t>& dims, LinkSpec link);
// k-ary n-tree: k^n hosts, n levels of k^(n-1) switches; links above the hosts'
// own carry bandwidth / oversubscription.
Topology make_fat_tree(std::uint32_t k, std::uint32_t n, double oversubscription, LinkSpec link);
// groups × routers per group × hosts per router; routers of a group fully connected,
// one global link between every two groups.
Topology make_dragonfly(std::uint32_t groups, std::uint32_t routers, std::uint32_t hosts_per_router, LinkSpec link,
                        LinkSpec global_link);
struct CustomEdge {
  std::uint32_t a, b;
  LinkSpec spec;
};
// Any connected graph; routes are shortest paths (see topo_custom.cpp).
Topology make_custom(std::uint32_t hosts, std::uint32_t switches, const std::vector<CustomEdge>& edges);

// The shapes a network file can name, for --list-topologies and error messages.
struct TopologyKind {
  const char* name;
  const char* parameters;
  const char* description;
};
const std::vector<TopologyKind>& topology_kinds();

}  // namespace mpisim::net
