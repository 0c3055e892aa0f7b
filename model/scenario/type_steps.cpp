// Datatypes (constructors, queries, pack and unpack) and operations.
#include "model/scenario/executor.hpp"

#include <cmath>
#include <cstring>

#include "model/mpi/external32.hpp"
#include "model/mpi/local_calls.hpp"
#include "model/mpi/type_constructors.hpp"

namespace mpisim::scenario::exec {

mpi::TypeRef Executor::named_type(RankEnv& env, NameId id, const char* argument) {
  const std::string& n = names_.str(id);
  if (auto t = mpi::predefined_type(n)) return t;
  mpi::TypeRef* t = find_in(env.types(), id);
  if (!t)
    throw MpiError(mpi::ErrorClass::type, argument, "datatype '" + n + "' was never created on this rank",
                   "MPI-4.1 §5.1: a datatype argument must be a valid datatype handle");
  if (!*t)
    throw MpiError(mpi::ErrorClass::type, argument, "datatype '" + n + "' is MPI_DATATYPE_NULL: it was freed",
                   "MPI-4.1 §5.1.9: MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
  return *t;
}

// An array argument whose optional count parameter must give its length.
std::vector<std::int64_t> Executor::array_arg_counted(RankEnv& env, const Step& s, P p, P count_param) {
  const Arg& a = arg(s, p);
  Value v = eval(env, *a.expr);
  if (!v.is_array || v.is_real) throw StepError(std::string(param_name(p)) + " must be an array of integers");
  if (std::int8_t k = s.slot[static_cast<std::size_t>(count_param)]; k >= 0 && s.args[static_cast<std::size_t>(k)].present) {
    std::int64_t n = eval_int(env, *s.args[static_cast<std::size_t>(k)].expr);
    if (n != static_cast<std::int64_t>(v.array.size()))
      throw MpiError(mpi::ErrorClass::arg, param_name(count_param),
                     std::string(param_name(count_param)) + " = " + std::to_string(n) + " but " + param_name(p) +
                         " has " + std::to_string(v.array.size()) + " entries",
                     "MPI-4.1 §5.1.2: the arrays of a constructor have count entries");
  }
  return std::move(v.array);
}

// Datatypes, pack and unpack, operations.
bool Executor::type_call(RankEnv& env, const Step& s) {
  switch (s.spec->id) {
    case CallId::type_contiguous:
      bind_type(env, s, P::newtype,
                mpi::type_contiguous(int_arg(env, s, P::count), type_arg(env, s, P::oldtype), type_name(s)));
      return true;
    case CallId::type_vector:
    case CallId::type_hvector: {
      auto count = int_arg(env, s, P::count), bl = int_arg(env, s, P::blocklength), st = int_arg(env, s, P::stride);
      auto old = type_arg(env, s, P::oldtype);
      bind_type(env, s, P::newtype,
                s.spec->id == CallId::type_vector ? mpi::type_vector(count, bl, st, old, type_name(s))
                                                  : mpi::type_hvector(count, bl, st, old, type_name(s)));
      return true;
    }
    case CallId::type_indexed:
    case CallId::type_hindexed: {
      auto bls = array_arg_counted(env, s, P::array_of_blocklengths, P::count);
      auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
      auto old = type_arg(env, s, P::oldtype);
      bind_type(env, s, P::newtype,
                s.spec->id == CallId::type_indexed ? mpi::type_indexed(bls, ds, old, type_name(s))
                                                   : mpi::type_hindexed(bls, ds, old, type_name(s)));
      return true;
    }
    case CallId::type_indexed_block:
    case CallId::type_hindexed_block: {
      auto bl = int_arg(env, s, P::blocklength);
      auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
      auto old = type_arg(env, s, P::oldtype);
      bind_type(env, s, P::newtype,
                s.spec->id == CallId::type_indexed_block ? mpi::type_indexed_block(bl, ds, old, type_name(s))
                                                         : mpi::type_hindexed_block(bl, ds, old, type_name(s)));
      return true;
    }
    case CallId::type_struct: {
      auto bls = array_arg_counted(env, s, P::array_of_blocklengths, P::count);
      auto ds = array_arg_counted(env, s, P::array_of_displacements, P::count);
      std::vector<mpi::TypeRef> types;
      for (NameId id : arg(s, P::array_of_types).names) {
        const std::string& n = names_.str(id);
        types.push_back(n == "MPI_LB" ? mpi::Datatype::make_marker(true)
                        : n == "MPI_UB" ? mpi::Datatype::make_marker(false)
                                        : named_type(env, id, "array_of_types"));
      }
      bind_type(env, s, P::newtype, mpi::type_struct(bls, ds, types, type_name(s)));
      return true;
    }
    case CallId::type_subarray: {
      auto sizes = array_arg_counted(env, s, P::array_of_sizes, P::ndims);
      auto subsizes = array_arg_counted(env, s, P::array_of_subsizes, P::ndims);
      auto starts = array_arg_counted(env, s, P::array_of_starts, P::ndims);
      const mpi::Order order = mpi::order_argument(int_arg(env, s, P::order), false);
      bind_type(env, s, P::newtype,
                mpi::type_subarray(sizes, subsizes, starts, order, type_arg(env, s, P::oldtype), type_name(s)));
      return true;
    }
    case CallId::type_resized:
      bind_type(env, s, P::newtype,
                mpi::type_resized(type_arg(env, s, P::oldtype), int_arg(env, s, P::lb), int_arg(env, s, P::extent),
                                  type_name(s)));
      return true;
    case CallId::type_match_size:
      bind_type(env, s, P::datatype, mpi::match_size(int_arg(env, s, P::typeclass), int_arg(env, s, P::size)));
      return true;
    case CallId::type_dup:
      bind_type(env, s, P::newtype, mpi::type_dup(type_arg(env, s, P::oldtype), type_name(s)));
      return true;
    case CallId::type_commit:
    case CallId::type_free: {
      NameId id = arg(s, P::datatype).name;
      const std::string& n = names_.str(id);
      if (mpi::TypeRef named = mpi::predefined_type(n)) {
        if (s.spec->id == CallId::type_free) mpi::check_type_free(*named, n);
        return true;  // committing a predefined type is allowed and does nothing
      }
      mpi::TypeRef t = named_type(env, id, "datatype");
      if (s.spec->id == CallId::type_commit) t->commit();
      else *find_in(env.types(), id) = nullptr;  // pending operations keep their own reference
      return true;
    }
    case CallId::type_size: bind_int(env, s, P::size, type_arg(env, s, P::datatype)->size()); return true;
    case CallId::type_get_extent:
    case CallId::type_get_true_extent: {
      auto t = type_arg(env, s, P::datatype);
      bool true_bounds = s.spec->id == CallId::type_get_true_extent;
      bind_int(env, s, true_bounds ? P::true_lb : P::lb, true_bounds ? t->true_lb() : t->lb());
      bind_int(env, s, true_bounds ? P::true_extent : P::extent, true_bounds ? t->true_extent() : t->extent());
      return true;
    }
    case CallId::type_extent: bind_int(env, s, P::extent, type_arg(env, s, P::datatype)->extent()); return true;
    case CallId::type_lb: bind_int(env, s, P::displacement, type_arg(env, s, P::datatype)->lb()); return true;
    case CallId::type_ub: bind_int(env, s, P::displacement, type_arg(env, s, P::datatype)->ub()); return true;
    case CallId::get_address: bind_int(env, s, P::address, address(env, arg(s, P::location), P::location)); return true;
    case CallId::aint_add:
      bind_int(env, s, P::result, mpi::aint_add(int_arg(env, s, P::base), int_arg(env, s, P::disp)));
      return true;
    case CallId::aint_diff:
      bind_int(env, s, P::result, mpi::aint_diff(int_arg(env, s, P::addr1), int_arg(env, s, P::addr2)));
      return true;
    case CallId::pack_size:
      comm_arg(env, s);
      bind_int(env, s, P::size, int_arg(env, s, P::incount) * type_arg(env, s, P::datatype)->size());
      return true;
    case CallId::pack:
    case CallId::unpack:
    case CallId::pack_external:
    case CallId::unpack_external: pack_unpack(env, s); return true;
    case CallId::pack_external_size:
      bind_int(env, s, P::size,
               mpi::pack_external_size(arg(s, P::datarep).text, int_arg(env, s, P::incount),
                                       *type_arg(env, s, P::datatype)));
      return true;
    case CallId::type_set_name:
    case CallId::type_get_name: type_name(env, s); return true;
    case CallId::get_elements: {
      const Arg& a = arg(s, P::status);
      Status* st = find_in(env.statuses(), a.name);
      if (!st)
        throw MpiError(mpi::ErrorClass::arg, "status", "status '" + names_.str(a.name) + "' was never filled in",
                       "MPI-4.1 §5.1.11: MPI_Get_elements reads the status a receive returned");
      mpi::check_not_cancelled(st->cancelled, "MPI_Get_elements");
      bind_int(env, s, P::count, mpi::get_elements(st->bytes, *type_arg(env, s, P::datatype)));
      return true;
    }
    case CallId::type_darray: {
      auto gs = array_arg_counted(env, s, P::array_of_gsizes, P::ndims);
      auto ds = array_arg_counted(env, s, P::array_of_distribs, P::ndims);
      auto da = array_arg_counted(env, s, P::array_of_dargs, P::ndims);
      auto ps = array_arg_counted(env, s, P::array_of_psizes, P::ndims);
      std::vector<mpi::Distribution> dist;
      for (std::size_t i = 0; i < ds.size(); ++i) dist.push_back(mpi::distribution_argument(ds[i], i));
      const mpi::Order order = mpi::order_argument(int_arg(env, s, P::order), true);
      bind_type(env, s, P::newtype,
                mpi::type_darray(int_arg(env, s, P::size), int_arg(env, s, P::rank), gs, dist, da, ps, order,
                                 type_arg(env, s, P::oldtype), type_name(s)));
      return true;
    }
    case CallId::type_get_envelope: {
      auto t = type_arg(env, s, P::datatype);
      const auto& c = t->contents();
      bool named = t->predefined();
      bind_int(env, s, P::num_integers, named ? 0 : static_cast<std::int64_t>(c.integers.size()));
      bind_int(env, s, P::num_addresses, named ? 0 : static_cast<std::int64_t>(c.addresses.size()));
      bind_int(env, s, P::num_datatypes, named ? 0 : static_cast<std::int64_t>(c.types.size()));
      bind_int(env, s, P::combiner, mpi::combiner_value(named ? mpi::Combiner::named : t->combiner()));
      return true;
    }
    case CallId::type_get_contents: {
      auto t = type_arg(env, s, P::datatype);
      mpi::check_type_contents(*t);
      const auto& c = t->contents();
      bind(env.values(), arg(s, P::array_of_integers).name, Value::of(c.integers));
      bind(env.values(), arg(s, P::array_of_addresses).name, Value::of(c.addresses));
      const std::string& prefix = names_.str(arg(s, P::array_of_datatypes).name);
      for (std::size_t i = 0; i < c.types.size(); ++i)
        bind(env.types(), names_.intern(prefix + std::to_string(i)), c.types[i]);
      return true;
    }
    case CallId::op_create: {
      bool commute = int_arg(env, s, P::commute) != 0;
      NameId id = arg(s, P::op).name;
      const Arg& fn = arg(s, P::user_fn);
      if (fn.expr) {  // a function written as an expression: the library calls it through the front-end's hook
        bind(env.ops(), id,
             std::make_shared<const mpi::Op>(mpi::Op{names_.str(id), mpi::OpKind::user, commute, nullptr, fn.text,
                                                     &expression_op, &*fn.expr}));
      } else {
        bind(env.ops(), id, mpi::make_user_op(names_.str(id), fn.handle, commute));
      }
      return true;
    }
    case CallId::op_free: {
      NameId id = arg(s, P::op).name;
      mpi::OpRef* o = find_in(env.ops(), id);
      if (!o || !*o)
        throw MpiError(mpi::ErrorClass::op, "op",
                       "operation '" + names_.str(id) + (o ? "' is already MPI_OP_NULL" : "' was never created on this rank"),
                       "MPI-4.1 §6.9.5: MPI_Op_free takes a user-defined operation");
      o->reset();
      return true;
    }
    case CallId::op_commutative: bind_int(env, s, P::commute, op_arg(env, s)->commutative ? 1 : 0); return true;
    case CallId::reduce_local: {
      auto op = op_arg(env, s);
      auto t = type_arg(env, s, P::datatype);
      const std::int64_t n = int_arg(env, s, P::count);
      const Address in = address(env, arg(s, P::inbuf), P::inbuf), inout = address(env, arg(s, P::inoutbuf), P::inoutbuf);
      mpi::reduce_local(world_.rank(env.rank).memory(), world_.payload(), in, inout, n, t, *op,
                        static_cast<std::int32_t>(env.rank));
      return true;
    }
    default: return false;
  }
}

mpi::OpRef Executor::op_arg(RankEnv& env, const Step& s) {
  const Arg& a = arg(s, P::op);
  if (auto op = mpi::predefined_op(a.handle)) return op;
  if (a.handle == "MPI_OP_NULL") mpi::null_op("op");
  mpi::OpRef* o = find_in(env.ops(), a.name);
  if (!o)
    throw MpiError(mpi::ErrorClass::op, "op", "operation '" + a.handle + "' was never created on this rank",
                   "MPI-4.1 §6.9: op must be a valid operation handle");
  if (!*o)
    throw MpiError(mpi::ErrorClass::op, "op", "operation '" + a.handle + "' is MPI_OP_NULL: it was freed",
                   "MPI-4.1 §6.9.5: MPI_Op_free sets the handle to MPI_OP_NULL");
  return *o;
}

namespace {

[[noreturn]] void op_failed(const mpi::Op& op, const std::string& what) {
  throw MpiError(mpi::ErrorClass::op, "op", "the user function of " + op.name + " (\"" + op.function_name + "\") " + what,
                 "MPI-4.1 §6.9.5: the user function combines len elements of the datatype, inoutvec[i] = invec[i] op "
                 "inoutvec[i]; docs/scenario-format.md, \"User operations\"");
}

}  // namespace

// A user operation written as an expression (MPI_Op_create's user_fn): it reads
// invec and inoutvec (the basic elements of len elements of the datatype, in
// type-map order: integers, or reals when the datatype holds floating-point
// elements), len, and width (basic elements per element), and gives the new inoutvec.
void Executor::expression_op(const mpi::Op& op, const std::byte* in, std::byte* inout, std::int64_t count,
                             const mpi::Datatype& type, std::int64_t /*rank*/) {
  const Expr& e = *static_cast<const Expr*>(op.foreign_data);
  // The elements, as integers; as reals when the datatype holds floating ones.
  std::vector<std::int64_t> a, b;
  std::vector<double> ra, rb;
  std::vector<const mpi::BasicType*> kinds;
  std::int64_t width = 0;
  bool real = false;
  for (const auto& r : type.signature()) {
    const mpi::BasicType& bt = mpi::basic_type(r.basic);
    width += r.count;
    if (bt.kind == mpi::ElementKind::complex)
      op_failed(op, "reads integers and reals, and " + type.name() + " holds the complex " + std::string(bt.name));
    real = real || bt.kind == mpi::ElementKind::floating;
  }
  auto read = [](const mpi::BasicType& bt, const std::byte* p, std::int64_t* i, double* d) {
    if (bt.kind == mpi::ElementKind::floating) {
      if (bt.size == 4) {
        float f;
        std::memcpy(&f, p, 4);
        *d = f;
      } else if (bt.size == 8) {
        std::memcpy(d, p, 8);
      } else {
        long double ld;
        std::memcpy(&ld, p, sizeof ld);
        *d = static_cast<double>(ld);
      }
      *i = 0;
      return;
    }
    std::int64_t x = 0;
    std::memcpy(&x, p, static_cast<std::size_t>(bt.size));
    if (bt.kind == mpi::ElementKind::signed_int && bt.size < 8) {  // sign-extend
      const int shift = 64 - 8 * static_cast<int>(bt.size);
      x = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << shift) >> shift;
    }
    *i = x;
    *d = static_cast<double>(x);
  };
  const std::byte* p = in;
  const std::byte* q = inout;
  for (std::int64_t k = 0; k < count; ++k)
    for (const auto& r : type.signature()) {
      const mpi::BasicType& bt = mpi::basic_type(r.basic);
      for (std::int64_t n = 0; n < r.count; ++n, p += bt.size, q += bt.size) {
        std::int64_t x, y;
        double dx, dy;
        read(bt, p, &x, &dx);
        read(bt, q, &y, &dy);
        if (real) {
          ra.push_back(dx);
          rb.push_back(dy);
        } else {
          a.push_back(x);
          b.push_back(y);
        }
        kinds.push_back(&bt);
      }
    }
  const Value invec = real ? Value::of_reals(std::move(ra)) : Value::of(std::move(a));
  const Value inoutvec = real ? Value::of_reals(std::move(rb)) : Value::of(std::move(b));
  auto names = [&](std::string_view n, std::uint32_t) -> std::optional<Value> {
    if (n == "invec") return invec;
    if (n == "inoutvec") return inoutvec;
    if (n == "len") return Value::of(count);
    if (n == "width") return Value::of(width);
    if (auto c = mpi_constant(n)) return Value::of(*c);
    return std::nullopt;
  };
  Value r;
  try {
    r = e.eval(Lookup(names));
  } catch (const ExprError& x) {
    op_failed(op, "failed: " + std::string(x.what()) + " (it sees invec, inoutvec, len and width only)");
  }
  if (!r.is_array || r.size() != inoutvec.size())
    op_failed(op, "gave " + (r.is_array ? std::to_string(r.size()) + (r.size() == 1 ? " value" : " values")
                                        : std::string("a number")) +
                      " where inoutvec has " + std::to_string(inoutvec.size()));
  std::byte* out = inout;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const mpi::BasicType& bt = *kinds[i];
    if (bt.kind == mpi::ElementKind::floating) {
      const double d = r.as_real(i);
      if (bt.size == 4) {
        const auto f = static_cast<float>(d);
        std::memcpy(out, &f, 4);
      } else if (bt.size == 8) {
        std::memcpy(out, &d, 8);
      } else {
        const auto ld = static_cast<long double>(d);
        std::memcpy(out, &ld, sizeof ld);
      }
      out += bt.size;
      continue;
    }
    std::int64_t v = 0;
    if (r.is_real) {
      const double d = r.reals[i];
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != std::trunc(d))
        op_failed(op, "gave the real " + Value::of_real(d).to_string() + " for element " + std::to_string(i) +
                          ", of the integer type " + std::string(bt.name));
      v = static_cast<std::int64_t>(d);
    } else {
      v = r.array[i];
    }
    const int bits = 8 * static_cast<int>(bt.size);
    const bool fits = bits == 64 || (bt.kind == mpi::ElementKind::signed_int
                                         ? v >= -(std::int64_t{1} << (bits - 1)) && v < (std::int64_t{1} << (bits - 1))
                                         : v >= 0 && v < (std::int64_t{1} << bits));
    if (!fits)
      op_failed(op, "gave " + std::to_string(v) + " for element " + std::to_string(i) + ", which " +
                        std::string(bt.name) + " cannot hold");
    std::memcpy(out, &v, static_cast<std::size_t>(bt.size));  // little-endian: the low bytes
    out += bt.size;
  }
}

