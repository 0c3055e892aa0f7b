#include "model/coll/registry.hpp"

#include <array>
#include <stdexcept>

#include "model/coll/barrier/barrier.hpp"
#include "model/coll/scatter/scatter.hpp"
#include "model/coll/scatterv/scatterv.hpp"

namespace mpisim::coll {
namespace {

const std::array kAlgorithms = {
    Algorithm{Collective::barrier, "dissemination", {}, "ceil(lg p) rounds; in round k each rank signals rank+2^k",
              &barrier::dissemination},
    Algorithm{Collective::scatter, "linear", {}, "the root sends each rank its block directly (p-1 messages)",
              &scatter::linear},
    Algorithm{Collective::scatterv, "linear", {}, "the root sends each rank its block directly (p-1 messages)",
              &scatterv::linear},
};

}  // namespace

std::span<const Algorithm> algorithms() { return kAlgorithms; }

const Algorithm* find_algorithm(Collective c, std::string_view name) {
  for (const auto& a : kAlgorithms)
    if (a.collective == c && a.name == name) return &a;
  return nullptr;
}

const Algorithm& default_algorithm(Collective c, int) {
  for (const auto& a : kAlgorithms)
    if (a.collective == c) return a;
  throw std::logic_error("no algorithm registered for a collective");
}

}  // namespace mpisim::coll
