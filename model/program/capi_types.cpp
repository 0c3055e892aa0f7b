// The C entry points of mpi.h: datatypes (capi.cpp has the
// environment, communicators and point-to-point).
#include "model/mpi/external32.hpp"
#include "model/program/capi_support.hpp"

using namespace mpisim;
using program::capi::call;
using program::capi::Ctx;
using program::capi::Param;
namespace capi = program::capi;
using mpi::Request;
using sim::SimTime;
namespace coll = mpisim::coll;

extern "C" {

// ---- datatypes
int MPI_Type_size(MPI_Datatype datatype, int* size) {
  return call(__builtin_return_address(0), "MPI_Type_size", [&](Ctx& x) {
    capi::need(size, "size");
    const auto s = capi::type_of(x.c, datatype, "datatype")->size();
    *size = s > INT32_MAX ? MPI_UNDEFINED : static_cast<int>(s);
  });
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  return call(__builtin_return_address(0), "MPI_Type_get_extent", [&](Ctx& x) {
    capi::need(lb, "lb");
    capi::need(extent, "extent");
    auto t = capi::type_of(x.c, datatype, "datatype");
    *lb = t->lb();
    *extent = t->extent();
  });
}


int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_contiguous", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_contiguous(count, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_vector", [&](Ctx& x) {
    capi::new_type(x, newtype,
                      mpi::type_vector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_commit", [&](Ctx& x) {
    capi::need(datatype, "datatype");
    capi::type_of(x.c, *datatype, "datatype")->commit();
  });
}

int MPI_Type_free(MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_free", [&](Ctx& x) {
    capi::need(datatype, "datatype");
    auto t = capi::type_of(x.c, *datatype, "datatype");
    mpi::check_type_free(*t, "datatype");
    x.c.handles.attributes().erase_all(mpi::AttrObject::datatype, *datatype);  // the delete callbacks (§7.7.4)
    x.c.handles.free_type(*datatype);  // and its name: the slot's next type starts unnamed
    *datatype = MPI_DATATYPE_NULL;
  });
}

}  // extern "C"

