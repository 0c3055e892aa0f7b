#pragma once
// The MPI call table: one row per call of the library, with the standard's
// parameters, their kinds, the section that defines the call, what it does and
// its C prototype. Every front-end and every list comes from it: the scenario
// parser's rows, `--list-calls`, docs/calls.md, the schema's list, `mpisim
// explain`, and mpi.h's prototypes (docs/architecture.md, "The call table").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mpisim::calls {

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
  pointer,        // an address only a C program has: argc, argv, attribute_val (no scenario gives one)
  info_in,        // an info object (C only: a scenario has none)
  info_out,       // where a new info object's handle goes (C only)
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
  argc, argv, required, provided, name, comm_keyval, attribute_val,
  value, valuelen, buflen, nkeys, newinfo, info_used,
  comm_copy_attr_fn, comm_delete_attr_fn, extra_state, type_copy_attr_fn, type_delete_attr_fn, type_keyval,
  comm_errhandler_fn, typeclass,
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
  init, init_thread, finalize, query_thread, is_thread_main, get_processor_name, comm_get_attr,
  get_library_version, status_set_elements,
  info_create, info_create_env, info_set, info_delete, info_get, info_get_valuelen, info_get_string, info_get_nkeys,
  info_get_nthkey, info_dup, info_free, comm_dup_with_info, comm_set_info, comm_get_info,
  comm_create_keyval, comm_free_keyval, comm_set_attr, comm_delete_attr, type_create_keyval, type_free_keyval,
  type_set_attr, type_get_attr, type_delete_attr,
  comm_create_errhandler, comm_call_errhandler, add_error_class, add_error_code, add_error_string,
  remove_error_class, remove_error_code, remove_error_string, status_set_cancelled,
  isendrecv, isendrecv_replace, request_get_status_any, request_get_status_all, request_get_status_some,
  type_match_size, comm_idup, comm_idup_with_info,
};
// How many calls there are: one past the last CallId (tables indexed by call).
inline constexpr std::size_t kCallIds = static_cast<std::size_t>(CallId::comm_idup_with_info) + 1;

// A call's row: the one description of it that --list-calls, docs/calls.md, the
// schema's list of calls, `mpisim explain` and the C binding (mpi.h's prototypes,
// generated at build time by mpisim_c_binding) come from; a test checks every part.
struct CallSpec {
  CallId id;
  const char* name;
  std::vector<ParamSpec> params;  // the standard's parameters, as a scenario names them
  const char* summary;     // one line for --list-calls
  const char* section;     // where the standard defines it: "MPI-4.1 §6.4"
  // What it does, in the standard's terms, with {parameter} where `mpisim
  // explain` puts the value the run gave.
  const char* definition;
  // The C binding: the parameter list of its prototype in mpi.h ("void" for none)
  // and what it returns.
  const char* c_params = nullptr;
  const char* c_result = "int";
  // Why a scenario cannot make this call (MPI_Init: a scenario's program runs
  // between MPI_Init and MPI_Finalize); null when it can.
  const char* c_only = nullptr;
  bool names_outputs = false;  // some output's naming is not plain
  const char* family = "";     // the group it is listed in: "point-to-point", ... (set by call_specs())
};

// Another name of a call: the MPI-1 names MPI-2 replaced (MPI_Type_hvector for
// MPI_Type_create_hvector), and the MPI_Count forms (MPI_Type_size_x), which a
// scenario may use for the call they stand for, and which C declares with their own
// parameter types.
struct CallAlias {
  const char* name;
  const char* stands_for;
  const char* c_params;
  const char* c_result = "int";
};
const std::vector<CallAlias>& call_aliases();

// A call's C parameters in its large-count form (MPI-4.1 §19.2: MPI_Bcast_c):
// each count (an int named ...count, an int array named ...counts) an MPI_Count,
// and each displacement array (...displs) an MPI_Aint. The same text when
// `c_params` has neither: such a call has no large-count form.
std::string large_count_params(std::string_view c_params);
// Whether a row is a collective in one of its three forms (the families
// "collectives", "nonblocking collectives", "persistent collectives").
bool collective_row(const CallSpec& c);

// Every call, in the table's order (families together: the environment and
// point-to-point, collectives, nonblocking and persistent collectives, groups and
// communicators, topologies, datatypes).
const std::vector<CallSpec>& call_specs();
// The blocking collective whose nonblocking form (MPI_Ibcast) or persistent form
// (MPI_Bcast_init) `id` is, if it is one; `persistent` tells which.
std::optional<CallId> blocking_form(CallId id, bool* persistent = nullptr);
const char* param_name(P p);
// What MPI_IN_PLACE means for a collective (in its blocking, nonblocking or
// persistent form), in the standard's terms: where it is given and what then
// stands in for the buffer; null for a call that takes no MPI_IN_PLACE.
const char* in_place_definition(CallId id);
// The row of a call by its name or an alias's; null if there is none.
const CallSpec* find_call(std::string_view name);
// Whether mpi.h declares a function of this name (a row's or an alias's, or its
// profiling name: PMPI_Send).
bool c_declares(std::string_view name);

}  // namespace mpisim::calls
