#include <doctest/doctest.h>

#include "model/scenario/expr.hpp"

using namespace mpisim::scenario;

namespace {
std::optional<Value> vars(std::string_view n, std::uint32_t) {
  if (n == "rank") return Value::of(3);
  if (n == "size") return Value::of(8);
  if (n == "st.MPI_TAG") return Value::of(42);
  if (n == "xs") return Value::of(std::vector<std::int64_t>{5, 6, 7});
  return std::nullopt;
}
auto vars_fn = [](std::string_view n, std::uint32_t id) { return vars(n, id); };
std::int64_t ev(const char* text) { return Expr::parse(text).eval_int(vars_fn); }
Value val(const char* text) { return Expr::parse(text).eval(vars_fn); }
int error_column(const char* text) {
  try {
    Expr::parse(text).eval(vars_fn);
  } catch (const ExprError& e) {
    return e.column();
  }
  return -1;
}
}  // namespace

TEST_CASE("integer arithmetic follows C precedence and truncating division") {
  CHECK(ev("1 + 2 * 3") == 7);
  CHECK(ev("(1 + 2) * 3") == 9);
  CHECK(ev("-7 / 2") == -3);
  CHECK(ev("-7 % 2") == -1);
  CHECK(ev("(rank + 1) % size") == 4);
  CHECK(ev("rank == 3 && size > 4") == 1);
  CHECK(ev("!0 || 0") == 1);
  CHECK(ev("rank < 2 ? 10 : 20") == 20);
  CHECK(ev("st.MPI_TAG") == 42);
  CHECK(ev("min(4, rank, 9)") == 3);
  CHECK(ev("max(xs)") == 7);
  CHECK(ev("len(xs) + abs(-2)") == 5);
  CHECK(ev("xs[1]") == 6);
}

TEST_CASE("arrays: literals and generators with an exclusive upper bound") {
  CHECK(val("[1, 2, 3]") == Value::of(std::vector<std::int64_t>{1, 2, 3}));
  CHECK(val("[j*j for j in 0..4]") == Value::of(std::vector<std::int64_t>{0, 1, 4, 9}));
  CHECK(val("[100 - j for j in 0..size]").array.size() == 8);
  CHECK(val("[]").array.empty());
  CHECK(ev("[1, 2] == [1, 2]") == 1);
}

TEST_CASE("errors carry the column and never overflow silently") {
  CHECK(error_column("1 +") == 4);
  CHECK(error_column("2 $ 3") == 3);
  CHECK(error_column("nosuch + 1") == 1);
  CHECK(error_column("1 / 0") == 3);
  CHECK(error_column("9223372036854775807 + 1") == 21);
  CHECK(error_column("xs[3]") == 3);
  CHECK(error_column("foo(1)") == 1);
  CHECK_THROWS_AS(Expr::parse("99999999999999999999"), ExprError);
  // Found by fuzzing: deep nesting overflowed the parser's stack.
  CHECK_THROWS_AS(Expr::parse(std::string(5000, '[')), ExprError);
  CHECK_THROWS_AS(Expr::parse(std::string(5000, '-') + "1"), ExprError);
  CHECK(ev("((((1))))") == 1);
}

namespace {
// The scalar fast path: names resolved to ids, rank and size read from an array
// (as the executor does), the rest through the callback.
enum : std::uint32_t { id_rank, id_size, id_tag, id_unknown };
std::uint32_t resolve(std::string_view n) {
  return n == "rank" ? id_rank : n == "size" ? id_size : n == "st.MPI_TAG" ? id_tag : id_unknown;
}
bool scalar_name(void*, std::uint32_t id, std::int64_t* out) {
  if (id != id_tag) return false;
  *out = 42;
  return true;
}
const std::int64_t kDirect[] = {3, 8};
const ScalarLookup kScalars{nullptr, &scalar_name, kDirect, 2};

std::optional<std::int64_t> fast(const char* text) {
  std::int64_t v = 0;
  if (!Expr::parse(text, resolve).eval_scalar(kScalars, &v)) return std::nullopt;
  return v;
}
int fast_error_column(const char* text) {
  try {
    fast(text);
  } catch (const ExprError& e) {
    return e.column();
  }
  return -1;
}
}  // namespace

