// Dragonfly (Kim, Dally, Scott, Abts 2008): `groups` groups of `routers` routers,
// `hosts_per_router` nodes on each router. The routers of a group are fully
// connected by local links; every two groups are joined by one global link.
// Group i's global links are numbered by the other group t as port
// (t - i - 1) mod groups and port p sits on router p / h of the group, where
// h = ceil((groups - 1) / routers) global links per router.
//
// Routing is minimal: node, its router, (a local hop to the router holding the
// global link to the destination group, the global link, a local hop to the
// destination's router,) the destination: at most one global and two local hops.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

class DragonflyRouter final : public Router {
 public:
  DragonflyRouter(std::uint32_t groups, std::uint32_t routers, std::uint32_t per_router, std::uint32_t hosts)
      : groups_(groups), routers_(routers), per_router_(per_router), hosts_(hosts),
        h_((groups - 1 + routers - 1) / routers) {}

  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    std::uint32_t rs = src / per_router_, rd = dst / per_router_;
    std::vector<std::uint32_t> path{src, hosts_ + rs};
    std::uint32_t gs = rs / routers_, gd = rd / routers_;
    if (gs != gd) {
      std::uint32_t out_router = gs * routers_ + port(gs, gd) / h_;
      std::uint32_t in_router = gd * routers_ + port(gd, gs) / h_;
      if (out_router != rs) path.push_back(hosts_ + out_router);
      path.push_back(hosts_ + in_router);
      if (in_router != rd) path.push_back(hosts_ + rd);
    } else if (rs != rd) {
      path.push_back(hosts_ + rd);
    }
    path.push_back(dst);
    t.links_along(path, out);
  }
  std::string rule() const override { return "minimal: at most local, global, local hop between the routers"; }

  std::uint32_t port(std::uint32_t from, std::uint32_t to) const { return (to + groups_ - from - 1) % groups_; }
  std::uint32_t per_router_global() const { return h_; }

 private:
  std::uint32_t groups_, routers_, per_router_, hosts_, h_;
};

}  // namespace

Topology make_dragonfly(std::uint32_t groups, std::uint32_t routers, std::uint32_t hosts_per_router, LinkSpec link,
                        LinkSpec global_link) {
  if (groups == 0 || routers == 0 || hosts_per_router == 0)
    throw std::invalid_argument("a dragonfly needs at least one group, one router per group and one node per router");
  std::uint64_t hosts = std::uint64_t{groups} * routers * hosts_per_router;
  if (hosts > (1u << 22) || std::uint64_t{groups} * routers > (1u << 20))
    throw std::invalid_argument("a dragonfly of more than 2^22 nodes or 2^20 routers is not supported");
  auto h = static_cast<std::uint32_t>(hosts);
  auto router = std::make_unique<DragonflyRouter>(groups, routers, hosts_per_router, h);
  TopologyGraph g;
  for (std::uint32_t i = 0; i < h; ++i) add_vertex(g, "node " + std::to_string(i));
  for (std::uint32_t r = 0; r < groups * routers; ++r)
    add_vertex(g, "router " + std::to_string(r / routers) + "." + std::to_string(r % routers));
  for (std::uint32_t i = 0; i < h; ++i) add_cable(g, i, h + i / hosts_per_router, link);
  for (std::uint32_t grp = 0; grp < groups; ++grp)
    for (std::uint32_t a = 0; a < routers; ++a)
      for (std::uint32_t b = a + 1; b < routers; ++b)
        add_cable(g, h + grp * routers + a, h + grp * routers + b, link);
  std::uint32_t per = router->per_router_global();
  for (std::uint32_t i = 0; i < groups; ++i)
    for (std::uint32_t t = i + 1; t < groups; ++t)
      add_cable(g, h + i * routers + router->port(i, t) / per, h + t * routers + router->port(t, i) / per,
                global_link);
  return to_topology(g, "dragonfly", h, std::move(router));
}

}  // namespace mpisim::net
