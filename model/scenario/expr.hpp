#pragma once
// The scenario expression language (docs/scenario-format.md, "Expressions").
//
// Arithmetic with C precedence (+ - * / % , comparisons, && || !, ?:) on 64-bit
// integers and IEEE doubles (a real operand makes the operation real, as in C),
// names bound by `let`, by output arguments or by the runtime (rank, size),
// functions (min, max, abs, len, int, double, close), arrays: literals [1, 2, 3],
// generators [expr for j in a..b] (b exclusive) and indexing a[i]. Overflow,
// division by zero, a real that is not finite and out-of-range indices are errors,
// never undefined behaviour. An expression is parsed once (errors carry the
// column) and evaluated per rank.
#include <cstdint>
#include <functional>
#include <type_traits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mpisim::scenario {

// A value: a 64-bit integer, an IEEE double ("real"), or an array of one or the
// other. Integers stay integers unless a real enters the computation (as in C).
struct Value {
  bool is_array = false;
  // How the executor prints it: 0 as numbers, else the MPI constants an MPI call's
  // output may stand for (scenario::Naming). Copies keep it; arithmetic drops it.
  std::uint8_t naming = 0;
  std::int64_t scalar = 0;
  std::vector<std::int64_t> array;
  bool is_real = false;  // then `real` (a number) or `reals` (an array) holds it
  double real = 0;
  std::vector<double> reals;

  static Value of(std::int64_t v) {
    Value x;
    x.scalar = v;
    return x;
  }
  static Value of(std::vector<std::int64_t> a) {
    Value x;
    x.is_array = true;
    x.array = std::move(a);
    return x;
  }
  static Value of_real(double d) {
    Value v;
    v.is_real = true;
    v.real = d;
    return v;
  }
  static Value of_reals(std::vector<double> a) {
    Value v;
    v.is_array = v.is_real = true;
    v.reals = std::move(a);
    return v;
  }
  std::size_t size() const { return is_real ? reals.size() : array.size(); }
  // Element i of an array, or the number, as a double.
  double as_real(std::size_t i = 0) const {
    if (is_array) return is_real ? reals[i] : static_cast<double>(array[i]);
    return is_real ? real : static_cast<double>(scalar);
  }
  std::string to_string() const;
  // Numeric equality: 2 == 2.0, [1, 2] == [1.0, 2.0]; an array never equals a number.
  friend bool operator==(const Value& a, const Value& b);
};

class ExprError : public std::runtime_error {
 public:
  ExprError(const std::string& what, int column) : std::runtime_error(what), column_(column) {}
  int column() const { return column_; }  // 1-based; 0 when not tied to a position

 private:
  int column_;
};

// Resolves a name to its value for the rank evaluating; nullopt if unbound. `id`
// is the name's id from the resolver given to Expr::parse (kNoId without one).
inline constexpr std::uint32_t kNoId = 0xffffffffu;
// A non-owning reference to a callable `std::optional<Value>(std::string_view, std::uint32_t)`:
// an indirect call, no allocation. It must not outlive the callable it refers to.
class Lookup {
 public:
  template <typename F>
  Lookup(F& f)  // NOLINT: implicit by design, like std::function_ref
      : ctx_(&f), fn_([](void* c, std::string_view n, std::uint32_t id) -> std::optional<Value> {
          return (*static_cast<F*>(c))(n, id);
        }) {}
  template <typename F>
  Lookup(F&&) = delete;  // a temporary callable would dangle
  std::optional<Value> operator()(std::string_view n, std::uint32_t id) const { return fn_(ctx_, n, id); }

 private:
  void* ctx_;
  std::optional<Value> (*fn_)(void*, std::string_view, std::uint32_t);
};
using NameResolver = std::function<std::uint32_t(std::string_view)>;

// The fast path for integer-only expressions: resolves a name id to a number.
// Returns false when the name is unbound or not a number (the general path then
// decides what to report).
// Names with an id below `direct_count` are read from direct[id] without a call
// (the runtime's own names: rank, size and the constants).
struct ScalarLookup {
  void* ctx;
  bool (*fn)(void* ctx, std::uint32_t id, std::int64_t* out);
  const std::int64_t* direct = nullptr;
  std::uint32_t direct_count = 0;
  bool get(std::uint32_t id, std::int64_t* out) const {
    if (id < direct_count) {
      *out = direct[id];
      return true;
    }
    return fn(ctx, id, out);
  }
};

class Expr {
 public:
  // Throws ExprError with the column of the problem.
  static Expr parse(std::string_view text, const NameResolver& resolve = {});
  static Expr constant(std::int64_t v);

  Value eval(const Lookup& lookup) const;
  // Evaluates an expression made only of numbers, names, and unary, binary and
  // ternary operators on integers, without building Values. Returns false (and
  // leaves *out alone) when the expression or a name's value is not of that kind;
  // throws ExprError for overflow or division by zero, as eval does.
  bool eval_scalar(const ScalarLookup& lookup, std::int64_t* out) const;
  std::int64_t eval_int(const Lookup& lookup) const;
  // eval_scalar at n consecutive values of the name `var` (first, first + 1, ...;
  // n <= kBlock) into out, one pass per operation over the block, the other names
  // read once. Returns false, out undefined, when the expression is not a program
  // of integer operators without ?:, && and || (eval_scalar's linear form), when a
  // name is not a number, or when some element would fail (overflow, division by
  // zero): the caller then evaluates element by element, which reports it.
  static constexpr int kBlock = 256;
  bool eval_block(const ScalarLookup& lookup, std::uint32_t var, std::int64_t first, int n, std::int64_t* out) const;
  // Whether the expression is a*x + b in the name `var` (id from the resolver),
  // every other name a number: numbers, names, unary minus, + and -, and * by a
  // part that does not read var. Gives a and b; false for any other form, or when
  // computing them overflows (the caller then evaluates element by element).
  bool affine_in(std::uint32_t var, const ScalarLookup& lookup, std::int64_t* a, std::int64_t* b) const;
  const std::string& text() const { return text_; }
  // The value of an expression that is a plain number, without evaluating it.
  const std::optional<std::int64_t>& constant_value() const { return constant_; }
  // Names the expression reads (not counting generator variables).
  std::vector<std::string> free_names() const;
  // Whether every name it reads was resolved to an id below limit (true for none).
  bool reads_only_ids_below(std::uint32_t limit) const;
  // Its slot in a per-rank memo of values, or -1. Set by whoever knows the value
  // cannot change for a rank (the scenario parser, for loop bodies that read only
  // rank, size and the MPI constants), so an evaluator may compute it once per rank.
  std::int32_t memo_slot() const { return memo_slot_; }
  void set_memo_slot(std::int32_t slot) { memo_slot_ = slot; }

  struct Node;
  struct Op;     // a compact node of the scalar fast path
  struct LinOp;  // a step of a linear program (no ?: && ||): one opcode each
  static constexpr int kLinearStack = 16;

 private:
  std::string text_;
  std::shared_ptr<const std::vector<Node>> nodes_;
  std::shared_ptr<const std::vector<Op>> ops_;  // null when the fast path does not apply
  std::shared_ptr<const std::vector<LinOp>> linear_;  // ops_ as a program run front to back on a stack, if it is one
  int root_ = 0;
  std::optional<std::int64_t> constant_;
  std::int32_t memo_slot_ = -1;
};

}  // namespace mpisim::scenario
