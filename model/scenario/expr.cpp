#include "model/scenario/expr.hpp"
#include "model/scenario/expr_tree.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace mpisim::scenario {


// The scalar fast path walks these instead of the parse tree (LinOp when it is linear).
struct Expr::Op {
  std::uint8_t kind;     // Node::Kind: number, name, unary, binary, ternary
  char code;
  std::int32_t a = -1, b = -1, c = -1;  // operand op indices
  std::int32_t column;
  std::int64_t value;    // number; for a name, its id
};

struct Expr::LinOp {
  enum Code : std::uint8_t { number, name, neg, logical_not, add, sub, mul, div, mod, lt, le, gt, ge, eq, ne };
  // Where a binary operator's right operand comes from: popped off the stack, or
  // (fused with the push that would have preceded it) a number or a name in value.
  enum Operand : std::uint8_t { stack, immediate, named };
  Code code;
  Operand right = stack;
  std::int32_t column;
  std::int64_t value;  // number; for a name, its id; a fused right operand
};

namespace {
std::string number_text(double d) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  std::string t(buf, r.ptr);
  // A real always shows as one: 2.0, not 2.
  if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
  return t;
}
}  // namespace

std::string Value::to_string() const {
  if (!is_array) return is_real ? number_text(real) : std::to_string(scalar);
  std::string s = "[";
  for (std::size_t i = 0; i < size(); ++i)
    s += (i ? ", " : "") + (is_real ? number_text(reals[i]) : std::to_string(array[i]));
  return s + "]";
}

bool operator==(const Value& a, const Value& b) {
  if (a.is_array != b.is_array) return false;
  if (!a.is_real && !b.is_real) return a.is_array ? a.array == b.array : a.scalar == b.scalar;
  // An integer equals a real when the real is that integer exactly.
  auto same = [](const Value& x, const Value& y, std::size_t i) {
    if (x.is_real && y.is_real) return x.as_real(i) == y.as_real(i);
    const Value& r = x.is_real ? x : y;
    const Value& n = x.is_real ? y : x;
    const double d = r.as_real(i);
    const std::int64_t v = n.is_array ? n.array[i] : n.scalar;
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d) &&
           static_cast<std::int64_t>(d) == v;
  };
  if (!a.is_array) return same(a, b, 0);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a, b, i)) return false;
  return true;
}

namespace {

using Node = Expr::Node;


// a op b for the integer operators (one-character codes), with C semantics and
// every overflow or division by zero reported instead of undefined.
[[noreturn, gnu::cold, gnu::noinline]] void binary_failure(char code, std::int64_t a, std::int64_t b, int column) {
  if ((code == '/' || code == '%') && b == 0) throw ExprError("division by zero", column);
  const char* sym = code == '+' ? "+" : code == '-' ? "-" : code == '*' ? "*" : code == '/' ? "/" : code == '%' ? "%" : "";
  if (*sym == 0) throw ExprError("bad operator", column);
  throw ExprError("integer overflow in " + std::to_string(a) + " " + sym + " " + std::to_string(b), column);
}

// Integer operators as C evaluates them, with overflow and division by zero
// reported instead of undefined.
inline std::int64_t apply_binary(char code, std::int64_t a, std::int64_t b, int column) {
  std::int64_t r = 0;
  switch (code) {
    case '+':
      if (__builtin_add_overflow(a, b, &r)) binary_failure(code, a, b, column);
      return r;
    case '-':
      if (__builtin_sub_overflow(a, b, &r)) binary_failure(code, a, b, column);
      return r;
    case '*':
      if (__builtin_mul_overflow(a, b, &r)) binary_failure(code, a, b, column);
      return r;
    case '/':
    case '%':
      if (b == 0 || (a == INT64_MIN && b == -1)) binary_failure(code, a, b, column);
      // A rank shifted by less than the size, as ring neighbours are, needs no
      // division to be reduced.
      if (code == '%' && b > 0 && a >= 0) {
        if (a < b) return a;
        if (a - b < b) return a - b;
      }
      // Ranks and counts fit 32 bits, and a 32-bit division is several times
      // cheaper than a 64-bit one on common CPUs; the result is the same.
      if (a == static_cast<std::int32_t>(a) && b == static_cast<std::int32_t>(b) && b != -1) {
        auto a32 = static_cast<std::int32_t>(a), b32 = static_cast<std::int32_t>(b);
        return code == '/' ? a32 / b32 : a32 % b32;
      }
      return code == '/' ? a / b : a % b;
    case '<': return a < b;
    case 'l': return a <= b;
    case '>': return a > b;
    case 'g': return a >= b;
    case '=': return a == b;
    case '!': return a != b;
    default: binary_failure(code, a, b, column);
  }
}

// A number as the evaluator computes it: an integer or a real.
struct Num {
  bool real = false;
  std::int64_t i = 0;
  double d = 0;
  double as_real() const { return real ? d : static_cast<double>(i); }
  bool truth() const { return real ? d != 0 : i != 0; }
  Value value() const { return real ? Value::of_real(d) : Value::of(i); }
};

// A real result, which must be a finite number (never NaN or an infinity).
double finite(double d, int column) {
  if (!std::isfinite(d)) throw ExprError("the result is not a finite number (a real overflowed, or 0/0)", column);
  return d;
}

class Evaluator {
 public:
  Evaluator(const std::vector<Node>& nodes, const Lookup& lookup) : nodes_(nodes), lookup_(lookup) {}

