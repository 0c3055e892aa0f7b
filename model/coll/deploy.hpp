#pragma once
// From a prediction to a deployment: the tuning files that make MPICH and Open MPI
// use the algorithm `mpisim cost` predicts fastest, per communicator size and
// message size (docs/cost.md, "Deploying the choice").
//
//   MPICH 4.0: the collective selection JSON it loads from
//     MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE. MPICH then selects every
//     collective from the file, so the file holds all of them: the swept one as
//     predicted, every other one (blocking, nonblocking, neighbourhood, inter) as
//     MPICH's default selection picks it.
//   Open MPI 4.1: the dynamic rules of its tuned component
//     (coll_tuned_use_dynamic_rules 1, coll_tuned_dynamic_rules_filename FILE),
//     which hold the swept collective only; the others keep the fixed decisions.
//
// At each point the choice is the fastest algorithm the library has an equivalent
// of (Algorithm::library); between two measured sizes the boundary lies at the
// bisected crossover of the two choices when the sweep has it (Sweep::switches),
// else at the sizes' geometric mean; between two rank counts, at their geometric
// mean.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/coll/registry.hpp"

namespace mpisim::coll {

struct SweepPoint {
  std::uint64_t ranks = 0, bytes = 0;  // bytes as `mpisim cost --bytes` means them
  std::vector<std::int64_t> time_ps;   // per algorithm of the sweep; -1: cannot run here
};

// Where, at `ranks`, algorithm `to` becomes faster than `from` between two swept
// sizes: from `bytes` on (bisected by the sweep).
struct Switch {
  std::uint64_t ranks = 0, bytes = 0;
  const Algorithm *from = nullptr, *to = nullptr;
};

struct Sweep {
  Collective collective{};
  std::vector<const Algorithm*> algorithms;
  std::vector<SweepPoint> points;  // rank counts ascending, sizes ascending within each
  // The crossovers the sweep bisected; a file switches there between two sizes
  // whose choices they join, else at the two sizes' geometric mean.
  std::vector<Switch> switches;
};

struct Choice {
  std::uint64_t ranks = 0, bytes = 0;
  const Algorithm* algorithm = nullptr;  // the fastest with an equivalent in the library
  bool fastest = true;                   // false: a faster one has none there
};

struct TuningFile {
  std::string text;
  std::vector<Choice> choices;  // one per point of the sweep
};

// What Open MPI 4.1's tuned component picks by default (its fixed decision rules;
// coll/basic's linear chain for MPI_Scan and MPI_Exscan, which they leave out) for
// a call on p ranks of `bytes` as `mpisim cost` means them (reductions of doubles
// with MPI_SUM). `algorithm` is mpisim's equivalent of what runs (the fallback,
// where Open MPI's algorithm falls back by itself at this p), or null when mpisim
// has none; `name` is Open MPI's name of what runs. False
// for the collectives the tuned component does not decide (the v and w forms
// but MPI_Allgatherv and MPI_Alltoallv, the neighbourhood collectives).
struct LibraryDefault {
  std::string name;
  std::string note;  // why the algorithm that runs is not the rules' choice ("recursive_doubling falls back: ...")
  const Algorithm* algorithm = nullptr;
};
// `count`: the call's count where it is not what `bytes` makes it (an MPI_Bcast of
// one derived datatype holding `bytes`); -1: as mpisim cost calls it.
bool ompi_default(Collective c, std::uint64_t p, std::uint64_t bytes, LibraryDefault* out, std::int64_t count = -1);

// Open MPI 4.1's number of collective c in its rules files (its COLLTYPE), and
// the collective of a number (false for one out of range).
int ompi_collective_id(Collective c);
bool ompi_collective_of(long id, Collective* out);
// Open MPI's name of its algorithm `number` (from 1) of c in the tuned component;
// empty where it has none of that number (or the component decides nothing for c).
std::string_view ompi_algorithm_name(Collective c, long number);
// What Open MPI runs when it runs its algorithm `number` of c with (faninout,
// segsize), as a rules file gives them (the fixed decisions give 0, 0), on p
// processes, `count` elements of `type_size` bytes: the algorithm its own checks
// fall back to (its ring allreduce of fewer elements than p is recursive
// doubling, ...), segments where it cuts the buffer in more than one, and
// mpisim's equivalent, null where mpisim has none (`note` says why: a segment
// size, several chains).
struct OmpiRun {
  const Algorithm* algorithm = nullptr;
  std::string name;               // Open MPI's name of what runs
  std::string note;               // "recursive_doubling falls back: ...", "segments of 1024 bytes", ...
  std::int64_t segment_bytes = 0;  // the segment size of mpisim's segmented equivalent
};
OmpiRun ompi_run(Collective c, long number, long faninout, std::int64_t segsize, std::uint64_t p, std::int64_t count,
                 std::int64_t type_size, bool commutative);

// mpisim's equivalent of Open MPI's algorithm `number` of c run in segments of
// `segsize` bytes (0: unsegmented), or null. Unsegmented, its pipeline bcast and
// reduce are its chain.
const Algorithm* ompi_equivalent(Collective c, long number, std::int64_t segsize);

// Throws sim::InputError when the library cannot take the choice: a collective
// its rules do not cover, or a point where no timed algorithm has an equivalent.
TuningFile mpich_tuning_file(const Sweep& sweep);
TuningFile ompi_rules_file(const Sweep& sweep);

}  // namespace mpisim::coll