namespace mpisim::program::capi {
namespace {

template <typename T>
std::vector<std::int64_t> array_of(const T* a, std::int64_t n, const char* argument) {
  if (n < 0)
    throw mpi::MpiError(mpi::ErrorClass::count, "count", "count = " + std::to_string(n) + " is negative",
                        "MPI-4.1 §5.1.2: count is a nonnegative number of blocks");
  if (n > 0) need(a, argument);
  return std::vector<std::int64_t>(a, a + n);
}

// The array_of_types of a struct type: datatypes, and the MPI-1 markers MPI_LB and
// MPI_UB (removed by MPI-3.0; MPICH's mpi.h still has them), which only a struct takes.
std::vector<mpi::TypeRef> types_of(const CRank& c, const MPI_Datatype* a, std::int64_t n, const char* argument) {
  if (n > 0) need(a, argument);
  static const mpi::TypeRef lb = mpi::Datatype::make_marker(true), ub = mpi::Datatype::make_marker(false);
  std::vector<mpi::TypeRef> out;
  for (int i = 0; i < n; ++i) out.push_back(a[i] == MPI_LB ? lb : a[i] == MPI_UB ? ub : type_of(c, a[i], argument));
  return out;
}

mpi::GroupRef group_of(const CRank& c, MPI_Group h, const char* argument) {
  if (h == MPI_GROUP_EMPTY) return mpi::Group::empty();
  return c.handles.group(h, argument);
}

void new_group(CRank& c, MPI_Group* out, mpi::GroupRef g) {
  need(out, "newgroup");
  if (g->size() == 0) {
    *out = MPI_GROUP_EMPTY;
    return;
  }
  *out = c.handles.add_group(std::move(g));
}

// The handle a user function is given for `type`: a predefined type's, else the
// handle of the rank it runs for (ProgramRun::Acting), else any rank's (one the
// rank has freed while its operation runs), else MPI_DATATYPE_NULL.
MPI_Datatype handle_of(const mpi::Datatype& type) {
  for (const TypeName& t : kTypes)
    if (mpi::predefined_type(t.name).get() == &type) return t.handle;
  ProgramRun& run = *g_run;
  auto find = [&](const CRank& c) {
    const int h = c.handles.handle_of(type);
    return h != 0 ? h : MPI_DATATYPE_NULL;
  };
  if (MPI_Datatype h = find(run.current()); h != MPI_DATATYPE_NULL) return h;
  for (const CRank& c : run.ranks())
    if (MPI_Datatype h = find(c); h != MPI_DATATYPE_NULL) return h;
  return MPI_DATATYPE_NULL;
}

// A C program's MPI_User_function on `count` elements of `type`, packed: called
// on them laid out as the type says (its extent apart, holes and all).
// MPI_User_function takes an int count, MPI_User_function_c (MPI_Op_create_c) an
// MPI_Count.
template <typename Function, typename Count>
void call_user(const mpi::Op& op, const std::byte* in, std::byte* inout, std::int64_t count, const mpi::Datatype& type,
               std::int64_t rank) {
  auto* fn = reinterpret_cast<Function*>(const_cast<void*>(op.foreign_data));
  // The function runs as part of `rank`'s process: its globals, its handles.
  ProgramRun& run = *g_run;
  ProgramRun::Acting acting(run, rank < 0 ? run.current_rank() : static_cast<std::uint32_t>(rank));
  MPI_Datatype handle = handle_of(type);
  Count n = static_cast<Count>(count);
  if (type.dense() && type.lb() == 0) {
    fn(const_cast<std::byte*>(in), inout, &n, &handle);
    return;
  }
  static const mpi::TypeRef bytes = mpi::predefined_type("MPI_BYTE");
  const std::int64_t size = count * type.size(), span = count * type.extent();
  std::vector<std::byte> a(static_cast<std::size_t>(span)), b(static_cast<std::size_t>(span));
  auto laid_out = [&](std::vector<std::byte>& v) {
    return mpi::TypedBuffer{nullptr, reinterpret_cast<mpi::Address>(v.data()) - type.lb(), count, &type};
  };
  auto packed = [&](const std::byte* p) {
    return mpi::TypedBuffer{nullptr, reinterpret_cast<mpi::Address>(p), size, bytes.get()};
  };
  mpi::copy_typed(packed(in), laid_out(a), size);
  mpi::copy_typed(packed(inout), laid_out(b), size);
  fn(a.data(), b.data(), &n, &handle);
  mpi::copy_typed(laid_out(b), packed(inout), size);
}
void call_user_function(const mpi::Op& op, const std::byte* in, std::byte* inout, std::int64_t count,
                        const mpi::Datatype& type, std::int64_t rank) {
  call_user<MPI_User_function, int>(op, in, inout, count, type, rank);
}
void call_user_function_c(const mpi::Op& op, const std::byte* in, std::byte* inout, std::int64_t count,
                          const mpi::Datatype& type, std::int64_t rank) {
  call_user<MPI_User_function_c, MPI_Count>(op, in, inout, count, type, rank);
}

std::vector<mpi::RankRange> ranges_of(int n, const int ranges[][3]) {
  if (n < 0)
    throw mpi::MpiError(mpi::ErrorClass::arg, "n", "n = " + std::to_string(n) + " is negative",
                        "MPI-4.1 §7.3.2: n is the number of (first, last, stride) triplets");
  if (n > 0) capi::need(ranges, "ranges");
  std::vector<mpi::RankRange> out;
  for (int i = 0; i < n; ++i) out.push_back({ranges[i][0], ranges[i][1], ranges[i][2]});
  return out;
}

// MPI_Type_indexed and MPI_Type_create_hindexed (`bytes`: displacements in
// bytes), in their int and MPI_Count forms.
template <typename N, typename B, typename D>
int indexed(const void* site, const char* name, bool bytes, N count, const B* blocklengths, const D* displacements,
            MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(site, name, [&](Ctx& x) {
    auto lengths = array_of(blocklengths, count, "array_of_blocklengths");
    auto displs = array_of(displacements, count, "array_of_displacements");
    auto old = type_of(x.c, oldtype, "oldtype");
    new_type(x, newtype, bytes ? mpi::type_hindexed(lengths, displs, old) : mpi::type_indexed(lengths, displs, old));
  });
}
// MPI_Type_create_indexed_block and _hindexed_block, in both forms.
template <typename N, typename D>
int indexed_block(const void* site, const char* name, bool bytes, N count, N blocklength, const D* displacements,
                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(site, name, [&](Ctx& x) {
    auto displs = array_of(displacements, count, "array_of_displacements");
    auto old = type_of(x.c, oldtype, "oldtype");
    new_type(x, newtype, bytes ? mpi::type_hindexed_block(blocklength, displs, old)
                               : mpi::type_indexed_block(blocklength, displs, old));
  });
}
}  // namespace
}  // namespace mpisim::program::capi

