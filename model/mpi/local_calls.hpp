#pragma once
// The library's local calls: the MPI calls that involve no other process, as
// typed functions that apply every rule of the standard (throwing MpiError with
// the argument and the rule) and then do the call. A front-end resolves its
// handles and evaluates its arguments; the rules are here.
#include <cstdint>
#include <string>

#include "model/mpi/comm.hpp"
#include "model/mpi/datatype.hpp"
#include "model/mpi/info.hpp"
#include "model/mpi/memory.hpp"
#include "model/mpi/op.hpp"
#include "model/mpi/type_constructors.hpp"

namespace mpisim::mpi {

// MPICH's values of MPI_ORDER_C and MPI_ORDER_FORTRAN.
inline constexpr std::int64_t ORDER_C = 56, ORDER_FORTRAN = 57;

// MPI_Pack (§5.2): incount elements of type at inbuf, appended to the packed
// buffer outbuf (outsize bytes) at position, which advances. Data moves in data
// mode only; the checks hold in both.
void pack(Memory& mem, PayloadMode mode, Address inbuf, std::int64_t incount, const TypeRef& type, Address outbuf,
          std::int64_t outsize, std::int64_t& position);
// MPI_Unpack (§5.2): outcount elements of type into outbuf, from the packed
// buffer inbuf (insize bytes) at position, which advances.
void unpack(Memory& mem, PayloadMode mode, Address inbuf, std::int64_t insize, std::int64_t& position, Address outbuf,
            std::int64_t outcount, const TypeRef& type);

// MPI_Reduce_local (§6.9.7): inoutbuf[i] = inbuf[i] op inoutbuf[i] over count
// elements of type; the result's bytes are `rank`'s (provenance).
void reduce_local(Memory& mem, PayloadMode mode, Address inbuf, Address inoutbuf, std::int64_t count,
                  const TypeRef& type, const Op& op, std::int32_t rank);

// MPI_Error_string (§9.2) into simulated memory: the text of `code` and a NUL
// into MPI_MAX_ERROR_STRING MPI_CHAR at `string` (written in data mode only);
// returns the text's length.
int error_string(Memory& mem, PayloadMode mode, Address string, int code);
// MPI_Comm_get_name, MPI_Type_get_name (§7.8): `name` and a NUL into
// MPI_MAX_OBJECT_NAME MPI_CHAR at `at` (the argument `argument`); returns its length.
int write_name(Memory& mem, PayloadMode mode, Address at, const std::string& name, const char* argument);

// MPI_Comm_split_type (§7.4.2): the color of the split at `caller` (a world rank)
// of `comm`, whose processes are on the nodes `node_of` gives, and the hardware
// resource the new communicator is an instance of ("" for none). The machine's
// resources: a node ("mpi_shared_memory": its processes share memory) and a core
// ("core": each process has its own).
//   MPI_COMM_TYPE_SHARED: the node. MPI_UNDEFINED: MPI_UNDEFINED.
//   MPI_COMM_TYPE_HW_GUIDED: the resource the info key "mpi_hw_resource_type"
//     names; MPI_UNDEFINED (MPI_COMM_NULL) without an info, without the key, or
//     for a resource this machine does not have.
//   MPI_COMM_TYPE_RESOURCE_GUIDED (MPI-4.1): the same, or else the process set
//     "mpi_pset_name" names ("mpi://WORLD": all of comm, "mpi://SELF": the caller).
//   MPI_COMM_TYPE_HW_UNGUIDED: the largest resource that splits comm into strict
//     subsets: nodes when comm spans several, else cores; MPI_UNDEFINED for a
//     comm of one process. The info (when given) then gets "mpi_hw_resource_type"
//     set to the resource, as the standard has the call tell it.
// Another type is MPI_ERR_ARG.
struct SplitType {
  int color;
  std::string resource;
};
template <typename NodeOf>
SplitType split_type_color(std::int64_t split_type, Info* info, const Communicator& comm, std::uint32_t caller,
                           NodeOf node_of) {
  bool spans_nodes = false;
  if (!comm.is_self()) {
    const GroupRef g = comm.group(caller);
    for (std::int64_t r = 1; r < g->size() && !spans_nodes; ++r)
      spans_nodes = node_of(static_cast<std::uint32_t>(g->world(r))) !=
                    node_of(static_cast<std::uint32_t>(g->world(0)));
  }
  return split_type_color(split_type, info, node_of(caller), spans_nodes, comm.size(),
                          static_cast<int>(comm.group(caller)->rank_of(caller)));
}
SplitType split_type_color(std::int64_t split_type, Info* info, std::uint32_t node, bool spans_nodes,
                           int comm_size, int comm_rank);

// MPI_Aint_add and MPI_Aint_diff (§5.1.5): address arithmetic; a result that does
// not fit an MPI_Aint is an MpiError (MPI_ERR_ARG).
std::int64_t aint_add(std::int64_t base, std::int64_t disp);
std::int64_t aint_diff(std::int64_t addr1, std::int64_t addr2);

// MPI_Get_count and MPI_Get_elements on the status of a cancelled operation: its
// count is undefined (§3.8.4), so reading it is an MpiError naming `call`.
void check_not_cancelled(bool cancelled, const char* call);
// MPI_Get_count (§3.2.5): whole elements of type in `bytes`, else MPI_UNDEFINED.
std::int64_t get_count(std::int64_t bytes, const Datatype& type);
// MPI_Get_elements (§5.1.11): basic elements of type in `bytes`, MPI_UNDEFINED
// when the bytes end inside one.
std::int64_t get_elements(std::int64_t bytes, const Datatype& type);

// MPI_Status_set_elements and _x (MPI-4.1 §13.3): the bytes a status reports so
// that MPI_Get_elements with `type` gives `count`: whole elements of type, then
// the first basic elements of its type map. A negative count is MPI_ERR_COUNT.
std::int64_t status_bytes_of_elements(std::int64_t count, const Datatype& type);

// MPI_Type_match_size (MPI-4.1 §19.1.9): the predefined type of class `typeclass`
// whose elements have `size` bytes (the Fortran sized types, as MPICH gives them;
// MPI_LONG_DOUBLE and MPI_C_LONG_DOUBLE_COMPLEX for 16 and 32 bytes); MPI_ERR_ARG
// for an unknown class or a size no type of it has.
TypeRef match_size(std::int64_t typeclass, std::int64_t size);

// MPI_Type_free (§5.1.9): a predefined datatype cannot be freed (`name` as the
// program named it).
void check_type_free(const Datatype& type, const std::string& name);
// MPI_Type_get_contents (§5.1.13): erroneous for a predefined datatype.
void check_type_contents(const Datatype& type);
// The order argument of MPI_Type_create_subarray (§5.1.3) or _darray (§5.1.4).
Order order_argument(std::int64_t value, bool darray);
// Entry i of array_of_distribs (§5.1.4).
Distribution distribution_argument(std::int64_t value, std::size_t i);

// MPI_Comm_remote_size / MPI_Comm_remote_group (§7.6.1): only an intercommunicator has one.
GroupRef remote_group(const Communicator& comm);
// An info argument where the caller has no info objects (a scenario names none):
// MPI_INFO_NULL only (MPI-4.1 §10). coll::Handles::check_info is the C binding's.
void check_info(std::int64_t info);

}  // namespace mpisim::mpi
