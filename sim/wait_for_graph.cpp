#include "sim/wait_for_graph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace mpisim::sim {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
using Edge = boost::graph_traits<Graph>::edge_descriptor;

// Records the DFS tree and the first back edge; a back edge closes a cycle.
struct CycleRecorder : boost::default_dfs_visitor {
  std::vector<Vertex>* parent;
  std::optional<std::pair<Vertex, Vertex>>* back;
  void tree_edge(Edge e, const Graph& g) const { (*parent)[boost::target(e, g)] = boost::source(e, g); }
  void back_edge(Edge e, const Graph& g) const {
    if (!*back) *back = std::make_pair(boost::source(e, g), boost::target(e, g));
  }
};

}  // namespace

std::vector<std::uint32_t> find_cycle(std::uint32_t vertex_count, const std::vector<WaitEdge>& edges) {
  Graph g(vertex_count);
  for (auto [a, b] : edges) boost::add_edge(a, b, g);
  std::vector<Vertex> parent(vertex_count);
  for (Vertex v = 0; v < vertex_count; ++v) parent[v] = v;
  std::optional<std::pair<Vertex, Vertex>> back;
  CycleRecorder rec;
  rec.parent = &parent;
  rec.back = &back;
  boost::depth_first_search(g, boost::visitor(rec));
  if (!back) return {};
  // back = (u, v): v is an ancestor of u; the cycle is v -> ... -> u -> v.
  std::vector<std::uint32_t> cycle;
  for (Vertex x = back->first;; x = parent[x]) {
    cycle.push_back(static_cast<std::uint32_t>(x));
    if (x == back->second) break;
  }
  std::reverse(cycle.begin(), cycle.end());
  return cycle;
}

}  // namespace mpisim::sim