extern "C" {

// ---- user-defined operations
}  // extern "C"

namespace {
int op_create(const void* site, const char* name, const void* user_fn, mpi::ForeignFunction caller, int commute,
              MPI_Op* op) {
  return call(site, name, [&](Ctx& x) {
    capi::need(op, "op");
    if (!user_fn)
      throw mpi::MpiError(mpi::ErrorClass::arg, "user_fn", "user_fn is NULL",
                          "MPI-4.1 §6.9.5: MPI_Op_create takes the function that combines the elements");
    mpi::Op o{"user op", mpi::OpKind::user, commute != 0, nullptr, "", caller, user_fn};
    *op = x.c.handles.add_op(std::make_shared<const mpi::Op>(std::move(o)));
  });
}
}  // namespace

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  return op_create(__builtin_return_address(0), "MPI_Op_create", reinterpret_cast<const void*>(user_fn),
                   &capi::call_user_function, commute, op);
}
int MPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  return op_create(__builtin_return_address(0), "MPI_Op_create_c", reinterpret_cast<const void*>(user_fn),
                   &capi::call_user_function_c, commute, op);
}

int MPI_Op_free(MPI_Op* op) {
  return call(__builtin_return_address(0), "MPI_Op_free", [&](Ctx& x) {
    capi::need(op, "op");
    if (*op == MPI_OP_NULL || !x.c.handles.op(*op))
      throw mpi::MpiError(mpi::ErrorClass::op, "op", *op == MPI_OP_NULL ? "MPI_OP_NULL is not an operation"
                                                                        : "a predefined operation cannot be freed",
                          "MPI-4.1 §6.9.5: MPI_Op_free takes an operation made by MPI_Op_create");
    capi::op_of(x.c, *op);  // not freed yet
    x.c.handles.free_op(*op);  // calls under way keep it
    *op = MPI_OP_NULL;
  });
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  return call(__builtin_return_address(0), "MPI_Op_commutative", [&](Ctx& x) {
    capi::need(commute, "commute");
    *commute = capi::op_of(x.c, op)->commutative ? 1 : 0;
  });
}

