#pragma once
// Reduction operations (MPI-4.1 §6.9), as timeless values and functions.
//
// An operation combines elements pairwise: MPI_Reduce_local computes
// inoutbuf[i] = inbuf[i] op inoutbuf[i]. On a derived datatype it acts on the basic
// elements of the type map (MAXLOC/MINLOC on the pair types' (value, index) pairs).
// Which operation may act on which basic type is the table of §6.9.2; anything
// else is MPI_ERR_OP.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/mpi/datatype.hpp"
#include "model/mpi/memory.hpp"

namespace mpisim::mpi {

enum class OpKind : std::uint8_t { max, min, sum, prod, land, band, lor, bor, lxor, bxor, maxloc, minloc, replace, no_op, user };

class Datatype;

// A user function: combines `count` elements of `type`, packed contiguously.
using UserFunction = void (*)(const std::byte* in, std::byte* inout, std::int64_t count, const Datatype& type);

struct Op;
// A user function of a front-end (a C program's MPI_User_function): called with
// the op, whose `foreign_data` it reads, `count` elements of `type`, packed, and
// the rank whose reduction it is (the owner of the buffers; -1 when unknown), in
// whose context the function runs.
using ForeignFunction = void (*)(const Op& op, const std::byte* in, std::byte* inout, std::int64_t count,
                                 const Datatype& type, std::int64_t rank);

struct Op {
  std::string name;
  OpKind kind;
  bool commutative;
  UserFunction function = nullptr;  // for OpKind::user: one of mpisim's own, or
  std::string function_name;
  ForeignFunction foreign = nullptr;  // a front-end's, with its data
  const void* foreign_data = nullptr;
};
using OpRef = std::shared_ptr<const Op>;

// MPI_MAX, MPI_SUM, ... by name; null if unknown.
OpRef predefined_op(std::string_view name);
// The error of MPI_OP_NULL given where an operation is expected (MPI_ERR_OP).
[[noreturn]] void null_op(const char* argument);

// The user functions scenarios can pass to MPI_Op_create, by name (see
// docs/semantics.md): "matrix_product_2x2" (not commutative: each 4 MPI_INTs are a
// row-major 2x2 integer matrix, inout = in x inout) and "absolute_max"
// (commutative: the value of larger magnitude, on integer and floating types).
UserFunction user_function(std::string_view name);
OpRef make_user_op(std::string name, std::string_view function, bool commute);

// Throws MpiError(MPI_ERR_OP) if `op` may not act on every basic element of
// `count` elements of `type`.
void check_op_type(const Op& op, const Datatype& type, std::int64_t count, const char* argument);

// inout = in op inout over `count` elements of the buffers' type (both buffers
// have it); with `inout_first`, inout = inout op in (the order matters for
// operations that do not commute).
void reduce_local(const Op& op, const TypedBuffer& in, const TypedBuffer& inout, bool inout_first = false);
// Two combines at once, each reading what the other writes (the two partners of a
// recursive-doubling round): with x0 and y0 the buffers' contents before,
// x = x0 op y0 (x_first) or y0 op x0, and y = y0 op x0 (y_first) or x0 op y0.
// For predefined operations on dense, disjoint buffers of one datatype, in one
// pass; false (nothing done) otherwise.
bool reduce_pair(const Op& op, const TypedBuffer& x, bool x_first, const TypedBuffer& y, bool y_first);
// out = in op base (or base op in, with base_first) over `count` elements of the
// buffers' type, base left as it is: a copy of base to out and a reduce_local,
// in one pass through the cache for predefined operations on dense buffers.
void reduce_into(const Op& op, const TypedBuffer& in, const TypedBuffer& base, const TypedBuffer& out,
                 bool base_first = false);
// inout = in op inout on packed data: `count` elements of `type`, contiguous; a
// user function runs for `rank` (ForeignFunction).
void reduce_packed(const Op& op, const Datatype& type, std::int64_t count, const std::byte* in, std::byte* inout,
                   std::int64_t rank = -1);

}  // namespace mpisim::mpi
