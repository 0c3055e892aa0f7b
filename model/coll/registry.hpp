#pragma once
// The registry of collective algorithms: one row per algorithm, restrictions as
// data. `mpisim --list-algorithms` prints it; selection reads it; tests loop over it.
#include <span>
#include <string_view>

#include "model/coll/collective.hpp"

namespace mpisim::coll {

struct Restrictions {
  bool commutative_only = false;
  bool power_of_two_only = false;
};

using AlgorithmFn = Task<void> (*)(Rank&, const CollArgs&);

struct Algorithm {
  Collective collective;
  std::string_view name;
  Restrictions restrictions;
  std::string_view description;
  AlgorithmFn run;
};

std::span<const Algorithm> algorithms();
// The algorithm `name` for `c`, or null.
const Algorithm* find_algorithm(Collective c, std::string_view name);
// The algorithm used when none is requested.
const Algorithm& default_algorithm(Collective c, int comm_size);

}  // namespace mpisim::coll
