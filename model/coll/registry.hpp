#pragma once
// The registry of collective algorithms: one row per (collective, algorithm),
// restrictions as data. `mpisim --list-algorithms` prints it; selection reads it;
// the tests loop over it, so an algorithm is tested the moment it is registered.
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "model/coll/collective.hpp"

namespace mpisim::coll {

struct Restrictions {
  bool commutative_only = false;   // combines operands out of rank order
  bool power_of_two_only = false;  // needs p = 2^k
  bool intercomm = false;          // for intercommunicators (every other algorithm: intracommunicators)
  bool topology = false;           // a neighbourhood collective's: the communicator has a process topology
  bool two_only = false;           // needs p = 2
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
// An algorithm a run was told to use (--algorithm, a scenario step's "algorithm")
// that does not exist for the call or cannot run it: an error in how mpisim was
// asked to run, not in the MPI program, so no error handler returns it; the run
// stops with ALGORITHM_ERROR (docs/diagnostics.md).
class AlgorithmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The algorithm a run's table names for `call` (its own entry, else its
// collective's, so a nonblocking call falls back to its blocking form's): "" when
// none is named.
std::string_view named_algorithm(const std::map<std::string, std::string>& table, std::string_view call, Collective c);
// The algorithm `name` for `call` (a collective `c`); null for "" or "auto" (the
// default selection). AlgorithmError if there is none of that name.
const Algorithm* find_named_algorithm(Collective c, std::string_view name, std::string_view call);
// The algorithm that runs a call: `named` if not null (AlgorithmError if it
// cannot run this call), else the library's default (auto_algorithm).
const Algorithm& choose_algorithm(const Algorithm* named, const CollArgs& a, std::string_view call);

// The thresholds of MPICH 4.0's default selection (the selection tree its MPIR
// layer is built with, which MPICH 4.0 consults for every blocking collective), in
// bytes: auto_algorithm applies them and the tuning files (deploy.cpp) write them
// into MPICH's selection trees.
namespace mpich {
inline constexpr std::int64_t kBcastShort = 12288;        // binomial up to (avg_msg_size)
inline constexpr std::int64_t kBcastLong = 524288;        // scatter + recursive-doubling allgather up to
inline constexpr int kBcastMinProcs = 8;                  // binomial below this many ranks
inline constexpr std::int64_t kAllgatherShort = 81920;    // Bruck below (total_msg_size), other p
inline constexpr std::int64_t kAllgatherLong = 524288;    // recursive doubling below, power-of-two p
inline constexpr std::int64_t kAlltoallShort = 256;       // Bruck up to (avg_msg_size) ...
inline constexpr int kAlltoallMinProcs = 8;               // ... above this many ranks (MPICH's "comm_size<8", read as <=)
inline constexpr std::int64_t kAlltoallMedium = 32768;    // scattered (linear) up to
inline constexpr std::int64_t kReduceShort = 2048;        // MPI_Reduce: the binomial tree up to (avg_msg_size)
inline constexpr std::int64_t kAllreduceShort = 8;        // MPI_Allreduce: recursive doubling up to (avg_msg_size)
inline constexpr std::int64_t kReduceScatterLong = 524288;  // recursive halving below (total_msg_size), commutative
}  // namespace mpich

// What MPICH's default selection looks at (docs/collectives.md gives the thresholds).
struct AutoInputs {
  Collective kind{};
  int p = 1;
  bool inter = false, commutative = true, in_place = false;
  bool builtin_op = true;  // a predefined operation (MPICH's reduce-scatter based reductions take only those)
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