// ---- datatype constructors
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_hvector", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_hvector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                     MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed(__builtin_return_address(0), "MPI_Type_indexed", false, count, array_of_blocklengths,
                       array_of_displacements, oldtype, newtype);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed(__builtin_return_address(0), "MPI_Type_create_hindexed", true, count, array_of_blocklengths,
                       array_of_displacements, oldtype, newtype);
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed_block(__builtin_return_address(0), "MPI_Type_create_indexed_block", false, count, blocklength,
                             array_of_displacements, oldtype, newtype);
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed_block(__builtin_return_address(0), "MPI_Type_create_hindexed_block", true, count, blocklength,
                             array_of_displacements, oldtype, newtype);
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_struct", [&](Ctx& x) {
    capi::new_type(x, newtype,
                   mpi::type_struct(capi::array_of(array_of_blocklengths, count, "array_of_blocklengths"),
                                    capi::array_of(array_of_displacements, count, "array_of_displacements"),
                                    capi::types_of(x.c, array_of_types, count, "array_of_types")));
  });
}

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                             const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_subarray", [&](Ctx& x) {
    capi::new_type(x, newtype,
                   mpi::type_subarray(capi::array_of(array_of_sizes, ndims, "array_of_sizes"),
                                      capi::array_of(array_of_subsizes, ndims, "array_of_subsizes"),
                                      capi::array_of(array_of_starts, ndims, "array_of_starts"),
                                      mpi::order_argument(order, false), capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                           const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                           MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_darray", [&](Ctx& x) {
    const auto kinds = capi::array_of(array_of_distribs, ndims, "array_of_distribs");
    std::vector<mpi::Distribution> distribs;
    for (std::size_t i = 0; i < kinds.size(); ++i) distribs.push_back(mpi::distribution_argument(kinds[i], i));
    capi::new_type(x, newtype,
                   mpi::type_darray(size, rank, capi::array_of(array_of_gsizes, ndims, "array_of_gsizes"), distribs,
                                    capi::array_of(array_of_dargs, ndims, "array_of_dargs"),
                                    capi::array_of(array_of_psizes, ndims, "array_of_psizes"),
                                    mpi::order_argument(order, true), capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_resized", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_resized(capi::type_of(x.c, oldtype, "oldtype"), lb, extent));
  });
}

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  return call(__builtin_return_address(0), "MPI_Type_match_size", [&](Ctx&) {
    capi::need(datatype, "datatype");
    *datatype = capi::handle_of(*mpi::match_size(typeclass, size));  // a predefined type's own handle
  });
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_dup", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_dup(capi::type_of(x.c, oldtype, "oldtype")));
    x.c.handles.attributes().copy(mpi::AttrObject::datatype, oldtype, *newtype);  // the copy callbacks (§7.7.4)
  });
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  return call(__builtin_return_address(0), "MPI_Type_get_true_extent", [&](Ctx& x) {
    capi::need(true_lb, "true_lb");
    capi::need(true_extent, "true_extent");
    auto t = capi::type_of(x.c, datatype, "datatype");
    *true_lb = t->true_lb();
    *true_extent = t->true_extent();
  });
}

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  return call(__builtin_return_address(0), "MPI_Get_elements", [&](Ctx& x) {
    capi::need(status, "status");
    capi::need(count, "count");
    mpi::check_not_cancelled(status->count_hi_and_cancelled & 1, "MPI_Get_elements");
    const std::int64_t n = mpi::get_elements(capi::status_bytes(status), *capi::type_of(x.c, datatype, "datatype"));
    *count = n > INT32_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  });
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  return call(__builtin_return_address(0), "MPI_Get_address", [&](Ctx&) {
    capi::need(address, "address");
    *address = static_cast<MPI_Aint>(reinterpret_cast<std::intptr_t>(location));
  });
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  MPI_Aint out = 0;
  call(__builtin_return_address(0), "MPI_Aint_add", [&](Ctx&) { out = mpi::aint_add(base, disp); });
  return out;
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  MPI_Aint out = 0;
  call(__builtin_return_address(0), "MPI_Aint_diff", [&](Ctx&) { out = mpi::aint_diff(addr1, addr2); });
  return out;
}

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  return call(__builtin_return_address(0), "MPI_Type_set_name", [&](Ctx& x) {
    capi::type_of(x.c, datatype, "datatype");
    capi::need(type_name, "type_name");
    x.c.handles.set_name(datatype, type_name);
  });
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  return call(__builtin_return_address(0), "MPI_Type_get_name", [&](Ctx& x) {
    capi::need(type_name, "type_name");
    capi::need(resultlen, "resultlen");
    // MPI-4.1 §7.8: the null handle has a name too.
    std::string name = "MPI_DATATYPE_NULL";
    if (datatype == MPI_LB || datatype == MPI_UB) {
      name = datatype == MPI_LB ? "MPI_LB" : "MPI_UB";  // the MPI-1 markers' names, as MPICH gives them
    } else if (datatype != MPI_DATATYPE_NULL) {
      auto t = capi::type_of(x.c, datatype, "datatype");
      name = t->predefined() ? t->name() : "";
      if (const std::string* n = x.c.handles.name(datatype)) name = *n;
    }
    const std::size_t len = std::min<std::size_t>(name.size(), MPI_MAX_OBJECT_NAME - 1);
    std::memcpy(type_name, name.data(), len);
    type_name[len] = '\0';
    *resultlen = static_cast<int>(len);
  });
}

