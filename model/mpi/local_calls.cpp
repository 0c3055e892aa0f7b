#include "model/mpi/local_calls.hpp"

#include <algorithm>
#include <string>

#include "model/mpi/constants.hpp"
#include "model/mpi/error.hpp"
#include "model/mpi/overlap.hpp"

namespace mpisim::mpi {

namespace {

const TypeRef& byte_type() {
  static const TypeRef byte = predefined_type("MPI_BYTE");
  return byte;
}

// The checks MPI_Pack and MPI_Unpack share: a committed type, a count, room in
// the packed buffer from position on.
std::int64_t packed_bytes(const TypeRef& type, std::int64_t count, std::int64_t position, std::int64_t limit,
                          bool packing) {
  if (!type->committed())
    throw MpiError(ErrorClass::type, "datatype", "datatype " + type->name() + " is not committed",
                   "MPI-4.1 §5.2: the datatype of MPI_Pack and MPI_Unpack must be committed");
  if (count < 0)
    throw MpiError(ErrorClass::count, packing ? "incount" : "outcount", "the count is negative",
                   "MPI-4.1 §3.2.2: counts are non-negative");
  const std::int64_t bytes = data_bytes(count, *type, packing ? "incount" : "outcount");
  if (position < 0 || position > limit || bytes > limit - position)
    throw MpiError(ErrorClass::truncate, packing ? "outsize" : "insize",
                   "position " + std::to_string(position) + " + " + std::to_string(bytes) +
                       " bytes is beyond the packed buffer's " + std::to_string(limit) + " bytes",
                   "MPI-4.1 §5.2: the packed data must fit in outsize (MPI_Pack) or insize (MPI_Unpack) bytes");
  return bytes;
}

}  // namespace

namespace {
// MPI_Pack and MPI_Unpack: the same checks, the copy one way or the other.
void pack_or_unpack(bool packing, Memory& mem, PayloadMode mode, Address packed, std::int64_t packed_size,
                    std::int64_t& position, Address data, std::int64_t count, const TypeRef& type) {
  const std::int64_t bytes = packed_bytes(type, count, position, packed_size, packing);
  TypedBuffer flat{&mem, packed + position, bytes, byte_type().get()};
  TypedBuffer typed{&mem, data, count, type.get()};
  check_access(flat, bytes, packing ? "outbuf" : "inbuf");
  check_access(typed, bytes, packing ? "inbuf" : "outbuf");
  const Region f{flat.addr, bytes, flat.type}, t{data, count, type.get()};
  if (auto o = find_overlap({&f, 1}, {&t, 1}))
    throw MpiError(ErrorClass::buffer, "outbuf",
                   "outbuf and inbuf both hold " + describe_bytes(mem, o->first, o->bytes) +
                       ": the output buffer overlaps the input buffer",
                   "MPI-4.1 §2.3: an OUT argument must not be aliased with any other argument");
  check_not_held(mem, f, packing, packing ? "outbuf" : "inbuf");
  check_not_held(mem, t, !packing, packing ? "inbuf" : "outbuf");
  if (mode == PayloadMode::data) {
    if (packing) copy_typed(typed, flat, bytes);
    else copy_typed(flat, typed, bytes);
  }
  position += bytes;
}
}  // namespace

void pack(Memory& mem, PayloadMode mode, Address inbuf, std::int64_t incount, const TypeRef& type, Address outbuf,
          std::int64_t outsize, std::int64_t& position) {
  pack_or_unpack(true, mem, mode, outbuf, outsize, position, inbuf, incount, type);
}

void unpack(Memory& mem, PayloadMode mode, Address inbuf, std::int64_t insize, std::int64_t& position, Address outbuf,
            std::int64_t outcount, const TypeRef& type) {
  pack_or_unpack(false, mem, mode, inbuf, insize, position, outbuf, outcount, type);
}

void reduce_local(Memory& mem, PayloadMode mode, Address inbuf, Address inoutbuf, std::int64_t count,
                  const TypeRef& type, const Op& op, std::int32_t rank) {
  if (count < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(count) + " is negative",
                   "MPI-4.1 §3.2.2: counts are non-negative");
  if (!type->committed())
    throw MpiError(ErrorClass::type, "datatype", "datatype " + type->name() + " is not committed",
                   "MPI-4.1 §5.1.9: a datatype must be committed before use");
  check_op_type(op, *type, count, "op");
  TypedBuffer in{&mem, inbuf, count, type.get()};
  TypedBuffer inout{&mem, inoutbuf, count, type.get()};
  const std::int64_t bytes = data_bytes(count, *type, "count");
  check_access(in, bytes, "inbuf");
  check_access(inout, bytes, "inoutbuf");
  const Region i{inbuf, count, type.get()}, io{inoutbuf, count, type.get()};
  if (auto o = find_overlap({&io, 1}, {&i, 1}))
    throw MpiError(ErrorClass::buffer, "inoutbuf",
                   "inoutbuf and inbuf both hold " + describe_bytes(mem, o->first, o->bytes) +
                       ": the result would overwrite operands not yet read",
                   "MPI-4.1 §2.3: an INOUT argument must not be aliased with any other argument");
  check_not_held(mem, i, false, "inbuf");
  check_not_held(mem, io, true, "inoutbuf");
  if (mode == PayloadMode::data) {
    reduce_local(op, in, inout);
    set_origin(inout, bytes, rank);  // computed here
  }
}

namespace {
// A C string into `room` MPI_CHAR at `at`, which must hold them all (the standard
// sizes the storage, not the text); returns the text's length.
int write_string(Memory& mem, PayloadMode mode, Address at, const std::string& text, int room, const char* argument,
                 const char* room_name, const char* rule) {
  const TypeRef chars = predefined_type("MPI_CHAR");
  const TypedBuffer out{&mem, at, room, chars.get()};
  try {
    check_access(out, room, argument);
  } catch (const MpiError& e) {
    throw MpiError(ErrorClass::buffer, argument,
                   std::string(argument) + " must hold " + room_name + " (" + std::to_string(room) +
                       ") characters: " + e.what(),
                   rule);
  }
  const std::string kept = text.substr(0, static_cast<std::size_t>(room - 1));
  if (mode == PayloadMode::data)
    unpack(reinterpret_cast<const std::byte*>(kept.c_str()), static_cast<std::int64_t>(kept.size()) + 1, out);
  return static_cast<int>(kept.size());
}
}  // namespace

int error_string(Memory& mem, PayloadMode mode, Address string, int code) {
  return write_string(mem, mode, string, error_string(code, "errorcode"), MAX_ERROR_STRING, "string",
                      "MPI_MAX_ERROR_STRING",
                      "MPI-4.1 §9.2: the argument string must represent storage at least MPI_MAX_ERROR_STRING "
                      "characters long");
}

int write_name(Memory& mem, PayloadMode mode, Address at, const std::string& name, const char* argument) {
  return write_string(mem, mode, at, name, MAX_OBJECT_NAME, argument, "MPI_MAX_OBJECT_NAME",
                      "MPI-4.1 §7.8: the name argument must represent storage at least MPI_MAX_OBJECT_NAME "
                      "characters long");
}

SplitType split_type_color(std::int64_t split_type, Info* info, std::uint32_t node, bool spans_nodes,
                           int comm_size, int comm_rank) {
  const auto resource = [&](std::string_view name) -> SplitType {
    if (name == "mpi_shared_memory") return {static_cast<int>(node), "mpi_shared_memory"};
    if (name == "core") return {comm_rank, "core"};
    return {UNDEFINED, ""};  // a resource this machine does not have: MPI_COMM_NULL
  };
  const auto key = [&](std::string_view k) { return info ? info->get(k) : std::nullopt; };
  switch (split_type) {
    case UNDEFINED: return {UNDEFINED, ""};
    case COMM_TYPE_SHARED: return {static_cast<int>(node), "mpi_shared_memory"};
    case COMM_TYPE_HW_GUIDED:
      if (const auto r = key("mpi_hw_resource_type")) return resource(*r);
      return {UNDEFINED, ""};
    case COMM_TYPE_RESOURCE_GUIDED:
      if (const auto r = key("mpi_hw_resource_type")) return resource(*r);
      if (const auto p = key("mpi_pset_name")) {
        if (*p == "mpi://WORLD") return {0, ""};
        if (*p == "mpi://SELF") return {comm_rank, ""};
      }
      return {UNDEFINED, ""};
    case COMM_TYPE_HW_UNGUIDED: {
      // MPI-4.1 §7.4.2: the call sets "mpi_hw_resource_type" in info to the resource it split by.
      const SplitType s = spans_nodes ? resource("mpi_shared_memory") : comm_size > 1 ? resource("core") : SplitType{UNDEFINED, ""};
      if (info && !s.resource.empty()) info->set("mpi_hw_resource_type", s.resource);
      return s;
    }
    default:
      throw MpiError(ErrorClass::arg, "split_type",
                     "split_type = " + std::to_string(split_type) +
                         " is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED, _RESOURCE_GUIDED or MPI_UNDEFINED",
                     "MPI-4.1 §7.4.2: MPI_Comm_split_type takes one of the split types the standard defines, "
                     "MPI_UNDEFINED or an implementation's own type (mpisim has none)");
  }
}

std::int64_t aint_add(std::int64_t base, std::int64_t disp) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(base, disp, &r))
    throw MpiError(ErrorClass::arg, "disp",
                   std::to_string(base) + " + " + std::to_string(disp) + " does not fit an MPI_Aint",
                   "MPI-4.1 §5.1.5: the sum of an address and a displacement is an address");
  return r;
}

