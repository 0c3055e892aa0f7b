#pragma once
// Network descriptions: JSON files that choose a cost model and its parameters.
//
//   {"mpisim-network": 1, "name": "cluster-10g", "about": "...",
//    "model": "hockney", "alpha": "2us", "bandwidth": "10 Gbit/s", "eager_limit": "64KiB"}
//
// The format is specified in docs/cost-models.md. Every error names the file, the
// JSON path and what was expected.
#include <memory>
#include <string>
#include <vector>

#include "model/net/cost_model.hpp"

namespace mpisim::net {

struct Network {
  std::string name;
  std::string source;   // the file it came from, or "built-in"
  std::string about;
  std::unique_ptr<CostModel> model;
};

// Throws sim::InputError.
Network load_network_file(const std::string& path);
Network parse_network(const std::string& text, const std::string& where);
// The models a network file can name ("model"), for --list-models.
struct ModelKind {
  const char* name;
  const char* parameters;
  const char* description;
};
const std::vector<ModelKind>& model_kinds();

// A topology network's per-message costs when its file does not give them
// ("overhead", "gap"; docs/cost-models.md): the CPU time an MPI send or receive
// takes at each end, and the least time between two sends of one rank.
inline constexpr double kOverheadDefaultPs = 200'000;  // 200 ns
inline constexpr double kGapDefaultPs = 200'000;       // 200 ns: 5 million messages per second per rank

// The network used when none is given: a 10-GbE-like cluster (Hockney).
Network default_network();

}  // namespace mpisim::net