// ---- decoding a datatype (MPI-4.1 §5.1.13)
int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                          int* combiner) {
  return call(__builtin_return_address(0), "MPI_Type_get_envelope", [&](Ctx& x) {
    capi::need(num_integers, "num_integers");
    capi::need(num_addresses, "num_addresses");
    capi::need(num_datatypes, "num_datatypes");
    capi::need(combiner, "combiner");
    auto t = capi::type_of(x.c, datatype, "datatype");
    const auto& c = t->contents();
    const bool named = t->predefined();
    *num_integers = named ? 0 : static_cast<int>(c.integers.size());
    *num_addresses = named ? 0 : static_cast<int>(c.addresses.size());
    *num_datatypes = named ? 0 : static_cast<int>(c.types.size());
    *combiner = mpi::combiner_value(named ? mpi::Combiner::named : t->combiner());
  });
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                          int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
  return call(__builtin_return_address(0), "MPI_Type_get_contents", [&](Ctx& x) {
    auto t = capi::type_of(x.c, datatype, "datatype");
    mpi::check_type_contents(*t);
    const auto& c = t->contents();
    auto room = [](std::size_t need, int max, const char* argument) {
      if (static_cast<std::int64_t>(need) > max)
        throw mpi::MpiError(mpi::ErrorClass::arg, argument,
                            std::string(argument) + " = " + std::to_string(max) + " is less than the " +
                                std::to_string(need) + " entries MPI_Type_get_envelope gives",
                            "MPI-4.1 §5.1.13: the arrays must hold what MPI_Type_get_envelope counts");
    };
    room(c.integers.size(), max_integers, "max_integers");
    room(c.addresses.size(), max_addresses, "max_addresses");
    room(c.types.size(), max_datatypes, "max_datatypes");
    if (!c.integers.empty()) capi::need(array_of_integers, "array_of_integers");
    if (!c.addresses.empty()) capi::need(array_of_addresses, "array_of_addresses");
    if (!c.types.empty()) capi::need(array_of_datatypes, "array_of_datatypes");
    for (std::size_t i = 0; i < c.integers.size(); ++i) array_of_integers[i] = static_cast<int>(c.integers[i]);
    for (std::size_t i = 0; i < c.addresses.size(); ++i) array_of_addresses[i] = c.addresses[i];
    // A predefined type is given as itself; a derived one as a new handle, which
    // the program frees (§5.1.13).
    for (std::size_t i = 0; i < c.types.size(); ++i) {
      const MPI_Datatype h = capi::handle_of(*c.types[i]);
      if (c.types[i]->predefined() && h != MPI_DATATYPE_NULL) array_of_datatypes[i] = h;
      else capi::new_type(x, &array_of_datatypes[i], c.types[i]);
    }
  });
}

// ---- the MPI_Count forms (_x) and the large-count forms (_c, MPI-4.1 §19.2)
}  // extern "C"

namespace mpisim::program::capi {
namespace {
int type_size_count(const void* site, const char* name, MPI_Datatype datatype, MPI_Count* size) {
  return call(site, name, [&](Ctx& x) {
    capi::need(size, "size");
    *size = capi::type_of(x.c, datatype, "datatype")->size();
  });
}
int type_extent_count(const void* site, const char* name, MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent,
                      bool true_extent) {
  return call(site, name, [&](Ctx& x) {
    const char* lb_name = true_extent ? "true_lb" : "lb";
    capi::need(lb, lb_name);
    capi::need(extent, true_extent ? "true_extent" : "extent");
    auto t = capi::type_of(x.c, datatype, "datatype");
    *lb = true_extent ? t->true_lb() : t->lb();
    *extent = true_extent ? t->true_extent() : t->extent();
  });
}
int get_elements_count(const void* site, const char* name, const MPI_Status* status, MPI_Datatype datatype,
                       MPI_Count* count) {
  return call(site, name, [&](Ctx& x) {
    capi::need(status, "status");
    capi::need(count, "count");
    mpi::check_not_cancelled(status->count_hi_and_cancelled & 1, name);
    *count = mpi::get_elements(capi::status_bytes(status), *capi::type_of(x.c, datatype, "datatype"));
  });
}
}  // namespace
}  // namespace mpisim::program::capi

