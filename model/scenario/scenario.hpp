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
#include "model/scenario/expr.hpp"

namespace mpisim::scenario {

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

// The kinds of parameter a call can take.
enum class ParamKind {
  integer,        // an expression: count, dest, tag, root, ...
  int_array,      // an expression giving an array, or a JSON array: sendcounts, displs
  buffer,         // a BufferRef
  datatype,       // a datatype handle name
  comm,           // a communicator handle name: MPI_COMM_WORLD, MPI_COMM_SELF or one the program made
  comm_out,       // a name to bind a new communicator to
  comm_inout,     // a communicator handle name that the call sets to MPI_COMM_NULL (MPI_Comm_free)
  datatype_out,   // a name to bind a new datatype to
  datatype_inout, // a datatype name the call changes (commit) or sets to MPI_DATATYPE_NULL (free)
  type_array,     // a JSON array of datatype names (MPI_LB and MPI_UB allowed)
  int_inout,      // the name of an integer value the call reads and updates (position)
  op_in,          // an operation: MPI_SUM, ... or the name of one the program made
  op_out,         // a name to bind a new operation to
  op_inout,       // an operation name the call sets to MPI_OP_NULL (MPI_Op_free)
  function_name,  // the name of a user function mpisim provides (MPI_Op_create)
  out_int,        // a name to bind an integer result to: rank, size, count, flag, index
  request_out,    // a name to bind a new request to
  request_in,     // the name of a request
  request_array,  // a JSON array of request names
  status_out,     // a name to bind a status to, or MPI_STATUS_IGNORE
  statuses_out,   // a name prefix for an array of statuses, or MPI_STATUSES_IGNORE
  status_in,      // the name of a bound status
  group_in,       // a group handle name, or MPI_GROUP_EMPTY
  group_out,      // a name to bind a new group to
  group_inout,    // a group handle name that the call sets to MPI_GROUP_NULL (MPI_Group_free)
  array_out,      // a name to bind an integer array to (ranks2)
  array_inout,    // the name of an integer array the call reads and updates (MPI_Dims_create's dims)
  message_out,    // a name to bind a matched message to (MPI_Mprobe)
  message_inout,  // the name of a matched message, which the call sets to MPI_MESSAGE_NULL (MPI_Mrecv)
  ranges,         // (first, last, stride) triplets: a JSON array of 3-element arrays, or a flat array expression
  text,           // a JSON string: a data representation ("external32"), an object's name
};

// Every parameter name a call can have; a step finds its arguments by these in O(1).
enum class P : std::uint8_t {
  array_of_requests, array_of_statuses, buf, comm, count, datatype, dest, displs, flag, index, rank, recvbuf, recvcount, recvtag, recvtype, request, result, root, sendbuf, sendcount, sendcounts, sendtag, sendtype, size, source, status, tag,
  group, group1, group2, newgroup, n, ranks, ranks1, ranks2, ranges,
  newcomm, color, key, comm1, comm2, local_comm, local_leader, peer_comm, remote_leader, newintercomm, intercomm,
  high, newintracomm,
  oldtype, newtype, blocklength, stride, array_of_blocklengths, array_of_displacements, array_of_types, ndims,
  array_of_sizes, array_of_subsizes, array_of_starts, order, lb, extent, true_lb, true_extent, displacement,
  location, address, inbuf, incount, outbuf, outsize, position, insize, outcount,
  user_fn, commute, op, inoutbuf,
  array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes, num_integers, num_addresses, num_datatypes,
  combiner, max_integers, max_addresses, max_datatypes, array_of_integers, array_of_addresses, array_of_datatypes,
  buffer, recvcounts, sdispls, rdispls, sendtypes, recvtypes,
  array_of_indices, info, buffer_addr, version, subversion, base, disp, addr1, addr2, split_type,
  message, dims, periods, reorder, comm_cart, coords, maxdims, direction, rank_source, rank_dest, remain_dims, nnodes, edges, comm_graph, nneighbors, maxneighbors, neighbors, nedges, maxindex, maxedges, indegree, outdegree, sources, sourceweights, destinations, destweights, degrees, weights, comm_dist_graph, weighted, maxindegree, maxoutdegree, newrank, comm_old, errorcode,
  errhandler, errorclass, string, resultlen, datarep, comm_name, type_name, local_group, remote_group, stringtag,
  count_
};

// The MPI constants an output's value may stand for, so that it prints as their
// names (MPI_UNDEFINED for a rank, count or index; MPI_PROC_NULL for a neighbour;
// MPI_IDENT ... MPI_UNEQUAL for a comparison; ...), not as -32766.
enum class Naming : std::uint8_t { plain, undefined, undefined_or_proc_null, proc_null, comparison, topology, errhandler, error_class };

struct ParamSpec {
  P id;
  const char* name;
  ParamKind kind;
  bool required;  // required everywhere (root-only parameters are checked at run time)
  Naming naming = Naming::plain;  // outputs: set by call_specs() from the call and the name
};

enum class CallId {
  comm_rank, comm_size, wtime,
  send, recv, isend, irecv, wait, waitall, waitany, test,
  sendrecv, sendrecv_replace, probe, iprobe, get_count,
  barrier, bcast, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall, alltoallv, alltoallw,
  reduce, allreduce, reduce_scatter_block, reduce_scatter, scan, exscan,
  comm_group, group_size, group_rank, group_translate_ranks, group_compare, group_union, group_intersection,
  group_difference, group_incl, group_excl, group_range_incl, group_range_excl, group_free,
  comm_dup, comm_split, comm_create, comm_create_group, comm_compare, comm_free, intercomm_create, intercomm_merge,
  comm_remote_size, comm_remote_group, comm_test_inter,
  type_contiguous, type_vector, type_hvector, type_indexed, type_hindexed, type_indexed_block, type_hindexed_block,
  type_struct, type_subarray, type_resized, type_dup, type_commit, type_free, type_size, type_get_extent,
  type_get_true_extent, type_extent, type_lb, type_ub, get_address, pack, unpack, pack_size, get_elements,
  op_create, op_free, op_commutative, reduce_local,
  type_darray, type_get_envelope, type_get_contents,
  ibarrier, ibcast, igather, igatherv, iscatter, iscatterv, iallgather, iallgatherv, ialltoall, ialltoallv, ialltoallw,
  ireduce, iallreduce, ireduce_scatter_block, ireduce_scatter, iscan, iexscan,
  waitsome, testall, testany, testsome, request_free, start, startall,
  barrier_init, bcast_init, gather_init, gatherv_init, scatter_init, scatterv_init, allgather_init, allgatherv_init,
  alltoall_init, alltoallv_init, alltoallw_init, reduce_init, allreduce_init, reduce_scatter_block_init,
  reduce_scatter_init, scan_init, exscan_init,
  ssend, issend, bsend, ibsend, rsend, irsend, buffer_attach, buffer_detach,
  wtick, get_version, initialized, finalized, request_get_status, aint_add, aint_diff, comm_split_type,
  send_init, ssend_init, bsend_init, rsend_init, recv_init, cancel, test_cancelled, mprobe, improbe, mrecv, imrecv,
  dims_create, cart_create, cart_sub, cart_map, cart_get, cartdim_get, cart_rank, cart_coords, cart_shift, graph_create, graph_map, graphdims_get, graph_get, graph_neighbors_count, graph_neighbors, dist_graph_create, dist_graph_create_adjacent, dist_graph_neighbors_count, dist_graph_neighbors, topo_test,
  neighbor_allgather, neighbor_allgatherv, neighbor_alltoall, neighbor_alltoallv, neighbor_alltoallw, ineighbor_allgather, ineighbor_allgatherv, ineighbor_alltoall, ineighbor_alltoallv, ineighbor_alltoallw, neighbor_allgather_init, neighbor_allgatherv_init, neighbor_alltoall_init, neighbor_alltoallv_init, neighbor_alltoallw_init,
  abort, comm_set_errhandler, comm_get_errhandler, errhandler_free, error_class, error_string,
  pack_external, unpack_external, pack_external_size, comm_set_name, comm_get_name, type_set_name, type_get_name,
  intercomm_create_from_groups,
};
// How many calls there are: one past the last CallId (tables indexed by call).
inline constexpr std::size_t kCallIds = static_cast<std::size_t>(CallId::intercomm_create_from_groups) + 1;

// The value of an MPI constant a scenario may name that is not a builtin
// (MPI_COMBINER_*, MPI_DISTRIBUTE_*), or nullopt.
std::optional<std::int64_t> mpi_constant(std::string_view name);

// A call's row: the one description of it that --list-calls, docs/calls.md, the
// schema's list of calls and `mpisim explain` come from (a test checks every part).
struct CallSpec {
  CallId id;
  const char* name;
  std::vector<ParamSpec> params;
  const char* summary;     // one line for --list-calls
  const char* section;     // where the standard defines it: "MPI-4.1 §6.4"
  // What it does, in the standard's terms, with {parameter} where `mpisim
  // explain` puts the value the run gave.
  const char* definition;
  bool names_outputs = false;  // some output's naming is not plain
};
// The MPI-1 names a scenario may use for calls MPI-2 renamed (MPI_Type_hvector:
// MPI_Type_create_hvector, ...), with the names they stand for.
const std::vector<std::pair<std::string_view, std::string_view>>& call_aliases();

const std::vector<CallSpec>& call_specs();
// The blocking collective whose nonblocking form (MPI_Ibcast) or persistent form
// (MPI_Bcast_init) `id` is, if it is one; `persistent` tells which.
std::optional<CallId> blocking_form(CallId id, bool* persistent = nullptr);
const char* param_name(P p);
const CallSpec* find_call(std::string_view name);

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

// Parses and validates; throws sim::InputError naming the file, the JSON path and
// what was expected.
Scenario parse_scenario(const std::string& text, const std::string& file);
// A run of `sc` on `ranks` ranks is refused (sim::InputError, with the scenario's
// reason) when the scenario is fixed to another count or its "requires" fails.
void check_rank_count(const Scenario& sc, std::int64_t ranks);
Scenario load_scenario(const std::string& path);

}  // namespace mpisim::scenario