std::int64_t aint_diff(std::int64_t addr1, std::int64_t addr2) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(addr1, addr2, &r))
    throw MpiError(ErrorClass::arg, "addr2",
                   std::to_string(addr1) + " - " + std::to_string(addr2) + " does not fit an MPI_Aint",
                   "MPI-4.1 §5.1.5: the difference of two addresses is a displacement");
  return r;
}

void check_not_cancelled(bool cancelled, const char* call) {
  if (cancelled)
    throw MpiError(ErrorClass::arg, "status",
                   std::string("the status is that of a cancelled operation (MPI_Test_cancelled gives 1): ") + call +
                       " has no count to read from it",
                   "MPI-4.1 §3.8.4: the status of a cancelled operation says only that it was cancelled; its other "
                   "fields, the count among them, are undefined");
}

std::int64_t get_count(std::int64_t bytes, const Datatype& type) {
  if (type.size() == 0) return bytes == 0 ? 0 : UNDEFINED;
  return bytes % type.size() != 0 ? UNDEFINED : bytes / type.size();
}

std::int64_t get_elements(std::int64_t bytes, const Datatype& type) {
  if (bytes == 0) return 0;
  if (type.size() == 0) return UNDEFINED;
  std::int64_t whole = bytes / type.size(), rest = bytes % type.size();
  std::int64_t n = whole * type.basic_count();
  for (const auto& r : type.signature()) {
    if (rest == 0) break;
    std::int64_t b = basic_type(r.basic).size;
    std::int64_t take = std::min(r.count, rest / b);
    n += take;
    rest -= take * b;
    if (take < r.count) break;
  }
  return rest == 0 ? n : UNDEFINED;
}

