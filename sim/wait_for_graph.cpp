#include "sim/wait_for_graph.hpp"

#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <optional>

namespace mpisim::sim {
namespace {

// Compressed sparse rows: a million blocked ranks cost a few words each.
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                 boost::no_property, std::uint32_t, std::uint32_t>;
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
  // CSR wants the edges grouped by source; a stable sort keeps each waiter's edges
  // in the order given, so the search (and the cycle reported) is deterministic.
  std::vector<WaitEdge> sorted = edges;
  std::stable_sort(sorted.begin(), sorted.end(), [](const WaitEdge& a, const WaitEdge& b) { return a.first < b.first; });
  Graph g(boost::edges_are_sorted, sorted.begin(), sorted.end(), vertex_count);
  std::vector<Vertex> parent(vertex_count);
  for (Vertex v = 0; v < vertex_count; ++v) parent[v] = v;
  std::optional<std::pair<Vertex, Vertex>> back;
  CycleRecorder rec;
  rec.parent = &parent;
  rec.back = &back;
  std::vector<boost::default_color_type> colors(vertex_count);
  boost::depth_first_search(
      g, boost::visitor(rec).color_map(boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, g))));
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
