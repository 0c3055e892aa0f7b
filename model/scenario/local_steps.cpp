// The steps that make no call, apart from show: buffers (declared and initialised) and expect.
#include "model/scenario/executor.hpp"

#include <algorithm>
#include <functional>
#include <cmath>
#include <cstring>

namespace mpisim::scenario::exec {

double floating_at(const std::byte* p, std::int64_t size) {
  if (size == 4) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (size == 8) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  long double ld;
  std::memcpy(&ld, p, sizeof ld);
  return static_cast<double>(ld);
}

std::int64_t element_as_int(const mpi::Allocation& a, std::int64_t i, bool* integral) {
  const mpi::BasicType& b = *a.type->basic();
  const std::byte* p = a.data.get() + i * b.size;
  *integral = true;
  switch (b.kind) {
    case mpi::ElementKind::complex: {
      double re = floating_at(p, b.size / 2), im = floating_at(p + b.size / 2, b.size / 2);
      *integral = im == 0 && re == std::floor(re) && std::fabs(re) < 9e18;
      return *integral ? static_cast<std::int64_t>(re) : 0;
    }
    case mpi::ElementKind::floating: {
      double d = floating_at(p, b.size);
      *integral = d == std::floor(d) && std::fabs(d) < 9e18;
      return *integral ? static_cast<std::int64_t>(d) : 0;
    }
    case mpi::ElementKind::unsigned_int:
    case mpi::ElementKind::byte:
    case mpi::ElementKind::boolean: {
      std::uint64_t u = 0;
      std::memcpy(&u, p, static_cast<std::size_t>(b.size));
      return static_cast<std::int64_t>(u);
    }
    case mpi::ElementKind::signed_int: {
      if (b.size == 1) { std::int8_t v; std::memcpy(&v, p, 1); return v; }
      if (b.size == 2) { std::int16_t v; std::memcpy(&v, p, 2); return v; }
      if (b.size == 4) { std::int32_t v; std::memcpy(&v, p, 4); return v; }
      std::int64_t v; std::memcpy(&v, p, 8); return v;
    }
  }
  return 0;
}

std::vector<double> reals_of(const mpi::Allocation& a, const std::string& name) {
  const mpi::BasicType& b = *a.type->basic();
  std::vector<double> out(static_cast<std::size_t>(a.count));
  for (std::int64_t i = 0; i < a.count; ++i) {
    const std::byte* p = a.data.get() + i * b.size;
    double d = 0;
    if (b.kind == mpi::ElementKind::complex) {
      if (floating_at(p + b.size / 2, b.size / 2) != 0)
        throw StepError("buffer '" + name + "' element " + std::to_string(i) +
                        " has an imaginary part; expressions read real numbers");
      d = floating_at(p, b.size / 2);
    } else if (b.kind == mpi::ElementKind::floating) {
      d = floating_at(p, b.size);
    } else {
      bool integral = true;
      d = static_cast<double>(element_as_int(a, i, &integral));
    }
    if (!std::isfinite(d))
      throw StepError("buffer '" + name + "' element " + std::to_string(i) +
                      " is not a finite number; expressions read finite numbers");
    out[static_cast<std::size_t>(i)] = d;
  }
  return out;
}

void store_real(mpi::Allocation& a, std::int64_t i, double v, const std::string& init) {
  const mpi::BasicType& b = *a.type->basic();
  std::byte* p = a.data.get() + i * b.size;
  std::int64_t part = b.size;
  if (b.kind == mpi::ElementKind::complex) {  // the real part; the imaginary part is zero
    std::memset(p, 0, static_cast<std::size_t>(b.size));
    part = b.size / 2;
  } else if (b.kind != mpi::ElementKind::floating) {
    throw StepError("in the init expression \"" + init + "\": the real " + Value::of_real(v).to_string() +
                    " for an element of " + std::string(b.name) + ", an integer type (int() truncates a real)");
  }
  if (part == 4) {
    const auto f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
  } else if (part == 8) {
    std::memcpy(p, &v, 8);
  } else {
    const auto ld = static_cast<long double>(v);
    std::memcpy(p, &ld, sizeof ld);
  }
}

void store_element(mpi::Allocation& a, std::int64_t i, std::int64_t v) {
  const mpi::BasicType& b = *a.type->basic();
  std::byte* p = a.data.get() + i * b.size;
  if (b.kind == mpi::ElementKind::complex) {
    // The real part; the imaginary part is zero.
    std::memset(p, 0, static_cast<std::size_t>(b.size));
    const std::int64_t half = b.size / 2;
    if (half == 4) { float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
    else if (half == 8) { double d = static_cast<double>(v); std::memcpy(p, &d, 8); }
    else { long double ld = static_cast<long double>(v); std::memcpy(p, &ld, sizeof ld); }
    return;
  }
  if (b.kind == mpi::ElementKind::floating) {
    if (b.size == 4) { float f = static_cast<float>(v); std::memcpy(p, &f, 4); }
    else if (b.size == 8) { double d = static_cast<double>(v); std::memcpy(p, &d, 8); }
    else { long double ld = static_cast<long double>(v); std::memcpy(p, &ld, sizeof ld); }
    return;
  }
  std::memcpy(p, &v, static_cast<std::size_t>(b.size));  // little-endian: the low bytes
}

void write_element_json(sim::JsonWriter& w, const mpi::Allocation& a, std::int64_t i) {
  const mpi::BasicType& b = *a.type->basic();
  if (b.kind == mpi::ElementKind::floating) {
    w.value(floating_at(a.data.get() + i * b.size, b.size));
    return;
  }
  if (b.kind == mpi::ElementKind::complex) {
    const std::byte* p = a.data.get() + i * b.size;
    w.begin_array().value(floating_at(p, b.size / 2)).value(floating_at(p + b.size / 2, b.size / 2)).end_array();
    return;
  }
  bool integral = true;
  w.value(element_as_int(a, i, &integral));
}

namespace {

// i's value, then the rank's other names, for the scalar evaluator of an init.
struct InitNames {
  std::pair<Executor*, RankEnv*> rank;
  NameId i_id;
  std::int64_t i = 0;
  bool (*names)(void*, std::uint32_t, std::int64_t*);
};
bool init_name(void* c, std::uint32_t id, std::int64_t* out) {
  auto* x = static_cast<InitNames*>(c);
  if (id == x->i_id) {
    *out = x->i;
    return true;
  }
  return x->names(&x->rank, id, out);
}

// Elements 0 .. count-1 set to a*i + b (no sum overflows: the caller checked
// both ends, and an affine function lies between them).
// Kept out of line: inlined into declare_buffer its loops are not vectorised as well.
[[gnu::noinline]] void fill_affine(mpi::Allocation& al, std::int64_t count, std::int64_t a, std::int64_t b) {
  const mpi::BasicType& t = *al.type->basic();
  const bool integral = t.kind == mpi::ElementKind::signed_int || t.kind == mpi::ElementKind::unsigned_int ||
                        t.kind == mpi::ElementKind::byte || t.kind == mpi::ElementKind::boolean;
  // The low bytes of each value, as store_element keeps them, in a loop the
  // compiler vectorises.
  // The low bits of a*i + b depend only on the low bits of a, i and b, so the
  // arithmetic runs in the narrowest unsigned width that holds an element (at
  // least 32 bits, so no promotion to int can overflow): more lanes per vector.
  auto fill = [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    using W = std::conditional_t<sizeof(T) <= 4, std::uint32_t, std::uint64_t>;
    const auto ua = static_cast<W>(static_cast<std::uint64_t>(a)), ub = static_cast<W>(static_cast<std::uint64_t>(b));
    for (std::int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(ua * static_cast<W>(i) + ub);
  };
  if (integral && t.size == 1) return fill(reinterpret_cast<std::uint8_t*>(al.data.get()));
  if (integral && t.size == 2) return fill(reinterpret_cast<std::uint16_t*>(al.data.get()));
  if (integral && t.size == 4) return fill(reinterpret_cast<std::uint32_t*>(al.data.get()));
  if (integral && t.size == 8) return fill(reinterpret_cast<std::uint64_t*>(al.data.get()));
  if (t.kind == mpi::ElementKind::floating && (t.size == 4 || t.size == 8)) {
    // When |a|·(count-1) + |b| < 2^53 every product and sum is an integer that a
    // double holds exactly, so b + a·i computed in doubles is the exact value, and
    // its one conversion rounds it as store_element's does. An int index converts
    // to double in vector lanes.
    constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
    const std::uint64_t ua = a < 0 ? 0 - static_cast<std::uint64_t>(a) : static_cast<std::uint64_t>(a);
    const std::uint64_t ub = b < 0 ? 0 - static_cast<std::uint64_t>(b) : static_cast<std::uint64_t>(b);
    const auto span = static_cast<std::uint64_t>(count > 1 ? count - 1 : 0);
    if (count <= INT32_MAX && ub < kExact && (span == 0 || ua <= (kExact - 1 - ub) / span)) {
      const double da = static_cast<double>(a), db = static_cast<double>(b);
      const auto n = static_cast<std::int32_t>(count);
      auto fill_real = [&](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        for (std::int32_t i = 0; i < n; ++i) p[i] = static_cast<T>(db + da * static_cast<double>(i));
      };
      if (t.size == 8) return fill_real(reinterpret_cast<double*>(al.data.get()));
      return fill_real(reinterpret_cast<float*>(al.data.get()));
    }
  }
  for (std::int64_t i = 0; i < count; ++i) store_element(al, i, a * i + b);
}

// Elements first .. first+n-1 set to values[0 .. n-1], as store_element sets them.
void store_block(mpi::Allocation& al, std::int64_t first, int n, const std::int64_t* values) {
  const mpi::BasicType& t = *al.type->basic();
  const bool integral = t.kind == mpi::ElementKind::signed_int || t.kind == mpi::ElementKind::unsigned_int ||
                        t.kind == mpi::ElementKind::byte || t.kind == mpi::ElementKind::boolean;
  auto store = [&](auto* p) {
    using T = std::remove_pointer_t<decltype(p)>;
    for (int k = 0; k < n; ++k) p[first + k] = static_cast<T>(static_cast<std::uint64_t>(values[k]));
  };
  if (integral && t.size == 1) return store(reinterpret_cast<std::uint8_t*>(al.data.get()));
  if (integral && t.size == 2) return store(reinterpret_cast<std::uint16_t*>(al.data.get()));
  if (integral && t.size == 4) return store(reinterpret_cast<std::uint32_t*>(al.data.get()));
  if (integral && t.size == 8) return store(reinterpret_cast<std::uint64_t*>(al.data.get()));
  for (int k = 0; k < n; ++k) store_element(al, first + k, values[k]);
}

}  // namespace

void Executor::declare_buffer(RankEnv& env, const Step& s) {
  std::int64_t count = eval_int(env, *s.count);
  if (count < 0) throw StepError("buffer '" + names_.str(s.name) + "' has a negative count " + std::to_string(count));
  mpi::Memory& mem = world_.rank(env.rank).memory();
  if (allocation(env, s.name)) throw StepError("buffer '" + names_.str(s.name) + "' is declared twice on this rank");
  Address at = mem.allocate(&names_.str(s.name), s.type, count, cfg_.payload);
  mpi::Allocation* a = mem.find(at, 0);
  if (!a || !a->data) return;
  if (!s.init) return;
  if (s.init->free_names().empty()) {
    const Value v = eval(env, *s.init);
    if (!v.is_real && !v.is_array) {
      fill_affine(*a, count, 0, v.scalar);
      return;
    }
    if (v.is_array) throw StepError("in the init expression \"" + s.init->text() + "\": an array where a number is expected");
    for (std::int64_t k = 0; k < count; ++k) store_real(*a, k, v.real, s.init->text());
    return;
  }
  const NameId i_id = names_.intern("i");
  // The fast paths: an init affine in i is a fill at memory speed; any other that
  // the scalar evaluator takes runs without building values. Both give what the
  // general evaluation below gives, errors included (they fall back to it).
  InitNames names{{this, &env}, i_id, 0, &scalar_name};
  builtins_[Names::rank] = env.rank;
  const ScalarLookup lookup{&names, &init_name, builtins_.data(), i_id < Names::builtin_count ? 0u : Names::builtin_count};
  std::int64_t ka = 0, kb = 0;
  if (count > 0 && s.init->affine_in(i_id, lookup, &ka, &kb)) {
    // Both ends evaluated as usual: no overflow there means none in between.
    std::int64_t first = 0, last = 0, expect_last = 0;
    bool ends = false;
    try {
      names.i = 0;
      ends = s.init->eval_scalar(lookup, &first);
      names.i = count - 1;
      ends = ends && s.init->eval_scalar(lookup, &last);
    } catch (const ExprError&) {
      ends = false;  // the general loop reports it at its element
    }
    if (ends && first == kb && !__builtin_mul_overflow(ka, count - 1, &expect_last) &&
        !__builtin_add_overflow(expect_last, kb, &expect_last) && last == expect_last) {
      fill_affine(*a, count, ka, kb);
      return;
    }
  }
  // Every name but i keeps its value through the loop: read once into a table by
  // id, which the scalar evaluator reads directly (i's entry set per element).
  std::vector<std::int64_t> direct(builtins_.begin(), builtins_.end());
  bool scalars = i_id <= (1u << 16);
  if (scalars && i_id >= direct.size()) direct.resize(i_id + 1, 0);  // i's entry, read or not
  for (const std::string& n : s.init->free_names()) {
    const std::optional<NameId> id = names_.find(n);
    if (!id || *id > (1u << 16)) {
      scalars = false;
      break;
    }
    if (*id >= direct.size()) direct.resize(*id + 1, 0);
    if (*id != i_id && *id >= Names::builtin_count && !scalar_name(&names.rank, *id, &direct[*id])) scalars = false;
  }
  const ScalarLookup table{nullptr, [](void*, std::uint32_t, std::int64_t*) { return false; }, direct.data(),
                           static_cast<std::uint32_t>(direct.size())};
  std::int64_t i = 0;
  try {
    std::int64_t block[Expr::kBlock];
    while (i < count) {
      const int n = static_cast<int>(std::min<std::int64_t>(Expr::kBlock, count - i));
      if (scalars && s.init->eval_block(table, i_id, i, n, block)) {
        store_block(*a, i, n, block);
        i += n;
        continue;
      }
      const std::int64_t end = i + n;  // this block element by element, to report what fails
      for (; i < end; ++i) {
        names.i = i;
        std::int64_t v = 0;
        if (scalars) {
          direct[i_id] = i;
          if (!s.init->eval_scalar(table, &v)) break;
        } else if (!s.init->eval_scalar(lookup, &v)) {
          break;
        }
        store_element(*a, i, v);
      }
      if (i < end) break;
    }
  } catch (const ExprError& x) {
    throw StepError("in the init expression \"" + s.init->text() + "\": " + x.what());
  }
  if (i == count) return;
  auto base = lookup_for(env);
  auto with_i = [&](std::string_view n, std::uint32_t id) -> std::optional<Value> {
    if (id == i_id) return Value::of(i);
    return base(n, id);
  };
  for (; i < count; ++i) {
    Value v;
    try {
      v = s.init->eval(with_i);
    } catch (const ExprError& x) {
      throw StepError("in the init expression \"" + s.init->text() + "\": " + x.what());
    }
    if (v.is_array) throw StepError("in the init expression \"" + s.init->text() + "\": an array where a number is expected");
    if (v.is_real) store_real(*a, i, v.real, s.init->text());
    else store_element(*a, i, v.scalar);
  }
}

void Executor::expect(RankEnv& env, const Step& s) {
  auto failed = [&](const std::string& what) {
    sim::Diagnostic d;
    d.severity = "error";
    d.code = "EXPECT_FAILED";
    d.process = env.rank;
    d.step = index_of(s);
    d.message = (s.message.empty() ? "" : s.message + ": ") + what + " (" + s.path + ")";
    d.time = world_.engine().now();
    result_.trace.record_diagnostic(std::move(d));
  };
  if (s.expect_true) {
    if (eval_int(env, *s.expect_true) == 0) failed("expected \"" + s.expect_true->text() + "\" to hold");
    return;
  }
  auto lk = lookup_for(env);
  for (const auto& [id, e] : s.expect_values) {
    std::optional<Value> actual;
    try {
      actual = lk(names_.str(id), id);
    } catch (const ExprError& x) {
      throw StepError(x.what());
    }
    if (!actual) throw StepError("expect: '" + names_.str(id) + "' is neither a buffer nor a value on this rank");
    Value want = eval(env, e);
    // Exact by default; within "tolerance" (|actual - want| <= tolerance, element
    // by element) when the step gives one.
    auto element = [](const Value& v, std::size_t i) {
      return v.is_real ? Value::of_real(v.as_real(i)) : Value::of(v.is_array ? v.array[i] : v.scalar);
    };
    auto same = [&](const Value& a, const Value& b) {
      if (!s.tolerance) return a == b;
      return std::fabs(a.as_real() - b.as_real()) <= *s.tolerance;
    };
    bool equal = actual->is_array == want.is_array && actual->size() == want.size();
    const std::size_t n = actual->is_array ? actual->size() : 1;
    std::size_t first = n;
    for (std::size_t i = 0; equal && i < n; ++i)
      if (!same(element(*actual, i), element(want, i))) {
        equal = false;
        first = i;
      }
    if (equal) continue;
    std::string what = names_.str(id) + " is " + abbreviate(*actual) + ", expected " + abbreviate(want);
    if (actual->is_array && first < n)
      what = names_.str(id) + "[" + std::to_string(first) + "] is " + element(*actual, first).to_string() +
             ", expected " + element(want, first).to_string();
    if (s.tolerance) what += " (tolerance " + Value::of_real(*s.tolerance).to_string() + ")";
    failed(what);
  }
}

std::string Executor::abbreviate(const Value& v) {
  if (!v.is_array || v.size() <= 8) return v.to_string();
  std::string s = "[";
  for (std::size_t i = 0; i < 6; ++i)
    s += (v.is_real ? Value::of_real(v.reals[i]).to_string() : std::to_string(v.array[i])) + ", ";
  return s + "... (" + std::to_string(v.size()) + " elements)]";
}

}  // namespace mpisim::scenario::exec