  Value eval(int i) {
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    switch (n.kind) {
      case Node::number: return Value::of(n.value);
      case Node::real: return Value::of_real(n.real_value);
      case Node::name: {
        for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
          if (it->first == n.op) return Value::of(it->second);
        auto v = lookup_(n.op, n.id);
        if (!v) throw ExprError("unknown name '" + n.op + "'", n.column);
        return *v;
      }
      case Node::unary: return num(i, "the operand").value();
      case Node::binary:
        if (n.code == '=' || n.code == '!') {
          Value a = eval(n.kids[0]), b = eval(n.kids[1]);
          return Value::of((n.code == '=') == (a == b) ? 1 : 0);
        }
        return num(i, "the operand").value();
      case Node::ternary: return num(n.kids[0], "condition").truth() ? eval(n.kids[1]) : eval(n.kids[2]);
      case Node::call: return call(n);
      case Node::array: {
        std::vector<Num> xs;
        for (int k : n.kids) xs.push_back(num(k, "array element"));
        return array_of(xs);
      }
      case Node::generator: {
        std::int64_t lo = scalar(n.kids[1], "range start"), hi = scalar(n.kids[2], "range end");
        if (hi - lo > 100'000'000) throw ExprError("generator range too long (over 10^8 elements)", n.column);
        std::vector<Num> xs;
        if (hi > lo) xs.reserve(static_cast<std::size_t>(hi - lo));
        locals_.emplace_back(n.op, 0);
        for (std::int64_t j = lo; j < hi; ++j) {
          locals_.back().second = j;
          xs.push_back(num(n.kids[0], "generated element"));
        }
        locals_.pop_back();
        return array_of(xs);
      }
      case Node::index: {
        Value a = eval(n.kids[0]);
        if (!a.is_array) throw ExprError("indexing a number, not an array", n.column);
        std::int64_t k = scalar(n.kids[1], "index");
        if (k < 0 || k >= static_cast<std::int64_t>(a.size()))
          throw ExprError("index " + std::to_string(k) + " is outside the array (length " + std::to_string(a.size()) + ")",
                          n.column);
        const auto at = static_cast<std::size_t>(k);
        return a.is_real ? Value::of_real(a.reals[at]) : Value::of(a.array[at]);
      }
    }
    throw ExprError("bad expression node", n.column);
  }

