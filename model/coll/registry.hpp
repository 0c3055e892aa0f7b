#pragma once
// The registry of collective algorithms: one row per (collective, algorithm),
// restrictions as data. `mpisim --list-algorithms` prints it; selection reads it;
// the tests loop over it, so an algorithm is tested the moment it is registered.
#include <span>
#include <string>
#include <string_view>

#include "model/coll/collective.hpp"

namespace mpisim::coll {

struct Restrictions {
  bool commutative_only = false;   // combines operands out of rank order
  bool power_of_two_only = false;  // needs p = 2^k
  bool intercomm = false;          // for intercommunicators (every other algorithm: intracommunicators)
  bool topology = false;           // a neighbourhood collective's: the communicator has a process topology
};

using AlgorithmFn = Task<void> (*)(Rank&, const CollArgs&);

// The same algorithm in the libraries a prediction is deployed to (model/coll/
// deploy.hpp writes their tuning files): MPICH 4.0's name for it in its collective
// selection JSON, Open MPI 4.1's number for it in the tuned component's dynamic
// rules (and the segment size that makes it this algorithm). Empty, 0: the library
// has no algorithm that is this one.
struct LibraryNames {
  std::string_view mpich;
  int ompi = 0;
  int ompi_segsize = 0;
};

struct Algorithm {
  Collective collective;
  std::string_view name;
  Restrictions restrictions;
  std::string_view description;
  AlgorithmFn run;
  LibraryNames library{};
};

std::span<const Algorithm> algorithms();
// The algorithm `name` for `c`, or null.
const Algorithm* find_algorithm(Collective c, std::string_view name);
// Why `alg` cannot run this call (empty if it can).
std::string ineligible(const Algorithm& alg, const CollArgs& a);
// The algorithm MPICH's default selection would use for this call (docs/collectives.md
// gives the thresholds); it is always eligible.
const Algorithm& auto_algorithm(const CollArgs& a);

}  // namespace mpisim::coll
