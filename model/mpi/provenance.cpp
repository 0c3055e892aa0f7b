#include "model/mpi/provenance.hpp"

#include <algorithm>
#include <iterator>

namespace mpisim::mpi {

std::vector<std::int32_t> ProvenanceSets::ranks(std::int32_t origin) const {
  if (origin >= 0) return {origin};
  if (origin == kUnknown || -2 - origin >= static_cast<std::int32_t>(sets_.size())) return {};
  return sets_[static_cast<std::size_t>(-2 - origin)];
}

std::int32_t ProvenanceSets::intern(std::vector<std::int32_t> set) {
  if (set.empty()) return kUnknown;
  if (set.size() == 1) return set[0];
  auto [it, fresh] = codes_.try_emplace(std::move(set), -2 - static_cast<std::int32_t>(sets_.size()));
  if (fresh) sets_.push_back(it->first);
  return it->second;
}

std::int32_t ProvenanceSets::combine(std::int32_t a, std::int32_t b) {
  if (a == b || b == kUnknown) return a;
  if (a == kUnknown) return b;
  if (a > b) std::swap(a, b);  // the union does not depend on the order
  auto [it, fresh] = unions_.try_emplace({a, b}, kUnknown);
  if (!fresh) return it->second;
  const std::vector<std::int32_t> x = ranks(a), y = ranks(b);
  std::vector<std::int32_t> u;
  std::set_union(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(u));
  it->second = intern(std::move(u));
  return it->second;
}

}  // namespace mpisim::mpi