extern "C" {

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  return capi::type_size_count(__builtin_return_address(0), "MPI_Type_size_x", datatype, size);
}
int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  return capi::type_size_count(__builtin_return_address(0), "MPI_Type_size_c", datatype, size);
}
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return capi::type_extent_count(__builtin_return_address(0), "MPI_Type_get_extent_x", datatype, lb, extent, false);
}
int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  return capi::type_extent_count(__builtin_return_address(0), "MPI_Type_get_extent_c", datatype, lb, extent, false);
}
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return capi::type_extent_count(__builtin_return_address(0), "MPI_Type_get_true_extent_x", datatype, true_lb,
                                 true_extent, true);
}
int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  return capi::type_extent_count(__builtin_return_address(0), "MPI_Type_get_true_extent_c", datatype, true_lb,
                                 true_extent, true);
}
int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return capi::get_elements_count(__builtin_return_address(0), "MPI_Get_elements_x", status, datatype, count);
}
int MPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  return capi::get_elements_count(__builtin_return_address(0), "MPI_Get_elements_c", status, datatype, count);
}

// Constructors with MPI_Count counts and displacements.
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_contiguous_c", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_contiguous(count, capi::type_of(x.c, oldtype, "oldtype")));
  });
}
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_vector_c", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_vector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_hvector_c", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_hvector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                       const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed(__builtin_return_address(0), "MPI_Type_indexed_c", false, count, array_of_blocklengths,
                       array_of_displacements, oldtype, newtype);
}
int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed(__builtin_return_address(0), "MPI_Type_create_hindexed_c", true, count, array_of_blocklengths,
                       array_of_displacements, oldtype, newtype);
}
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed_block(__builtin_return_address(0), "MPI_Type_create_indexed_block_c", false, count,
                             blocklength, array_of_displacements, oldtype, newtype);
}
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return capi::indexed_block(__builtin_return_address(0), "MPI_Type_create_hindexed_block_c", true, count,
                             blocklength, array_of_displacements, oldtype, newtype);
}
int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                             MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_struct_c", [&](Ctx& x) {
    capi::new_type(x, newtype,
                   mpi::type_struct(capi::array_of(array_of_blocklengths, count, "array_of_blocklengths"),
                                    capi::array_of(array_of_displacements, count, "array_of_displacements"),
                                    capi::types_of(x.c, array_of_types, count, "array_of_types")));
  });
}
int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_create_resized_c", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_resized(capi::type_of(x.c, oldtype, "oldtype"), lb, extent));
  });
}
int MPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op) {
  return call(__builtin_return_address(0), "MPI_Reduce_local_c", [&](Ctx& x) {
    mpi::reduce_local(x.rk.memory(), mpi::PayloadMode::data, capi::address(inbuf), capi::address(inoutbuf), count,
                      capi::type_of(x.c, datatype, "datatype"), *capi::op_of(x.c, op), static_cast<std::int32_t>(x.r));
  });
}

int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  return call(__builtin_return_address(0), "MPI_Type_extent", [&](Ctx& x) {
    capi::need(extent, "extent");
    *extent = capi::type_of(x.c, datatype, "datatype")->extent();
  });
}

int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  return call(__builtin_return_address(0), "MPI_Type_lb", [&](Ctx& x) {
    capi::need(displacement, "displacement");
    *displacement = capi::type_of(x.c, datatype, "datatype")->lb();
  });
}

int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  return call(__builtin_return_address(0), "MPI_Type_ub", [&](Ctx& x) {
    capi::need(displacement, "displacement");
    *displacement = capi::type_of(x.c, datatype, "datatype")->ub();
  });
}

int MPI_Address(const void* location, MPI_Aint* address) {
  return call(__builtin_return_address(0), "MPI_Address", [&](Ctx&) {
    capi::need(address, "address");
    *address = static_cast<MPI_Aint>(reinterpret_cast<std::intptr_t>(location));
  });
}

int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_hvector", [&](Ctx& x) {
    capi::new_type(x, newtype, mpi::type_hvector(count, blocklength, stride, capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_hindexed", [&](Ctx& x) {
    capi::new_type(x, newtype,
                   mpi::type_hindexed(capi::array_of(array_of_blocklengths, count, "array_of_blocklengths"),
                                      capi::array_of(array_of_displacements, count, "array_of_displacements"),
                                      capi::type_of(x.c, oldtype, "oldtype")));
  });
}