  // An integer: what counts, ranks, indices and ranges need. A real is an error
  // here (int() converts one).
  std::int64_t scalar(int i, const char* what) {
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    Num r = num(i, what);
    if (r.real)
      throw ExprError(std::string(what) + " is the real " + real_text(r.d) +
                          " where an integer is expected (int() truncates a real)",
                      n.column);
    return r.i;
  }

  // A number, integer or real. Scalar trees (the common case: "(rank + 1) % size")
  // are computed here directly, without building a Value per node.
  Num num(int i, const char* what) {
    const Node& n = nodes_[static_cast<std::size_t>(i)];
    switch (n.kind) {
      case Node::number: return Num{false, n.value, 0};
      case Node::real: return Num{true, 0, n.real_value};
      case Node::binary:
        if (n.code != '=' && n.code != '!') return arithmetic(n);
        break;
      case Node::ternary: return num(n.kids[0], "condition").truth() ? num(n.kids[1], what) : num(n.kids[2], what);
      case Node::unary: {
        Num v = num(n.kids[0], "the operand");
        if (n.code == '!') return Num{false, v.truth() ? 0 : 1, 0};
        if (v.real) return Num{true, 0, -v.d};
        if (v.i == INT64_MIN) throw ExprError("integer overflow", n.column);
        return Num{false, -v.i, 0};
      }
      default: break;
    }
    Value v = eval(i);
    if (v.is_array)
      throw ExprError(std::string(what) + " is an array where a number is expected", nodes_[static_cast<std::size_t>(i)].column);
    return v.is_real ? Num{true, 0, v.real} : Num{false, v.scalar, 0};
  }

 private:
  static std::string real_text(double d) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
  }

  static Value array_of(const std::vector<Num>& xs) {
    bool real = false;
    for (const Num& x : xs) real = real || x.real;
    if (!real) {
      std::vector<std::int64_t> a;
      a.reserve(xs.size());
      for (const Num& x : xs) a.push_back(x.i);
      return Value::of(std::move(a));
    }
    std::vector<double> a;
    a.reserve(xs.size());
    for (const Num& x : xs) a.push_back(x.as_real());
    return Value::of_reals(std::move(a));
  }

  Num arithmetic(const Node& n) {
    if (n.code == '&') return Num{false, num(n.kids[0], "the operand").truth() && num(n.kids[1], "the operand").truth(), 0};
    if (n.code == '|') return Num{false, num(n.kids[0], "the operand").truth() || num(n.kids[1], "the operand").truth(), 0};
    Num a = num(n.kids[0], "the left operand");
    Num b = num(n.kids[1], "the right operand");
    if (!a.real && !b.real) return Num{false, apply_binary(n.code, a.i, b.i, n.column), 0};
    const double x = a.as_real(), y = b.as_real();
    switch (n.code) {
      case '+': return Num{true, 0, finite(x + y, n.column)};
      case '-': return Num{true, 0, finite(x - y, n.column)};
      case '*': return Num{true, 0, finite(x * y, n.column)};
      case '/':
        if (y == 0) throw ExprError("division by zero", n.column);
        return Num{true, 0, finite(x / y, n.column)};
      case '%': throw ExprError("% takes integers, not reals (int() truncates a real)", n.column);
      case '<': return Num{false, x < y, 0};
      case 'l': return Num{false, x <= y, 0};
      case '>': return Num{false, x > y, 0};
      case 'g': return Num{false, x >= y, 0};
      default: throw ExprError("bad operator", n.column);
    }
  }

