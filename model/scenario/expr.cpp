#include "model/scenario/expr.hpp"
#include "model/scenario/expr_tree.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace mpisim::scenario {


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

[[noreturn, gnu::cold, gnu::noinline]] void binary_failure(char code, std::int64_t a, std::int64_t b, int column) {
  if ((code == '/' || code == '%') && b == 0) throw ExprError("division by zero", column);
  const char* sym = code == '+' ? "+" : code == '-' ? "-" : code == '*' ? "*" : code == '/' ? "/" : code == '%' ? "%" : "";
  if (*sym == 0) throw ExprError("bad operator", column);
  throw ExprError("integer overflow in " + std::to_string(a) + " " + sym + " " + std::to_string(b), column);
}

namespace {

using Node = Expr::Node;


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
  if (compiled::compile_scalar(*nodes, e.root_, *ops) >= 0) {
    auto linear = std::make_shared<std::vector<LinOp>>();
    if (compiled::linear_program(*ops, *linear)) e.linear_ = std::move(linear);
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
