#include "model/mpi/op.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <memory>
#include <type_traits>
#include <vector>

#include "model/mpi/error.hpp"

namespace mpisim::mpi {
namespace {

// MPI-4.1 §6.9.2: the classes of basic types each predefined operation is defined on.
bool allowed(OpKind k, OpGroup g) {
  using G = OpGroup;
  switch (k) {
    case OpKind::max:
    case OpKind::min: return g == G::c_integer || g == G::fortran_integer || g == G::floating || g == G::multi_language;
    case OpKind::sum:
    case OpKind::prod:
      return g == G::c_integer || g == G::fortran_integer || g == G::floating || g == G::complex ||
             g == G::multi_language;
    case OpKind::land:
    case OpKind::lor:
    case OpKind::lxor: return g == G::c_integer || g == G::logical;
    case OpKind::band:
    case OpKind::bor:
    case OpKind::bxor: return g == G::c_integer || g == G::fortran_integer || g == G::byte || g == G::multi_language;
    case OpKind::replace:
    case OpKind::no_op:
    case OpKind::user: return true;
    case OpKind::maxloc:
    case OpKind::minloc: return false;  // pair types only, checked apart
  }
  return false;
}

bool is_pair(const Datatype& t) { return t.pair(); }  // the predefined pair types only

// Two's-complement arithmetic for signed integers (no undefined overflow).
template <typename T>
T wrap_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T wrap_mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

// inout[i] = in[i] op inout[i] over n elements of T, or inout[i] op in[i] when
// Reversed: a loop per operation and orientation, free of branches, so the
// compiler vectorises it (elementwise, nothing reassociated: results are exact).
template <typename T, bool Reversed, typename F>
void apply(const std::byte* in, std::byte* inout, std::int64_t n, F f) {
  constexpr auto size = static_cast<std::int64_t>(sizeof(T));
  for (std::int64_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, in + i * size, sizeof(T));
    std::memcpy(&b, inout + i * size, sizeof(T));
    T r = Reversed ? f(b, a) : f(a, b);
    std::memcpy(inout + i * size, &r, sizeof(T));
  }
}

template <typename T, bool Reversed>
void combine(OpKind k, const std::byte* in, std::byte* inout, std::int64_t n) {
  auto run = [&](auto f) { apply<T, Reversed>(in, inout, n, f); };
  switch (k) {
    case OpKind::max: return run([](T a, T b) { return a > b ? a : b; });
    case OpKind::min: return run([](T a, T b) { return a < b ? a : b; });
    case OpKind::sum: return run([](T a, T b) { return wrap_add(a, b); });
    case OpKind::prod: return run([](T a, T b) { return wrap_mul(a, b); });
    case OpKind::land: return run([](T a, T b) { return static_cast<T>((a != T{}) && (b != T{})); });
    case OpKind::lor: return run([](T a, T b) { return static_cast<T>((a != T{}) || (b != T{})); });
    case OpKind::lxor: return run([](T a, T b) { return static_cast<T>((a != T{}) != (b != T{})); });
    case OpKind::band:
      if constexpr (std::is_integral_v<T>) return run([](T a, T b) { return static_cast<T>(a & b); });
      return;
    case OpKind::bor:
      if constexpr (std::is_integral_v<T>) return run([](T a, T b) { return static_cast<T>(a | b); });
      return;
    case OpKind::bxor:
      if constexpr (std::is_integral_v<T>) return run([](T a, T b) { return static_cast<T>(a ^ b); });
      return;
    case OpKind::replace: return run([](T a, T) { return a; });
    case OpKind::no_op:
    default: return;  // inout stays (MPI_NO_OP; user and pair operations never come here)
  }
}

// Dispatches on the basic type's C type.
template <typename F>
void with_c_type(const BasicType& b, F&& f) {
  if (b.kind == ElementKind::floating) {
    if (b.size == 4) return f(float{});
    if (b.size == 8) return f(double{});
    return f(static_cast<long double>(0));
  }
  if (b.kind == ElementKind::boolean && b.size == 1) return f(bool{});  // C's _Bool, C++'s bool
  // A Fortran LOGICAL is an integer of its size: .TRUE. is 1, .FALSE. 0 (gfortran).
  bool is_signed = b.kind == ElementKind::signed_int || b.kind == ElementKind::boolean;
  switch (b.size) {
    case 1: return is_signed ? f(std::int8_t{}) : f(std::uint8_t{});
    case 2: return is_signed ? f(std::int16_t{}) : f(std::uint16_t{});
    case 4: return is_signed ? f(std::int32_t{}) : f(std::uint32_t{});
    default: return is_signed ? f(std::int64_t{}) : f(std::uint64_t{});
  }
}

// SUM and PROD on complex numbers (the only operations defined on them), REPLACE
// and NO_OP.
template <typename R, bool Reversed>
void combine_complex(OpKind k, const std::byte* in, std::byte* inout, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    std::complex<R> a, b;
    std::memcpy(&a, in + i * static_cast<std::int64_t>(sizeof a), sizeof a);
    std::memcpy(&b, inout + i * static_cast<std::int64_t>(sizeof b), sizeof b);
    if (Reversed) std::swap(a, b);
    std::complex<R> r = k == OpKind::sum ? a + b : k == OpKind::prod ? a * b : k == OpKind::replace ? a : b;
    std::memcpy(inout + i * static_cast<std::int64_t>(sizeof r), &r, sizeof r);
  }
}