std::int64_t status_bytes_of_elements(std::int64_t count, const Datatype& type) {
  if (count < 0)
    throw MpiError(ErrorClass::count, "count", "count = " + std::to_string(count) + " is negative",
                   "MPI-4.1 §13.3: count is a number of basic elements");
  const std::int64_t per = type.basic_count();
  if (per == 0) return 0;
  std::int64_t bytes = count / per * type.size();
  std::int64_t left = count % per;
  for (const SignatureRun& run : type.signature()) {
    if (left == 0) break;
    const std::int64_t n = std::min<std::int64_t>(left, run.count);
    bytes += n * basic_type(run.basic).size;
    left -= n;
  }
  return bytes;
}

TypeRef match_size(std::int64_t typeclass, std::int64_t size) {
  const char* name = nullptr;
  switch (typeclass) {
    case TYPECLASS_REAL:
      name = size == 4 ? "MPI_REAL4" : size == 8 ? "MPI_REAL8" : size == 16 ? "MPI_LONG_DOUBLE" : nullptr;
      break;
    case TYPECLASS_INTEGER:
      name = size == 1   ? "MPI_INTEGER1"
             : size == 2 ? "MPI_INTEGER2"
             : size == 4 ? "MPI_INTEGER4"
             : size == 8 ? "MPI_INTEGER8"
                         : nullptr;
      break;
    case TYPECLASS_COMPLEX:
      name = size == 8    ? "MPI_COMPLEX8"
             : size == 16 ? "MPI_COMPLEX16"
             : size == 32 ? "MPI_C_LONG_DOUBLE_COMPLEX"
                          : nullptr;
      break;
    default:
      throw MpiError(ErrorClass::arg, "typeclass",
                     "typeclass = " + std::to_string(typeclass) +
                         " is none of MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_COMPLEX",
                     "MPI-4.1 §19.1.9: typeclass is MPI_TYPECLASS_REAL, MPI_TYPECLASS_INTEGER or MPI_TYPECLASS_COMPLEX");
  }
  if (name == nullptr)
    throw MpiError(ErrorClass::arg, "size",
                   "no predefined type of this class has elements of " + std::to_string(size) +
                       (size == 1 ? " byte" : " bytes"),
                   "MPI-4.1 §19.1.9: MPI_Type_match_size returns a predefined type of the class and size asked for");
  return predefined_type(name);
}