  Value call(const Node& n) {
    auto need = [&](std::size_t k) {
      if (n.kids.size() != k)
        throw ExprError(n.op + "() takes " + std::to_string(k) + " argument" + (k == 1 ? "" : "s"), n.column);
    };
    if (n.op == "len") {
      need(1);
      Value v = eval(n.kids[0]);
      if (!v.is_array) throw ExprError("len() of a number", n.column);
      return Value::of(static_cast<std::int64_t>(v.size()));
    }
    if (n.op == "abs") {
      need(1);
      Num v = num(n.kids[0], "the argument of abs");
      if (v.real) return Value::of_real(std::fabs(v.d));
      if (v.i == INT64_MIN) throw ExprError("integer overflow", n.column);
      return Value::of(v.i < 0 ? -v.i : v.i);
    }
    if (n.op == "int") {  // truncation toward zero, as C's cast
      need(1);
      Num v = num(n.kids[0], "the argument of int");
      if (!v.real) return Value::of(v.i);
      if (!(v.d > -9223372036854775808.0 && v.d < 9223372036854775808.0))
        throw ExprError("int() of " + real_text(v.d) + ": beyond a 64-bit integer", n.column);
      return Value::of(static_cast<std::int64_t>(v.d));
    }
    if (n.op == "double") {
      need(1);
      return Value::of_real(num(n.kids[0], "the argument of double").as_real());
    }
    if (n.op == "close") {  // close(a, b, tolerance): |a - b| <= tolerance, element by element
      need(3);
      Value a = eval(n.kids[0]), b = eval(n.kids[1]);
      const double tol = num(n.kids[2], "the tolerance").as_real();
      if (tol < 0) throw ExprError("close() with a negative tolerance", n.column);
      if (a.is_array != b.is_array || a.size() != b.size()) return Value::of(0);
      const std::size_t count = a.is_array ? a.size() : 1;
      for (std::size_t k = 0; k < count; ++k)
        if (!(std::fabs(a.as_real(k) - b.as_real(k)) <= tol)) return Value::of(0);
      return Value::of(1);
    }
    // min/max: of several numbers, or of one array.
    if (n.kids.empty()) throw ExprError(n.op + "() needs arguments", n.column);
    std::vector<Num> xs;
    if (n.kids.size() == 1) {
      Value v = eval(n.kids[0]);
      if (!v.is_array) xs.push_back(v.is_real ? Num{true, 0, v.real} : Num{false, v.scalar, 0});
      else
        for (std::size_t k = 0; k < v.size(); ++k)
          xs.push_back(v.is_real ? Num{true, 0, v.reals[k]} : Num{false, v.array[k], 0});
    } else {
      for (int k : n.kids) xs.push_back(num(k, "an argument"));
    }
    if (xs.empty()) throw ExprError(n.op + "() of an empty array", n.column);
    std::size_t best = 0;
    for (std::size_t k = 1; k < xs.size(); ++k) {
      const bool less = xs[k].real || xs[best].real ? xs[k].as_real() < xs[best].as_real() : xs[k].i < xs[best].i;
      const bool more = xs[k].real || xs[best].real ? xs[k].as_real() > xs[best].as_real() : xs[k].i > xs[best].i;
      if (n.op == "min" ? less : more) best = k;
    }
    return xs[best].value();
  }

  const std::vector<Node>& nodes_;
  const Lookup& lookup_;
  std::vector<std::pair<std::string, std::int64_t>> locals_;
};

}  // namespace

namespace {

// Compiles the tree under node i into ops (children first); -1 if some node is not scalar.
int compile_scalar(const std::vector<Node>& nodes, int i, std::vector<Expr::Op>& ops) {
  const Node& n = nodes[static_cast<std::size_t>(i)];
  Expr::Op op{static_cast<std::uint8_t>(n.kind), n.code, -1, -1, -1, n.column, n.value};
  switch (n.kind) {
    case Node::number: break;
    case Node::name:
      if (n.id == kNoId) return -1;
      op.value = n.id;
      break;
    case Node::unary:
      if ((op.a = compile_scalar(nodes, n.kids[0], ops)) < 0) return -1;
      break;
    case Node::binary:
      // == and != also compare arrays, but every operand here is a scalar: a name
      // bound to an array fails the scalar lookup, and the caller falls back.
      if ((op.a = compile_scalar(nodes, n.kids[0], ops)) < 0) return -1;
      if ((op.b = compile_scalar(nodes, n.kids[1], ops)) < 0) return -1;
      break;
    case Node::ternary:
      if ((op.a = compile_scalar(nodes, n.kids[0], ops)) < 0) return -1;
      if ((op.b = compile_scalar(nodes, n.kids[1], ops)) < 0) return -1;
      if ((op.c = compile_scalar(nodes, n.kids[2], ops)) < 0) return -1;
      break;
    default: return -1;
  }
  ops.push_back(op);
  return static_cast<int>(ops.size() - 1);
}

struct ScalarEval {
  const std::vector<Expr::Op>& ops;
  const ScalarLookup& lookup;
  bool ok = true;