// MAXLOC/MINLOC on packed (value, int) pairs (MPI-4.1 §6.9.4): the extreme value;
// on a tie, the smaller index.
template <typename V, typename I, bool Reversed>
void combine_loc(bool max, const std::byte* in, std::byte* inout, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(sizeof(V) + sizeof(I));
  for (std::int64_t i = 0; i < n; ++i) {
    V a, b;
    I ia, ib;
    std::memcpy(&a, in + i * stride, sizeof(V));
    std::memcpy(&ia, in + i * stride + static_cast<std::int64_t>(sizeof(V)), sizeof(I));
    std::memcpy(&b, inout + i * stride, sizeof(V));
    std::memcpy(&ib, inout + i * stride + static_cast<std::int64_t>(sizeof(V)), sizeof(I));
    if (Reversed) std::swap(a, b), std::swap(ia, ib);
    bool take_a = max ? (a > b) : (a < b);
    if (a == b) take_a = ia < ib;
    if (!take_a) a = b, ia = ib;
    std::memcpy(inout + i * stride, &a, sizeof(V));
    std::memcpy(inout + i * stride + static_cast<std::int64_t>(sizeof(V)), &ia, sizeof(I));
  }
}

void matrix_product_2x2(const std::byte* in, std::byte* inout, std::int64_t count, const Datatype& type) {
  std::int64_t ints = count * type.size() / 4;
  for (std::int64_t m = 0; m + 4 <= ints; m += 4) {
    std::int32_t a[4], b[4], c[4];
    std::memcpy(a, in + m * 4, 16);
    std::memcpy(b, inout + m * 4, 16);
    c[0] = wrap_add(wrap_mul(a[0], b[0]), wrap_mul(a[1], b[2]));
    c[1] = wrap_add(wrap_mul(a[0], b[1]), wrap_mul(a[1], b[3]));
    c[2] = wrap_add(wrap_mul(a[2], b[0]), wrap_mul(a[3], b[2]));
    c[3] = wrap_add(wrap_mul(a[2], b[1]), wrap_mul(a[3], b[3]));
    std::memcpy(inout + m * 4, c, 16);
  }
}