// MPI_Pack and MPI_Unpack: the packed form is the data bytes in type-map order;
// MPI_Pack_external and MPI_Unpack_external: the same in external32.
void Executor::pack_unpack(RankEnv& env, const Step& s) {
  const CallId id = s.spec->id;
  const bool external = id == CallId::pack_external || id == CallId::unpack_external;
  const bool packing = id == CallId::pack || id == CallId::pack_external;
  if (!external) comm_arg(env, s);
  mpi::Memory& mem = world_.rank(env.rank).memory();
  auto t = type_arg(env, s, P::datatype);
  const std::int64_t count = int_arg(env, s, packing ? P::incount : P::outcount);
  const std::int64_t limit = int_arg(env, s, packing ? P::outsize : P::insize);
  NameId pos_id = arg(s, P::position).name;
  Value* pos = find_in(env.values(), pos_id);
  if (!pos || pos->is_array || pos->is_real)
    throw StepError("position: '" + names_.str(pos_id) + "' must be a number bound before the call (let it be 0)");
  const Address inbuf = address(env, arg(s, P::inbuf), P::inbuf), outbuf = address(env, arg(s, P::outbuf), P::outbuf);
  const mpi::PayloadMode mode = world_.payload();
  if (external) {
    const std::string& datarep = arg(s, P::datarep).text;
    if (packing) mpi::pack_external(mem, mode, datarep, inbuf, count, t, outbuf, limit, pos->scalar);
    else mpi::unpack_external(mem, mode, datarep, inbuf, limit, pos->scalar, outbuf, count, t);
  } else if (packing) {
    mpi::pack(mem, mode, inbuf, count, t, outbuf, limit, pos->scalar);
  } else {
    mpi::unpack(mem, mode, inbuf, limit, pos->scalar, outbuf, count, t);
  }
}