  std::int64_t at(int i) {
    const Expr::Op& op = ops[static_cast<std::size_t>(i)];
    switch (op.kind) {
      case Node::number: return op.value;
      case Node::name: {
        std::int64_t v = 0;
        if (!lookup.get(static_cast<std::uint32_t>(op.value), &v)) ok = false;
        return v;
      }
      case Node::unary: {
        std::int64_t v = at(op.a);
        if (op.code == '!') return v == 0;
        if (v == INT64_MIN) throw ExprError("integer overflow", op.column);
        return -v;
      }
      case Node::ternary: {
        std::int64_t c = at(op.a);
        if (!ok) return 0;
        return c != 0 ? at(op.b) : at(op.c);
      }
      default: break;
    }
    // Binary. Short-circuit as C does, so an unevaluated side cannot fail.
    std::int64_t a = at(op.a);
    if (!ok) return 0;
    if (op.code == '&') return a != 0 && at(op.b) != 0;
    if (op.code == '|') return a != 0 || at(op.b) != 0;
    std::int64_t b = at(op.b);
    if (!ok) return 0;
    return apply_binary(op.code, a, b, op.column);
  }
};

// The ops (in postfix order, as compile_scalar emits them) as a program run front
// to back on a small stack, if they are one: no ternary and no short-circuit
// operator, which must leave a side unevaluated, and no deeper than the stack.
bool linear_program(const std::vector<Expr::Op>& ops, std::vector<Expr::LinOp>& out) {
  using L = Expr::LinOp;
  int depth = 0;
  for (const Expr::Op& op : ops) {
    L::Code code = L::number;
    switch (op.kind) {
      case Node::number: ++depth; break;
      case Node::name: code = L::name, ++depth; break;
      case Node::unary: code = op.code == '!' ? L::logical_not : L::neg; break;
      case Node::binary:
        switch (op.code) {
          case '+': code = L::add; break;
          case '-': code = L::sub; break;
          case '*': code = L::mul; break;
          case '/': code = L::div; break;
          case '%': code = L::mod; break;
          case '<': code = L::lt; break;
          case 'l': code = L::le; break;
          case '>': code = L::gt; break;
          case 'g': code = L::ge; break;
          case '=': code = L::eq; break;
          case '!': code = L::ne; break;
          default: return false;  // && ||
        }
        --depth;
        break;
      default: return false;
    }
    if (depth > Expr::kLinearStack) return false;
    // In postfix order a leaf just before a binary operator is its right operand:
    // the operator takes it directly, one dispatch and one stack slot fewer.
    if (code >= L::add && !out.empty() && out.back().right == L::stack &&
        (out.back().code == L::number || out.back().code == L::name)) {
      L& leaf = out.back();
      leaf.right = leaf.code == L::number ? L::immediate : L::named;
      leaf.code = code;
      leaf.column = op.column;
      continue;
    }
    out.push_back(L{code, L::stack, op.column, op.value});
  }
  return depth == 1;
}

// One binary step of a linear program: the operator is a constant here, so
// apply_binary's dispatch folds away.
template <char Code>
inline void binary_step(std::int64_t* stack, int sp, std::int64_t right, int column) {
  stack[sp - 1] = apply_binary(Code, stack[sp - 1], right, column);
}

}  // namespace

