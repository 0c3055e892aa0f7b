#pragma once
// Provenance of combined data: which ranks' data an element was computed from.
//
// A byte's origin (Memory's provenance) is the rank whose buffer it came from, -1
// when unknown, or, for data a reduction computed from several ranks, a code at
// most -2 naming a set of ranks here. Combining two origins gives the union of
// their sets; sets are interned, so equal sets have one code.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace mpisim::mpi {

class ProvenanceSets {
 public:
  static constexpr std::int32_t kUnknown = -1;
  // The origin of data computed from data of origins a and b.
  std::int32_t combine(std::int32_t a, std::int32_t b);
  // The ranks behind an origin, in increasing order (empty for kUnknown).
  std::vector<std::int32_t> ranks(std::int32_t origin) const;
  static bool combined(std::int32_t origin) { return origin <= -2; }

 private:
  std::int32_t intern(std::vector<std::int32_t> set);
  std::vector<std::vector<std::int32_t>> sets_;  // code -2 - i is sets_[i]
  std::map<std::vector<std::int32_t>, std::int32_t> codes_;
  std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> unions_;
};

}  // namespace mpisim::mpi