TEST_CASE("the scalar fast path agrees with the evaluator, operands fused or not") {
  for (const char* text : {"(rank + 1) % size", "(rank + size - 1) % size", "rank * 2 + 1", "size / (rank + 1)",
                           "-(rank - size)", "!rank + (size >= 8)", "rank < size", "2 * st.MPI_TAG - rank",
                           "(rank + 1) * (size - 2) % 5", "7 - rank - size", "rank <= 3 ? 1 : 2",
                           "rank == 3 && size > 4", "rank == 3", "(rank != size) + (rank + 5 == size)"}) {
    CAPTURE(std::string(text));
    CHECK(fast(text) == ev(text));
  }
  CHECK(fast("rank + nosuch") == std::nullopt);  // not a scalar this lookup knows: the caller falls back
  CHECK(fast_error_column("rank / 0") == 6);
  CHECK(fast_error_column("size % (rank - 3)") == 6);
  CHECK(fast_error_column("9223372036854775807 + rank") == 21);
}

TEST_CASE("affine forms: a*x + b in one name, the rest numbers") {
  enum : std::uint32_t { r_rank, r_size, r_i, r_k, r_none };
  auto res = [](std::string_view n) -> std::uint32_t {
    return n == "rank" ? r_rank : n == "size" ? r_size : n == "i" ? r_i : n == "k" ? r_k : r_none;
  };
  const std::int64_t direct[] = {3, 8};
  auto named = [](void*, std::uint32_t id, std::int64_t* out) {
    if (id != r_k) return false;
    *out = 5;
    return true;
  };
  const ScalarLookup lookup{nullptr, named, direct, 2};
  auto affine = [&](const char* text) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
    std::int64_t a = 0, b = 0;
    if (!Expr::parse(text, res).affine_in(r_i, lookup, &a, &b)) return std::nullopt;
    return std::pair{a, b};
  };
  CHECK(affine("i") == std::pair<std::int64_t, std::int64_t>{1, 0});
  CHECK(affine("rank * 1000 + i") == std::pair<std::int64_t, std::int64_t>{1, 3000});
  CHECK(affine("k * (i - rank) + size") == std::pair<std::int64_t, std::int64_t>{5, -15 + 8});
  CHECK(affine("-(2 * i) - 7") == std::pair<std::int64_t, std::int64_t>{-2, -7});
  CHECK(affine("42") == std::pair<std::int64_t, std::int64_t>{0, 42});
  CHECK_FALSE(affine("i * i"));          // not affine
  CHECK_FALSE(affine("i % k"));          // another operator: element by element
  CHECK_FALSE(affine("rank < 2 ? i : 0"));
  CHECK_FALSE(affine("unbound + i"));    // a name the lookup does not know
  CHECK_FALSE(affine("9223372036854775807 * 2 + i"));  // overflow computing b
}

