// Torus of any dimensions d0 x d1 x ...: node (c0, c1, ...) has index
// c0 + d0*(c1 + d1*(c2 + ...)) and a cable to its +1 neighbour in every dimension
// (with wrap-around; a dimension of 2 has one cable between its two nodes, of 1
// none). The nodes are the routers (a direct network): there is no separate host link.
//
// Routing is dimension order: dimension 0 first, then 1, ...; in each, the shorter
// way round, the increasing way on a tie.
#include <stdexcept>

#include "model/net/topology_graph.hpp"

namespace mpisim::net {
namespace {

class TorusRouter final : public Router {
 public:
  explicit TorusRouter(std::vector<std::uint32_t> dims) : dims_(std::move(dims)) {}
  void route(const Topology& t, std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& out) const override {
    std::uint32_t v = src;
    std::uint32_t stride = 1;
    for (std::uint32_t d : dims_) {
      std::uint32_t from = (v / stride) % d, to = (dst / stride) % d;
      std::uint32_t forward = (to + d - from) % d;
      bool up = forward <= d - forward;
      for (std::uint32_t c = from; c != to;) {
        std::uint32_t next_c = up ? (c + 1) % d : (c + d - 1) % d;
        std::uint32_t next = v - c * stride + next_c * stride;
        out.push_back(t.link(v, next));
        v = next;
        c = next_c;
      }
      stride *= d;
    }
  }
  std::string rule() const override {
    return "dimension order (dimension 0 first), the shorter way round in each, the increasing way on a tie";
  }

 private:
  std::vector<std::uint32_t> dims_;
};

std::string coordinates(std::uint32_t v, const std::vector<std::uint32_t>& dims) {
  std::string s = "node (";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    s += (i ? "," : "") + std::to_string(v % dims[i]);
    v /= dims[i];
  }
  return s + ")";
}

}  // namespace

Topology make_torus(const std::vector<std::uint32_t>& dims, LinkSpec link) {
  if (dims.empty()) throw std::invalid_argument("a torus needs at least one dimension");
  std::uint64_t n = 1;
  for (std::uint32_t d : dims) {
    if (d == 0) throw std::invalid_argument("every dimension of a torus needs at least one node");
    n *= d;
    if (n > (1u << 24)) throw std::invalid_argument("a torus of more than 2^24 nodes is not supported");
  }
  TopologyGraph g;
  for (std::uint32_t v = 0; v < n; ++v) add_vertex(g, coordinates(v, dims));
  std::uint32_t stride = 1;
  for (std::uint32_t d : dims) {
    for (std::uint32_t v = 0; v < n && d > 1; ++v) {
      std::uint32_t c = (v / stride) % d;
      if (d == 2 && c == 1) continue;  // one cable between the two nodes of the dimension
      add_cable(g, v, v - c * stride + ((c + 1) % d) * stride, link);
    }
    stride *= d;
  }
  return to_topology(g, "torus", static_cast<std::uint32_t>(n), std::make_unique<TorusRouter>(dims));
}

}  // namespace mpisim::net