void absolute_max(const std::byte* in, std::byte* inout, std::int64_t count, const Datatype& type) {
  std::int64_t offset = 0;
  for (std::int64_t e = 0; e < count; ++e)
    for (const SignatureRun& r : type.signature()) {
      const BasicType& b = basic_type(r.basic);
      if (b.kind == ElementKind::complex) {
        offset += r.count * b.size;  // documented: absolute_max leaves complex elements as they are
        continue;
      }
      with_c_type(b, [&](auto zero) {
        using T = decltype(zero);
        for (std::int64_t i = 0; i < r.count; ++i, offset += b.size) {
          T x, y;
          std::memcpy(&x, in + offset, sizeof(T));
          std::memcpy(&y, inout + offset, sizeof(T));
          auto mag = [](T v) { if constexpr (std::is_signed_v<T>) return v < 0 ? -v : v; else return v; };
          if (mag(x) > mag(y)) std::memcpy(inout + offset, &x, sizeof(T));
        }
      });
    }
}

}  // namespace

void null_op(const char* argument) {
  throw MpiError(ErrorClass::op, argument, "MPI_OP_NULL is not an operation",
                 "MPI-4.1 §6.9.2: op must be a predefined or a user-defined operation");
}

OpRef predefined_op(std::string_view name) {
  static const std::map<std::string_view, OpRef> ops = [] {
    std::map<std::string_view, OpRef> m;
    const std::pair<const char*, OpKind> table[] = {
        {"MPI_MAX", OpKind::max},   {"MPI_MIN", OpKind::min},       {"MPI_SUM", OpKind::sum},
        {"MPI_PROD", OpKind::prod}, {"MPI_LAND", OpKind::land},     {"MPI_BAND", OpKind::band},
        {"MPI_LOR", OpKind::lor},   {"MPI_BOR", OpKind::bor},       {"MPI_LXOR", OpKind::lxor},
        {"MPI_BXOR", OpKind::bxor}, {"MPI_MAXLOC", OpKind::maxloc}, {"MPI_MINLOC", OpKind::minloc},
        {"MPI_REPLACE", OpKind::replace}, {"MPI_NO_OP", OpKind::no_op}};
    for (const auto& [n, k] : table) m.emplace(n, std::make_shared<const Op>(Op{n, k, true, nullptr, ""}));
    return m;
  }();
  auto it = ops.find(name);
  return it == ops.end() ? nullptr : it->second;
}

UserFunction user_function(std::string_view name) {
  if (name == "matrix_product_2x2") return &matrix_product_2x2;
  if (name == "absolute_max") return &absolute_max;
  return nullptr;
}

OpRef make_user_op(std::string name, std::string_view function, bool commute) {
  UserFunction f = user_function(function);
  if (!f) return nullptr;
  return std::make_shared<const Op>(Op{std::move(name), OpKind::user, commute, f, std::string(function)});
}

void check_op_type(const Op& op, const Datatype& type, std::int64_t count, const char* argument) {
  constexpr const char* rule = "MPI-4.1 §6.9.2: each predefined operation is defined only on the basic types its table lists";
  if (op.kind == OpKind::maxloc || op.kind == OpKind::minloc) {
    if (is_pair(type)) return;
    throw MpiError(ErrorClass::op, argument,
                   op.name + " needs a pair type (MPI_2INT, MPI_DOUBLE_INT, ...), not " + type.name(),
                   "MPI-4.1 §6.9.4: MPI_MAXLOC and MPI_MINLOC act on the pair types");
  }
  if (op.kind == OpKind::user) {
    if (op.function == &matrix_product_2x2 && (type.uniform_basic() == nullptr ||
                                              std::string_view(type.uniform_basic()->name) != "MPI_INT" ||
                                              (count * type.basic_count()) % 4 != 0))
      throw MpiError(ErrorClass::op, argument,
                     "matrix_product_2x2 combines 2x2 matrices of MPI_INT: the data must be 4k ints, not " +
                         std::to_string(count) + " x " + type.name(),
                     "docs/semantics.md: the user functions scenarios can name");
    return;
  }
  if (type.contains_pair())
    throw MpiError(ErrorClass::op, argument,
                   op.name + " is not defined on " + type.name() +
                       (type.pair() ? ", a pair type" : ", a datatype built from pair types") +
                       ": only MPI_MAXLOC and MPI_MINLOC act on the pair types",
                   "MPI-4.1 §6.9.4: the pair types are for MPI_MAXLOC and MPI_MINLOC; §6.9.2 lists no other op on them");
  for (const SignatureRun& r : type.signature()) {
    const BasicType& b = basic_type(r.basic);
    if (!allowed(op.kind, b.group))
      throw MpiError(ErrorClass::op, argument, op.name + " is not defined on " + std::string(b.name), rule);
  }
}