TEST_CASE("blocks: eval_block gives eval_scalar's value at every element, or refuses the block") {
  enum : std::uint32_t { r_rank, r_size, r_i, r_k, r_none };
  auto res = [](std::string_view n) -> std::uint32_t {
    return n == "rank" ? r_rank : n == "size" ? r_size : n == "i" ? r_i : n == "k" ? r_k : r_none;
  };
  std::int64_t direct[] = {3, 8, 0, 7};  // rank, size, i (set per element), k
  const ScalarLookup lookup{nullptr, [](void*, std::uint32_t, std::int64_t*) { return false; }, direct, 4};
  // Every element of every block at several starts, negative values and divisors
  // included, against the scalar path.
  for (const char* text : {"rank * 1000 + i % k", "i / k", "i % k", "(i * 3 + rank) % 1000 - 7", "-i / 3",
                           "(i - 600) % 7", "(i - 600) / -7", "i < 100", "!(i % 2) + (i == 5)", "k - i * i",
                           "i / (i % 5 + 1)", "i % (k - 10)", "1000000 / (i + 1)", "i % 4503599627370497",
                           "i * 2251799813685248 / 3"}) {
    const std::string shown = text;
    CAPTURE(shown);
    const Expr e = Expr::parse(text, res);
    int refused = 0;
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{1000}, std::int64_t{-300}, std::int64_t{1} << 40}) {
      CAPTURE(first);
      std::int64_t block[Expr::kBlock];
      const bool ok = e.eval_block(lookup, r_i, first, Expr::kBlock, block);
      int failing = 0;  // elements the scalar path refuses with an error
      for (int k = 0; k < Expr::kBlock; ++k) {
        direct[r_i] = first + k;
        std::int64_t v = 0;
        bool scalar = false;
        try {
          scalar = e.eval_scalar(lookup, &v);
        } catch (const ExprError&) {
          ++failing;
          continue;
        }
        REQUIRE(scalar);
        if (ok) CHECK(block[k] == v);
      }
      CHECK(ok == (failing == 0));
      refused += !ok;
    }
    CHECK(refused <= 1);  // only where the values overflow or divide by zero
  }
  std::int64_t block[Expr::kBlock];
  // A block with a failing element is refused (element by element reports it).
  CHECK_FALSE(Expr::parse("100 / (i - 17)", res).eval_block(lookup, r_i, 0, 64, block));
  CHECK(Expr::parse("100 / (i - 17)", res).eval_block(lookup, r_i, 18, 64, block));
  CHECK_FALSE(Expr::parse("i * 4611686018427387904", res).eval_block(lookup, r_i, 0, 8, block));
  CHECK_FALSE(Expr::parse("-i", res).eval_block(lookup, r_i, INT64_MIN, 2, block));
  // Not the linear form, or a name the lookup does not know: refused.
  CHECK_FALSE(Expr::parse("i < 2 ? i : 0", res).eval_block(lookup, r_i, 0, 8, block));
  CHECK_FALSE(Expr::parse("unbound + i", res).eval_block(lookup, r_i, 0, 8, block));
  CHECK_FALSE(Expr::parse("i", res).eval_block(lookup, r_i, 0, Expr::kBlock + 1, block));
}

TEST_CASE("reals: literals, C's promotion, exact equality with integers, int() and close()") {
  auto v = [](const char* text) {
    auto none = [](std::string_view, std::uint32_t) -> std::optional<Value> { return std::nullopt; };
    return Expr::parse(text).eval(Lookup(none));
  };
  CHECK(v("0.5 + 1") == Value::of_real(1.5));
  CHECK(v("3 / 2") == Value::of(1));          // integers stay integers
  CHECK(v("3 / 2.0") == Value::of_real(1.5));  // a real operand makes it real
  CHECK(v("2.0 == 2") == Value::of(1));
  CHECK(v("[1, 2.5] == [1.0, 2.5]") == Value::of(1));
  CHECK(v("[0.5 * j for j in 0..3]").to_string() == "[0.0, 0.5, 1.0]");
  CHECK(v("int(-2.9)") == Value::of(-2));
  CHECK(v("double(3)").to_string() == "3.0");
  CHECK(v("close(0.1 + 0.2, 0.3, 1e-12)") == Value::of(1));
  CHECK(v("0.1 + 0.2 == 0.3") == Value::of(0));  // exact by default
  CHECK(v("max(1, 2.5, -3)") == Value::of_real(2.5));
  CHECK(v("1e3") == Value::of(1000));
  CHECK_THROWS_AS(v("2.5 % 2"), ExprError);
  CHECK_THROWS_AS(v("1.0 / 0"), ExprError);
  CHECK_THROWS_AS(v("1e308 * 10"), ExprError);
  CHECK_THROWS_AS(v("int(1e300)"), ExprError);
  CHECK_THROWS_AS(Expr::parse("1e400"), ExprError);
  CHECK_THROWS_AS(v("[1, 2][0.5]"), ExprError);
}
