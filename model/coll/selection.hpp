#pragma once
// A collective selection read from a library's tuning file, so that a run or a
// prediction selects algorithms as MPICH or Open MPI would with that file loaded
// (`mpisim run --selection FILE`, `mpisim cost --selection FILE`; docs/cost.md,
// "Reading a tuning file back"). The files `mpisim cost --mpich-tuning` and
// `--ompi-rules` write (deploy.hpp) read back to what was predicted.
//
//   MPICH 4.0's collective selection JSON (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE):
//     a tree of conditions evaluated as MPICH's csel evaluates it, key by key in
//     the file's order, down to an "algorithm=MPIR_..." leaf.
//   Open MPI 4.1's tuned dynamic rules (coll_tuned_dynamic_rules_filename): per
//     collective, the last communicator-size rule at or below the size (else the
//     first), within it the last message-size rule at or below the call's size;
//     algorithm 0 leaves the call to the fixed decisions.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "model/coll/registry.hpp"

namespace mpisim::coll {

// What the libraries' selections look at in a call, measured as each measures it.
struct CallFacts {
  Collective kind{};
  bool nonblocking = false;  // nonblocking or persistent
  bool inter = false;
  int p = 1;
  bool commutative = true, builtin_op = true, in_place = false;
  bool block_regular = true;        // reduce-scatter: every block the same count
  std::int64_t count = 0;           // MPICH's "count"; Open MPI's for bcast and the reductions
  std::int64_t type_size = 1;       // the bcast's and the reductions' datatype size
  std::int64_t avg_msg_size = 0;    // MPICH's "avg_msg_size"
  std::int64_t total_msg_size = 0;  // MPICH's "total_msg_size"
  std::int64_t ompi_size = 0;       // the message size Open MPI's dynamic rules compare
};
CallFacts call_facts(const CollArgs& a);
// The call `mpisim cost` times: on p ranks, `bytes` as its --bytes means them.
CallFacts cost_facts(Collective c, std::uint64_t p, std::uint64_t bytes);

// Where a communicator's members are, as MPICH's hierarchy conditions see it.
struct NodeFacts {
  int nodes = 1;
  bool parent = false;       // some node holds two or more members (MPICH: hierarchy kind "parent")
  bool one_node = false;     // all members on one node, of more than one member (comm_size=node_comm_size)
  bool consecutive = true;   // each node's members are consecutive ranks
};
// From each member's node (any numbering), by rank.
NodeFacts node_facts(std::span<const int> node_by_rank);

class Selection {
 public:
  enum class Library { mpich, ompi };

  // Reads and checks the file (its format told by its first character: '{' is
  // MPICH's JSON). sim::InputError names the file, the place in it and what was
  // expected.
  static std::shared_ptr<const Selection> load(const std::string& path);
  static std::shared_ptr<const Selection> parse(const std::string& text, const std::string& path);

  Library library() const { return library_; }
  const std::string& path() const { return path_; }
  // Whether a condition of the file looks at the nodes (NodeFacts are needed).
  bool uses_nodes() const { return uses_nodes_; }

  struct Pick {
    bool decided = false;                  // false: the file leaves the call to mpisim's default selection
    const Algorithm* algorithm = nullptr;  // decided, null: mpisim has no equivalent of what the file picks
    std::int64_t segment_bytes = 0;        // the segment size the file gives (Open MPI), 0: none
    std::string name;                      // the library's name of what the file picks
    std::string rule;                      // where in the file: a JSON pointer, or "line N"
  };
  // What the file picks for a call. sim::InputError when the file does not
  // decide a collective it names (an MPICH tree no key of which matches).
  Pick pick(const CallFacts& call, const NodeFacts& nodes) const;

  // For a run: the algorithm the file picks for the call (null: the default
  // selection's), its segment size written into `a` when the call names none.
  // AlgorithmError when mpisim has no equivalent, or it cannot run the call.
  // The caller is the calling process's world rank (the nodes of the members are
  // read from the world's placement, once per communicator, when the file looks
  // at them).
  const Algorithm* choose(CollArgs& a, std::string_view call, mpi::World& world, std::uint32_t caller) const;

  struct Impl;
  ~Selection();
  Selection(Library library, std::string path, std::unique_ptr<Impl> impl, bool uses_nodes);

 private:
  Library library_;
  std::string path_;
  std::unique_ptr<Impl> impl_;
  bool uses_nodes_ = false;
};

}  // namespace mpisim::coll
