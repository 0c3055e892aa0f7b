#pragma once
// Cycle finding in a wait-for graph: the kernel's generic half of deadlock
// reporting. The model says who waits for whom; this finds a cycle among them.
#include <cstdint>
#include <utility>
#include <vector>

namespace mpisim::sim {

using WaitEdge = std::pair<std::uint32_t, std::uint32_t>;  // (waiter, waited-for)

// Returns one cycle as the sequence of vertices v0 -> v1 -> ... -> v0 (v0 not
// repeated), or an empty vector when the graph is acyclic. Deterministic: the
// search starts from the smallest vertex and follows edges in the given order.
std::vector<std::uint32_t> find_cycle(std::uint32_t vertex_count, const std::vector<WaitEdge>& edges);

}  // namespace mpisim::sim