namespace {

// The predefined operations on `count` elements of t at in and inout (contiguous,
// packed layout): inout = in op inout, or inout op in when Reversed. A type of one
// basic type runs as one loop over all its elements.
template <bool Reversed>
void reduce_predefined(const Op& op, const Datatype& t, std::int64_t count, const std::byte* a, std::byte* b) {
  if (op.kind == OpKind::maxloc || op.kind == OpKind::minloc) {
    // A pair of (value, index): (V, int) in C, two of one type in Fortran.
    const auto& sig = t.signature();
    const BasicType& v = basic_type(sig[0].basic);
    const BasicType& index = basic_type(sig.size() > 1 ? sig[1].basic : sig[0].basic);
    const bool max = op.kind == OpKind::maxloc;
    with_c_type(v, [&](auto value) {
      with_c_type(index, [&](auto ix) { combine_loc<decltype(value), decltype(ix), Reversed>(max, a, b, count); });
    });
    return;
  }
  auto run = [&](const BasicType& bt, std::int64_t offset, std::int64_t n) {
    if (bt.kind == ElementKind::complex) {
      if (bt.size == 8) combine_complex<float, Reversed>(op.kind, a + offset, b + offset, n);
      else if (bt.size == 16) combine_complex<double, Reversed>(op.kind, a + offset, b + offset, n);
      else combine_complex<long double, Reversed>(op.kind, a + offset, b + offset, n);
      return;
    }
    with_c_type(bt, [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_same_v<T, bool>) {
        if (op.kind == OpKind::land || op.kind == OpKind::lor || op.kind == OpKind::lxor ||
            op.kind == OpKind::replace || op.kind == OpKind::no_op)
          combine<bool, Reversed>(op.kind, a + offset, b + offset, n);
      } else {
        combine<T, Reversed>(op.kind, a + offset, b + offset, n);
      }
    });
  };
  if (const BasicType* u = t.uniform_basic()) {
    run(*u, 0, count * (t.size() / u->size));
    return;
  }
  std::int64_t offset = 0;
  const auto& sig = t.signature();
  for (std::int64_t e = 0; e < count; ++e)
    for (const SignatureRun& r : sig) {
      const BasicType& bt = basic_type(r.basic);
      run(bt, offset, r.count);
      offset += r.count * bt.size;
    }
}

// The host bytes of b's first `bytes` bytes when they are one contiguous run in
// memory that holds data (b's type is dense); null otherwise.
std::byte* contiguous(const TypedBuffer& b, std::int64_t bytes) {
  if (!b.type->dense()) return nullptr;
  return host_bytes(*b.memory, b.addr + b.type->lb(), bytes);
}

}  // namespace

void reduce_packed(const Op& op, const Datatype& t, std::int64_t count, const std::byte* in, std::byte* inout,
                   std::int64_t rank) {
  if (count == 0 || t.size() == 0) return;
  if (op.kind == OpKind::user) {
    if (op.foreign) op.foreign(op, in, inout, count, t, rank);
    else op.function(in, inout, count, t);
    return;
  }
  reduce_predefined<false>(op, t, count, in, inout);
}