void check_type_free(const Datatype& type, const std::string& name) {
  if (type.predefined())
    throw MpiError(ErrorClass::type, "datatype", "predefined datatype " + name + " cannot be freed",
                   "MPI-4.1 §5.1.9: freeing a predefined datatype is erroneous");
}

void check_type_contents(const Datatype& type) {
  if (type.predefined())
    throw MpiError(ErrorClass::arg, "datatype", type.name() + " is a predefined datatype",
                   "MPI-4.1 §5.1.13: MPI_Type_get_contents is erroneous for MPI_COMBINER_NAMED");
}

Order order_argument(std::int64_t value, bool darray) {
  if (value == ORDER_C) return Order::c;
  if (value == ORDER_FORTRAN) return Order::fortran;
  throw MpiError(ErrorClass::arg, "order",
                 "order = " + std::to_string(value) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                 darray ? "MPI-4.1 §5.1.4: order is MPI_ORDER_C or MPI_ORDER_FORTRAN"
                        : "MPI-4.1 §5.1.3: order is MPI_ORDER_C or MPI_ORDER_FORTRAN");
}

Distribution distribution_argument(std::int64_t value, std::size_t i) {
  // MPICH's values of MPI_DISTRIBUTE_BLOCK, _CYCLIC and _NONE.
  if (value == 121) return Distribution::block;
  if (value == 122) return Distribution::cyclic;
  if (value == 123) return Distribution::none;
  throw MpiError(ErrorClass::arg, "array_of_distribs",
                 "array_of_distribs[" + std::to_string(i) + "] = " + std::to_string(value) +
                     " is not MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE",
                 "MPI-4.1 §5.1.4: the distribution of each dimension");
}

GroupRef remote_group(const Communicator& comm) {
  if (!comm.is_inter())
    throw MpiError(ErrorClass::comm, "comm", comm.name() + " is not an intercommunicator",
                   "MPI-4.1 §7.6.1: the remote group exists only for intercommunicators");
  return comm.remote_group();
}

void check_info(std::int64_t info) {
  if (info != INFO_NULL)
    throw MpiError(ErrorClass::info, "info", "info = " + std::to_string(info) + " is not MPI_INFO_NULL",
                   "MPI-4.1 §10: info is an info object or MPI_INFO_NULL; a scenario makes no info objects");
}

}  // namespace mpisim::mpi
