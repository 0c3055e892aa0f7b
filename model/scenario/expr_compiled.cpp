// The fast integer paths of expressions: a scalar program compiled from the tree
// (eval_scalar), its linear form run over blocks of elements (eval_block), and
// the affine form a fill uses (affine_in). Each gives what the tree evaluator
// (expr.cpp) gives, or declines.
#include "model/scenario/expr.hpp"
#include "model/scenario/expr_tree.hpp"

#include <algorithm>
#include <cmath>

namespace mpisim::scenario {

using Node = Expr::Node;

namespace compiled {

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

}  // namespace compiled

using compiled::ScalarEval;
using compiled::binary_step;

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

}  // namespace mpisim::scenario