bool Expr::eval_scalar(const ScalarLookup& lookup, std::int64_t* out) const {
  if (!ops_) return false;
  if (linear_) {
    std::int64_t stack[kLinearStack];
    int sp = 0;
    for (const LinOp& op : *linear_) {
      std::int64_t right = 0;  // a binary operator's right operand
      switch (op.right) {
        case LinOp::stack:
          if (op.code >= LinOp::add) right = stack[--sp];
          break;
        case LinOp::immediate: right = op.value; break;
        case LinOp::named:
          if (!lookup.get(static_cast<std::uint32_t>(op.value), &right)) return false;
          break;
      }
      switch (op.code) {
        case LinOp::number: stack[sp++] = op.value; break;
        case LinOp::name:
          if (!lookup.get(static_cast<std::uint32_t>(op.value), &stack[sp++])) return false;
          break;
        case LinOp::neg:
          if (stack[sp - 1] == INT64_MIN) throw ExprError("integer overflow", op.column);
          stack[sp - 1] = -stack[sp - 1];
          break;
        case LinOp::logical_not: stack[sp - 1] = stack[sp - 1] == 0; break;
        case LinOp::add: binary_step<'+'>(stack, sp, right, op.column); break;
        case LinOp::sub: binary_step<'-'>(stack, sp, right, op.column); break;
        case LinOp::mul: binary_step<'*'>(stack, sp, right, op.column); break;
        case LinOp::div: binary_step<'/'>(stack, sp, right, op.column); break;
        case LinOp::mod: binary_step<'%'>(stack, sp, right, op.column); break;
        case LinOp::lt: binary_step<'<'>(stack, sp, right, op.column); break;
        case LinOp::le: binary_step<'l'>(stack, sp, right, op.column); break;
        case LinOp::gt: binary_step<'>'>(stack, sp, right, op.column); break;
        case LinOp::ge: binary_step<'g'>(stack, sp, right, op.column); break;
        case LinOp::eq: binary_step<'='>(stack, sp, right, op.column); break;
        case LinOp::ne: binary_step<'!'>(stack, sp, right, op.column); break;
      }
    }
    *out = stack[0];
    return true;
  }
  ScalarEval ev{*ops_, lookup};
  std::int64_t v = ev.at(static_cast<int>(ops_->size() - 1));
  if (!ev.ok) return false;
  *out = v;
  return true;
}

