#pragma once
// A scenario parsed and validated once into typed steps (docs/scenario-format.md).
// Execution (run.hpp) never reads JSON again.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/mpi/datatype.hpp"
#include "model/mpi/memory.hpp"
#include "model/calls/table.hpp"
#include "model/scenario/expr.hpp"

namespace mpisim::scenario {

// The call table is the library's (model/calls); a scenario names its rows.
using calls::blocking_form;
using calls::call_aliases;
using calls::call_specs;
using calls::CallId;
using calls::CallSpec;
using calls::find_call;
using calls::kCallIds;
using calls::Naming;
using calls::P;
using calls::param_name;
using calls::ParamKind;
using calls::ParamSpec;

using NameId = std::uint32_t;

// Names used by a scenario, interned so that per-rank state stores small ids.
class Names {
 public:
  // Ids of the names every expression may use, interned first (in this order).
  enum Builtin : NameId {
    rank, size, any_source, any_tag, proc_null, root, undefined, tag_ub,
    ident, congruent, similar, unequal, order_c, order_fortran, builtin_count
  };
  Names();
  NameId intern(const std::string& s);
  std::optional<NameId> find(std::string_view s) const;
  const std::string& str(NameId id) const { return *names_[id]; }

 private:
  std::vector<std::unique_ptr<std::string>> names_;  // stable addresses (Memory keeps pointers)
  std::map<std::string, NameId, std::less<>> ids_;
};

// A buffer argument: "name", "name+expr" (an offset in elements of the buffer's
// declared type, as C pointer arithmetic), MPI_IN_PLACE or MPI_BOTTOM.
struct BufferRef {
  enum Kind { named, in_place, bottom } kind = named;
  NameId name = 0;
  std::optional<Expr> offset;
  std::string text;
};

// The value of an MPI constant a scenario may name that is not a builtin
// (MPI_COMBINER_*, MPI_DISTRIBUTE_*), or nullopt.
std::optional<std::int64_t> mpi_constant(std::string_view name);

struct Arg {
  bool present = false;
  ParamKind kind = ParamKind::integer;
  std::optional<Expr> expr;            // integer, int_array (as an expression)
  BufferRef buffer;
  std::string handle;                  // datatype, comm
  mpi::TypeRef predefined;             // datatype: the predefined type named, if any
  enum CommKind : std::uint8_t { world, self, named } comm_kind = named;  // comm: which handle
  NameId name = 0;                     // out_*, request_*, status_*
  bool ignore = false;                 // MPI_STATUS(ES)_IGNORE
  std::vector<NameId> names;           // request_array
  std::array<NameId, 3> status_fields{};  // status_out: NAME.MPI_SOURCE, .MPI_TAG, .MPI_ERROR
  std::string text;                    // as written, for messages
};

struct Step;
using Program = std::vector<Step>;

struct Step {
  enum Kind { let, buffer, call, show, expect, compute, repeat };
  Kind kind = Kind::call;
  std::string path;                    // JSON pointer of the step, for messages
  std::string note;                    // "note": the author's comment (explain prints it)
  std::int32_t index = -1;             // its index in its step list
  std::optional<Expr> ranks;           // per-rank filter: the step runs where it is non-zero
  // let
  std::vector<std::pair<NameId, Expr>> lets;
  // buffer
  NameId name = 0;
  mpi::TypeRef type;
  std::string type_name;
  std::optional<Expr> count;
  std::optional<Expr> init;
  // call
  const CallSpec* spec = nullptr;
  std::vector<Arg> args;               // parallel to spec->params
  std::array<std::int8_t, static_cast<std::size_t>(P::count_)> slot{};  // P -> index in args, -1 if none
  std::string algorithm;
  std::int64_t segment = 0;            // "segment": bytes per segment of a pipelined algorithm
  std::int64_t radix = 0;              // "radix": the k of a k-nomial algorithm
  std::optional<NameId> return_name;  // "return": bound to the call's error code (MPI_SUCCESS or a class)
  // show
  std::vector<NameId> shown;
  std::vector<Expr> shape;             // show: the buffers as a grid of these dimensions (rows, columns)
  bool follow = false;                 // show: record the buffers after every call too (the viewer plays them)
  // expect
  std::vector<std::pair<NameId, Expr>> expect_values;
  std::optional<Expr> expect_true;
  std::optional<double> tolerance;     // "tolerance": buffers and values compare within it
  std::string message;
  // compute
  std::int64_t compute_ps = 0;
  // repeat
  std::optional<Expr> times;
  std::optional<NameId> loop_var;
  std::shared_ptr<Program> body;

  const Arg& arg(std::size_t i) const { return args[i]; }
};

struct Scenario {
  std::string file;                    // where it came from
  std::string name, about;
  std::string note;                    // "note": the author's comment on the whole scenario
  std::string source_json;             // the scenario as given, compact, for the trace
  std::optional<std::int64_t> ranks;
  // "ranks_fixed": why it runs only on its "ranks" (empty: on any count).
  std::string ranks_fixed;
  // "requires": a condition on size every run must meet, and why.
  std::string requires_condition, requires_reason;
  std::string network;                 // path as given, resolved against the file's folder
  std::optional<mpi::PayloadMode> payload;
  std::string progress;                // "async", "in-mpi", or empty (the default)
  std::map<std::string, std::string> algorithms;  // collective name -> algorithm
  // "limits": the scenario's own run limits (the command line's flags override them).
  std::uint64_t max_events = 0;
  std::string max_sim_time, max_memory;
  Program program;                     // SPMD
  std::map<std::int64_t, Program> per_rank;  // MPMD: a program for these ranks
  bool mpmd = false;
  std::shared_ptr<Names> names = std::make_shared<Names>();
  std::int32_t memo_slots = 0;         // expressions with a per-rank memo slot (Expr::memo_slot)
  std::vector<NameId> followed;        // buffers a show step follows ("follow": true), sorted

  const Program& program_for(std::int64_t rank) const;
};

// The step at a JSON pointer ("/program/3", "/program/2/program/0",
// "/program/*/1"), or null.
const Step* find_step(const Scenario& sc, std::string_view path);

// Parses and validates; throws sim::InputError naming the file, the JSON path and
// what was expected.
Scenario parse_scenario(const std::string& text, const std::string& file);
// A run of `sc` on `ranks` ranks is refused (sim::InputError, with the scenario's
// reason) when the scenario is fixed to another count or its "requires" fails.
void check_rank_count(const Scenario& sc, std::int64_t ranks);
Scenario load_scenario(const std::string& path);

}  // namespace mpisim::scenario