bool reduce_pair(const Op& op, const TypedBuffer& x, bool x_first, const TypedBuffer& y, bool y_first) {
  const Datatype& t = *x.type;
  const std::int64_t size = t.size();
  const std::int64_t bytes = x.count * size;
  constexpr std::int64_t kChunk = 16 << 10;  // the saved part of x stays in the first-level cache
  if (op.kind == OpKind::user || y.type != x.type || y.count != x.count || size == 0 || size > kChunk) return false;
  std::byte* a = contiguous(x, bytes);
  std::byte* b = a ? contiguous(y, bytes) : nullptr;
  if (b == nullptr || !(a + bytes <= b || b + bytes <= a)) return false;
  alignas(64) std::byte saved[kChunk];
  const std::int64_t per = kChunk / size;
  for (std::int64_t done = 0; done < x.count; done += per) {
    const std::int64_t n = std::min(per, x.count - done);
    std::byte* xa = a + done * size;
    std::byte* yb = b + done * size;
    std::memcpy(saved, xa, static_cast<std::size_t>(n * size));
    if (x_first) reduce_predefined<true>(op, t, n, yb, xa);
    else reduce_predefined<false>(op, t, n, yb, xa);
    if (y_first) reduce_predefined<true>(op, t, n, saved, yb);
    else reduce_predefined<false>(op, t, n, saved, yb);
  }
  return true;
}

void reduce_into(const Op& op, const TypedBuffer& in, const TypedBuffer& base, const TypedBuffer& out,
                 bool base_first) {
  const Datatype& t = *in.type;
  const std::int64_t size = t.size();
  const std::int64_t bytes = in.count * size;
  if (bytes == 0) return;
  constexpr std::int64_t kChunk = 16 << 10;  // each chunk of base copied to out is reduced while in the first-level cache
  if (op.kind != OpKind::user && base.type == &t && out.type == &t && size <= kChunk) {
    const std::byte* a = contiguous(in, bytes);
    const std::byte* b = a ? contiguous(base, bytes) : nullptr;
    std::byte* o = b ? contiguous(out, bytes) : nullptr;
    auto apart = [bytes](const std::byte* x, const std::byte* y) { return x + bytes <= y || y + bytes <= x; };
    if (o && apart(a, o) && apart(b, o)) {
      const std::int64_t per = kChunk / size;
      for (std::int64_t done = 0; done < in.count; done += per) {
        const std::int64_t n = std::min(per, in.count - done);
        std::memcpy(o + done * size, b + done * size, static_cast<std::size_t>(n * size));
        if (base_first) reduce_predefined<true>(op, t, n, a + done * size, o + done * size);
        else reduce_predefined<false>(op, t, n, a + done * size, o + done * size);
      }
      return;
    }
  }
  copy_typed(base, out, bytes);
  reduce_local(op, in, out, base_first);
}

void reduce_local(const Op& op, const TypedBuffer& in, const TypedBuffer& inout, bool inout_first) {
  const Datatype& t = *in.type;
  const std::int64_t bytes = in.count * t.size();
  if (bytes == 0) return;
  if (op.kind != OpKind::user) {
    // In place on the buffers themselves when both are contiguous and distinct.
    const std::byte* a = contiguous(in, bytes);
    std::byte* b = a ? contiguous(inout, bytes) : nullptr;
    if (b && (a == b || a + bytes <= b || b + bytes <= a)) {
      if (inout_first) reduce_predefined<true>(op, t, in.count, a, b);
      else reduce_predefined<false>(op, t, in.count, a, b);
      return;
    }
  }
  auto a = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
  auto b = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
  pack(in, bytes, a.get());
  pack(inout, bytes, b.get());
  // The rank whose buffer inout is: in host memory (a C program), its owner.
  const std::int64_t rank = inout.memory && inout.memory->host() ? inout.memory->host_rank() : -1;
  if (inout_first) {
    reduce_packed(op, t, in.count, b.get(), a.get(), rank);
    unpack(a.get(), bytes, inout);
  } else {
    reduce_packed(op, t, in.count, a.get(), b.get(), rank);
    unpack(b.get(), bytes, inout);
  }
}

}  // namespace mpisim::mpi