namespace {

// One operand of a block operation: n values, or one value for all of them.
struct BlockOperand {
  const std::int64_t* values = nullptr;  // null: `scalar` for every element
  std::int64_t scalar = 0;
  std::int64_t at(int k) const { return values ? values[k] : scalar; }
};

// x[k] = x[k] op y[k] over a block; false when an element overflows or divides
// by zero (the caller evaluates element by element, which reports it).
template <typename F>
bool block_loop(std::int64_t* x, const BlockOperand& y, int n, F f) {
  bool bad = false;
  if (y.values) {
    for (int k = 0; k < n; ++k) bad |= f(x[k], y.values[k], &x[k]);
  } else {
    const std::int64_t c = y.scalar;
    for (int k = 0; k < n; ++k) bad |= f(x[k], c, &x[k]);
  }
  return !bad;
}

// x / d or x % d by a divisor d > 0 the same for the whole block, every x in
// [0, 2^52): a multiplication by 1/d in double, then corrected, so that no
// element pays an integer division. The quotient of a double is within one of
// the true one here, and the correction makes it exact.
bool divide_block(std::int64_t* x, std::int64_t d, int n, bool remainder) {
  const double inverse = 1.0 / static_cast<double>(d);
  for (int k = 0; k < n; ++k) {
    const std::int64_t a = x[k];
    auto q = static_cast<std::int64_t>(static_cast<double>(a) * inverse);
    std::int64_t r = a - q * d;
    if (r < 0) --q, r += d;
    if (r >= d) ++q, r -= d;
    x[k] = remainder ? r : q;
  }
  return true;
}

bool block_binary(Expr::LinOp::Code code, std::int64_t* x, const BlockOperand& y, int n) {
  using L = Expr::LinOp;
  switch (code) {
    case L::add: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_add_overflow(a, b, r); });
    case L::sub: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_sub_overflow(a, b, r); });
    case L::mul: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_mul_overflow(a, b, r); });
    case L::div:
    case L::mod: {
      const bool remainder = code == L::mod;
      if (!y.values && y.scalar > 0) {
        bool in_range = true;
        for (int k = 0; k < n; ++k) in_range &= x[k] >= 0 && x[k] < (std::int64_t{1} << 52);
        if (in_range) return divide_block(x, y.scalar, n, remainder);
      }
      return block_loop(x, y, n, [remainder](std::int64_t a, std::int64_t b, std::int64_t* r) {
        if (b == 0 || (a == INT64_MIN && b == -1)) return true;
        *r = remainder ? a % b : a / b;
        return false;
      });
    }
    case L::lt: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a < b; return false; });
    case L::le: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a <= b; return false; });
    case L::gt: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a > b; return false; });
    case L::ge: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a >= b; return false; });
    case L::eq: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a == b; return false; });
    case L::ne: return block_loop(x, y, n, [](std::int64_t a, std::int64_t b, std::int64_t* r) { *r = a != b; return false; });
    default: return false;
  }
}

}  // namespace

bool Expr::eval_block(const ScalarLookup& lookup, std::uint32_t var, std::int64_t first, int n, std::int64_t* out) const {
  if (!linear_ || n <= 0 || n > kBlock) return false;
  if (first > INT64_MAX - n) return false;
  std::int64_t stack[kLinearStack][kBlock];
  std::int64_t iota[kBlock];
  for (int k = 0; k < n; ++k) iota[k] = first + k;
  // A name's value: the block's values of var, or one number.
  auto operand = [&](std::uint32_t id, BlockOperand* o) {
    if (id == var) {
      o->values = iota;
      return true;
    }
    o->values = nullptr;
    return lookup.get(id, &o->scalar);
  };
  int sp = 0;
  for (const LinOp& op : *linear_) {
    BlockOperand right;
    switch (op.right) {
      case LinOp::stack:
        if (op.code >= LinOp::add) right.values = stack[--sp];
        break;
      case LinOp::immediate: right.scalar = op.value; break;
      case LinOp::named:
        if (!operand(static_cast<std::uint32_t>(op.value), &right)) return false;
        break;
    }
    std::int64_t* top = stack[sp == 0 ? 0 : sp - 1];
    switch (op.code) {
      case LinOp::number:
        std::fill_n(stack[sp++], n, op.value);
        break;
      case LinOp::name: {
        BlockOperand v;
        if (!operand(static_cast<std::uint32_t>(op.value), &v)) return false;
        if (v.values) std::copy_n(v.values, n, stack[sp++]);
        else std::fill_n(stack[sp++], n, v.scalar);
        break;
      }
      case LinOp::neg: {
        bool bad = false;
        for (int k = 0; k < n; ++k) bad |= top[k] == INT64_MIN, top[k] = top[k] == INT64_MIN ? 0 : -top[k];
        if (bad) return false;
        break;
      }
      case LinOp::logical_not:
        for (int k = 0; k < n; ++k) top[k] = top[k] == 0;
        break;
      default:
        if (!block_binary(op.code, top, right, n)) return false;
    }
  }
  std::copy_n(stack[0], n, out);
  return true;
}