int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                    const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return call(__builtin_return_address(0), "MPI_Type_struct", [&](Ctx& x) {
    capi::new_type(x, newtype,
                   mpi::type_struct(capi::array_of(array_of_blocklengths, count, "array_of_blocklengths"),
                                    capi::array_of(array_of_displacements, count, "array_of_displacements"),
                                    capi::types_of(x.c, array_of_types, count, "array_of_types")));
  });
}

// ---- pack and unpack
int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Pack", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(position, "position");
    std::int64_t at = *position;
    mpi::pack(x.rk.memory(), mpi::PayloadMode::data, capi::address(inbuf), incount,
              capi::type_of(x.c, datatype, "datatype"), capi::address(outbuf), outsize, at);
    *position = static_cast<int>(at);
  });
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  return call(__builtin_return_address(0), "MPI_Unpack", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(position, "position");
    std::int64_t at = *position;
    mpi::unpack(x.rk.memory(), mpi::PayloadMode::data, capi::address(inbuf), insize, at, capi::address(outbuf),
                outcount, capi::type_of(x.c, datatype, "datatype"));
    *position = static_cast<int>(at);
  });
}

int MPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  return call(__builtin_return_address(0), "MPI_Pack_external", [&](Ctx& x) {
    capi::need(datarep, "datarep");
    capi::need(position, "position");
    std::int64_t at = *position;
    mpi::pack_external(x.rk.memory(), mpi::PayloadMode::data, datarep, capi::address(inbuf), incount,
                       capi::type_of(x.c, datatype, "datatype"), capi::address(outbuf), outsize, at);
    *position = at;
  });
}

int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                        int outcount, MPI_Datatype datatype) {
  return call(__builtin_return_address(0), "MPI_Unpack_external", [&](Ctx& x) {
    capi::need(datarep, "datarep");
    capi::need(position, "position");
    std::int64_t at = *position;
    mpi::unpack_external(x.rk.memory(), mpi::PayloadMode::data, datarep, capi::address(inbuf), insize, at,
                         capi::address(outbuf), outcount, capi::type_of(x.c, datatype, "datatype"));
    *position = at;
  });
}

int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  return call(__builtin_return_address(0), "MPI_Pack_external_size", [&](Ctx& x) {
    capi::need(datarep, "datarep");
    capi::need(size, "size");
    *size = mpi::pack_external_size(datarep, incount, *capi::type_of(x.c, datatype, "datatype"));
  });
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return call(__builtin_return_address(0), "MPI_Pack_size", [&](Ctx& x) {
    x.run.comm(comm, "comm");
    capi::need(size, "size");
    // The packed form is the data bytes in type-map order (docs/semantics.md).
    *size = static_cast<int>(mpi::data_bytes(incount, *capi::type_of(x.c, datatype, "datatype"), "incount"));
  });
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return call(__builtin_return_address(0), "MPI_Reduce_local", [&](Ctx& x) {
    mpi::reduce_local(x.rk.memory(), mpi::PayloadMode::data, capi::address(inbuf), capi::address(inoutbuf), count,
                      capi::type_of(x.c, datatype, "datatype"), *capi::op_of(x.c, op), static_cast<std::int32_t>(x.r));
  });
}

// ---- groups
int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  return call(__builtin_return_address(0), "MPI_Comm_group", [&](Ctx& x) {
    const auto& c = x.run.comm(comm, "comm");
    capi::new_group(x.c, group,
                    c.is_self()                       ? mpi::Group::of({x.r})
                    : &c == &x.run.world().comm_world() ? mpi::Group::range(0, x.run.world().size())
                                                        : c.group(x.r));
  });
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  return call(__builtin_return_address(0), "MPI_Comm_remote_group", [&](Ctx& x) {
    capi::new_group(x.c, group, mpi::remote_group(x.run.comm(comm, "comm")));
  });
}

int MPI_Group_size(MPI_Group group, int* size) {
  return call(__builtin_return_address(0), "MPI_Group_size", [&](Ctx& x) {
    capi::need(size, "size");
    *size = static_cast<int>(capi::group_of(x.c, group, "group")->size());
  });
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  return call(__builtin_return_address(0), "MPI_Group_rank", [&](Ctx& x) {
    capi::need(rank, "rank");
    *rank = static_cast<int>(capi::group_of(x.c, group, "group")->rank_of(x.r));
  });
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_incl", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, capi::group_of(x.c, group, "group")->incl(capi::array_of(ranks, n, "ranks")));
  });
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_excl", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, capi::group_of(x.c, group, "group")->excl(capi::array_of(ranks, n, "ranks")));
  });
}