// MPI_Type_set_name and MPI_Type_get_name: a name per datatype and rank; the
// table holds the type, so its address is never another's.
void Executor::type_name(RankEnv& env, const Step& s) {
  mpi::TypeRef t = type_arg(env, s, P::datatype);
  auto& names = env.b().type_names;
  if (s.spec->id == CallId::type_set_name) {
    std::string name = arg(s, P::type_name).text.substr(0, mpi::MAX_OBJECT_NAME - 1);
    for (auto& [type, n] : names)
      if (type == t) {
        n = std::move(name);
        return;
      }
    names.emplace_back(std::move(t), std::move(name));
    return;
  }
  std::string name = t->predefined() ? t->name() : "";
  for (const auto& [type, n] : names)
    if (type == t) name = n;
  const Address at = address(env, arg(s, P::type_name), P::type_name);
  bind_int(env, s, P::resultlen,
           mpi::write_name(world_.rank(env.rank).memory(), world_.payload(), at, name, "type_name"));
}

// The datatype `t` a constructor bound to `name` at env's rank, for the viewer: its
// bounds and its type map as blocks of one basic type each, in the order MPI_Pack
// visits them. Ranks that build the same datatype share one drawing.
void Executor::record_datatype(RankEnv& env, const std::string& name, const mpi::Datatype& t) {
  std::string body;
  sim::JsonWriter w(body, 0);
  w.begin_object();
  w.field("name", name).field("type", t.name()).field("size", t.size()).field("extent", t.extent());
  w.field("lb", t.lb()).field("ub", t.ub()).field("true_lb", t.true_lb()).field("true_ub", t.true_ub());
  w.field("lb_marker", t.lb_marker()).field("ub_marker", t.ub_marker());
  // Blocks: the segments cut where the basic type changes.
  constexpr std::size_t kMaxBlocks = 512;
  const auto& sig = t.signature();
  std::size_t run = 0;
  std::int64_t left_in_run = sig.empty() ? 0 : sig[0].count;
  std::size_t blocks = 0;
  bool truncated = false;
  w.key("blocks").begin_array();
  for (const mpi::Segment& seg : t.segments()) {
    std::int64_t offset = seg.offset, left = seg.length;
    while (left > 0 && run < sig.size()) {
      const mpi::BasicType& b = mpi::basic_type(sig[run].basic);
      const std::int64_t fit = std::max<std::int64_t>(1, left / std::max<std::int64_t>(b.size, 1));
      const std::int64_t n = std::min(fit, left_in_run);
      if (blocks++ < kMaxBlocks) {
        w.begin_object().field("offset", offset).field("length", n * b.size).field("basic", std::string(b.name));
        w.field("count", n).end_object();
      } else {
        truncated = true;
      }
      offset += n * b.size, left -= n * b.size, left_in_run -= n;
      if (left_in_run == 0 && ++run < sig.size()) left_in_run = sig[run].count;
    }
  }
  w.end_array();
  if (truncated) w.field("truncated", true);
  w.end_object();
  while (!body.empty() && (body.back() == '\n' || body.back() == ' ')) body.pop_back();
  for (auto& d : result_.datatypes)
    if (d.json == body) {
      d.ranks.push_back(env.rank);
      return;
    }
  if (result_.datatypes.size() < 256) result_.datatypes.push_back({std::move(body), {env.rank}});
}

}  // namespace mpisim::scenario::exec