Expr Expr::parse(std::string_view text, const NameResolver& resolve) {
  auto nodes = std::make_shared<std::vector<Node>>();
  Expr e;
  e.root_ = parse_tree(text, *nodes);
  if (resolve)
    for (Node& n : *nodes)
      if (n.kind == Node::name) n.id = resolve(n.op);
  const Node& root = (*nodes)[static_cast<std::size_t>(e.root_)];
  if (root.kind == Node::number) e.constant_ = root.value;
  auto ops = std::make_shared<std::vector<Op>>();
  if (compile_scalar(*nodes, e.root_, *ops) >= 0) {
    auto linear = std::make_shared<std::vector<LinOp>>();
    if (linear_program(*ops, *linear)) e.linear_ = std::move(linear);
    e.ops_ = std::move(ops);
  }
  e.text_ = std::string(text);
  e.nodes_ = std::move(nodes);
  return e;
}

Expr Expr::constant(std::int64_t v) {
  Expr e;
  e.nodes_ = std::make_shared<std::vector<Node>>(std::vector<Node>{Node{Node::number, "", v, {}, 1}});
  e.text_ = std::to_string(v);
  e.constant_ = v;
  return e;
}

Value Expr::eval(const Lookup& lookup) const {
  Evaluator ev(*nodes_, lookup);
  return ev.eval(root_);
}

std::int64_t Expr::eval_int(const Lookup& lookup) const {
  Evaluator ev(*nodes_, lookup);
  return ev.scalar(root_, "the value");
}

namespace {

struct Affine {
  std::int64_t a = 0, b = 0;  // a*var + b
};

bool affine(const std::vector<Node>& nodes, int at, std::uint32_t var, const ScalarLookup& lookup, Affine* out) {
  const Node& n = nodes[static_cast<std::size_t>(at)];
  switch (n.kind) {
    case Node::number: *out = {0, n.value}; return true;
    case Node::name:
      if (n.id == var) {
        *out = {1, 0};
        return true;
      }
      out->a = 0;
      return n.id != kNoId && lookup.get(n.id, &out->b);
    case Node::unary: {
      Affine x;
      if (n.code != '-' || !affine(nodes, n.kids[0], var, lookup, &x)) return false;
      return !__builtin_sub_overflow(0, x.a, &out->a) && !__builtin_sub_overflow(0, x.b, &out->b);
    }
    case Node::binary: {
      Affine l, r;
      if (!affine(nodes, n.kids[0], var, lookup, &l) || !affine(nodes, n.kids[1], var, lookup, &r)) return false;
      switch (n.code) {
        case '+': return !__builtin_add_overflow(l.a, r.a, &out->a) && !__builtin_add_overflow(l.b, r.b, &out->b);
        case '-': return !__builtin_sub_overflow(l.a, r.a, &out->a) && !__builtin_sub_overflow(l.b, r.b, &out->b);
        case '*': {
          if (l.a != 0 && r.a != 0) return false;  // var * var
          const Affine& v = l.a != 0 ? l : r;
          const std::int64_t k = l.a != 0 ? r.b : l.b;
          return !__builtin_mul_overflow(v.a, k, &out->a) && !__builtin_mul_overflow(v.b, k, &out->b);
        }
        default: return false;
      }
    }
    default: return false;
  }
}

}  // namespace

bool Expr::affine_in(std::uint32_t var, const ScalarLookup& lookup, std::int64_t* a, std::int64_t* b) const {
  if (!nodes_) return false;
  Affine r;
  if (!affine(*nodes_, root_, var, lookup, &r)) return false;
  *a = r.a;
  *b = r.b;
  return true;
}

std::vector<std::string> Expr::free_names() const {
  std::set<std::string> names;
  for (const auto& n : *nodes_)
    if (n.kind == Node::name) names.insert(n.op);
  return {names.begin(), names.end()};
}

bool Expr::reads_only_ids_below(std::uint32_t limit) const {
  for (const auto& n : *nodes_)
    if (n.kind == Node::name && (n.id == kNoId || n.id >= limit)) return false;
  return true;
}

}  // namespace mpisim::scenario