int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_range_incl", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, capi::group_of(x.c, group, "group")->range_incl(capi::ranges_of(n, ranges)));
  });
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_range_excl", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, capi::group_of(x.c, group, "group")->range_excl(capi::ranges_of(n, ranges)));
  });
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_create_group", [&](Ctx& x) {
    auto g = capi::group_of(x.c, group, "group");
    capi::construct(
        x, comm, newcomm,
        [&](const mpi::Communicator& c, std::int64_t, std::string label) {
          return coll::comm::create_group(x.rk, c, g, tag, std::move(label));
        },
        false);
  });
}

int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                     int remote_leader, const char* stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  return call(__builtin_return_address(0), "MPI_Intercomm_create_from_groups", [&](Ctx& x) {
    auto local = capi::group_of(x.c, local_group, "local_group");
    auto remote = capi::group_of(x.c, remote_group, "remote_group");
    capi::need(stringtag, "stringtag");
    capi::need(newintercomm, "newintercomm");
    x.c.handles.check_info(info, "info");
    x.c.handles.check_errhandler(errhandler, "errhandler");
    const mpi::Communicator* made = nullptr;
    x.returnable = false;  // the other processes are bound to the call
    x.run.block(capi::made_comm(coll::comm::intercomm_create_from_groups(x.rk, std::move(local), local_leader,
                                                                         std::move(remote), remote_leader, stringtag,
                                                                         std::string("MPI_Intercomm_create_from_groups "
                                                                                     "\"") + stringtag + "\""),
                                &made));
    *newintercomm = x.run.add_comm(made);
    if (errhandler != MPI_ERRORS_ARE_FATAL) x.run.set_errhandler(*newintercomm, errhandler);
  });
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  return call(__builtin_return_address(0), "MPI_Group_translate_ranks", [&](Ctx& x) {
    auto out = mpi::Group::translate(*capi::group_of(x.c, group1, "group1"), capi::array_of(ranks1, n, "ranks1"),
                                     *capi::group_of(x.c, group2, "group2"));
    if (n > 0) capi::need(ranks2, "ranks2");
    for (std::size_t i = 0; i < out.size(); ++i) ranks2[i] = static_cast<int>(out[i]);
  });
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  return call(__builtin_return_address(0), "MPI_Group_compare", [&](Ctx& x) {
    capi::need(result, "result");
    *result = static_cast<int>(
        mpi::Group::compare(*capi::group_of(x.c, group1, "group1"), *capi::group_of(x.c, group2, "group2")));
  });
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_union", [&](Ctx& x) {
    capi::new_group(x.c, newgroup,
                    mpi::Group::set_union(*capi::group_of(x.c, group1, "group1"), *capi::group_of(x.c, group2, "group2")));
  });
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_intersection", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, mpi::Group::intersection(*capi::group_of(x.c, group1, "group1"),
                                                            *capi::group_of(x.c, group2, "group2")));
  });
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return call(__builtin_return_address(0), "MPI_Group_difference", [&](Ctx& x) {
    capi::new_group(x.c, newgroup, mpi::Group::difference(*capi::group_of(x.c, group1, "group1"),
                                                          *capi::group_of(x.c, group2, "group2")));
  });
}

int MPI_Group_free(MPI_Group* group) {
  return call(__builtin_return_address(0), "MPI_Group_free", [&](Ctx& x) {
    capi::need(group, "group");
    capi::group_of(x.c, *group, "group");
    if (*group != MPI_GROUP_EMPTY) x.c.handles.free_group(*group);
    *group = MPI_GROUP_NULL;
  });
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return call(__builtin_return_address(0), "MPI_Comm_create", [&](Ctx& x) {
    auto g = capi::group_of(x.c, group, "group");
    capi::construct(x, comm, newcomm, [&](const mpi::Communicator& c, std::int64_t seq, std::string label) {
      return coll::comm::create(x.rk, c, seq, g, std::move(label));
    });
  });
}

}  // extern "C"
