#pragma once
// The Boost.Graph form of a topology: what each builder constructs. Only builders
// and the custom-graph router include this header (Boost.Graph is heavy).
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "model/net/topology.hpp"

namespace mpisim::net {

struct VertexInfo {
  std::string name;  // "node 3", "switch 1.2", "router 0.1"
};

struct CableInfo {
  LinkSpec spec;
};

// vecS keeps vertices and edges in insertion order: cable ids, link ids and every
// iteration below follow it, so nothing depends on addresses.
using TopologyGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexInfo, CableInfo, boost::no_property,
                          boost::vecS>;

// Adds a vertex named `name` and returns its index.
std::uint32_t add_vertex(TopologyGraph& g, std::string name);
void add_cable(TopologyGraph& g, std::uint32_t a, std::uint32_t b, LinkSpec spec);

// The topology of graph `g`, whose first `hosts` vertices are hosts. Throws
// std::invalid_argument when the graph is not connected (naming a vertex that cannot be reached).
Topology to_topology(const TopologyGraph& g, std::string kind, std::uint32_t hosts, std::unique_ptr<Router> router);

}  // namespace mpisim::net
