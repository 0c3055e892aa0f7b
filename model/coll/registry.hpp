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
// What MPICH's default selection looks at (docs/collectives.md gives the thresholds).
struct AutoInputs {
  Collective kind{};
  int p = 1;
  bool inter = false, commutative = true, in_place = false;
  std::int64_t recvcount = 0, sendcount = 0;
  std::int64_t recv_bytes = 0, send_bytes = 0;  // count × the type's size
  std::int64_t total_recv_bytes = 0;            // allgather(v), reduce_scatter(_block): the whole result
};
AutoInputs auto_inputs(const CollArgs& a);
// The algorithm MPICH's default selection would use for this call; it is always
// eligible.
const Algorithm& auto_algorithm(const CollArgs& a);
const Algorithm& auto_algorithm(const AutoInputs& in);

}  // namespace mpisim::coll
