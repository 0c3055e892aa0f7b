#pragma once
// The parse tree of an expression, shared by the parser (expr_parse.cpp) and the
// evaluators (expr.cpp, and expr_compiled.cpp's fast integer paths), with the
// integer operators both evaluate. Internal to model/scenario.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario/expr.hpp"

namespace mpisim::scenario {

struct Expr::Node {
  enum Kind { number, name, unary, binary, ternary, call, array, generator, index, real } kind;
  std::string op;            // operator, name or function
  std::int64_t value = 0;
  std::vector<int> kids;     // child node indices
  int column = 0;
  std::uint32_t id = kNoId;  // name nodes: the resolver's id
  char code = 0;             // operators: one character, so evaluation compares no strings
  double real_value = 0;      // real nodes: the floating-point literal
};

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

// a op b for the integer operators (one-character codes), with C semantics and
// every overflow or division by zero reported instead of undefined.
[[noreturn, gnu::cold, gnu::noinline]] void binary_failure(char code, std::int64_t a, std::int64_t b, int column);

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

// The fast integer paths (expr_compiled.cpp): the tree under node i compiled into
// ops, children first (-1 if some node is not an integer one) ...
namespace compiled {
int compile_scalar(const std::vector<Expr::Node>& nodes, int i, std::vector<Expr::Op>& ops);
// ... and those ops as a linear program, when they make one.
bool linear_program(const std::vector<Expr::Op>& ops, std::vector<Expr::LinOp>& out);
}  // namespace compiled

// Parses `text` into `nodes`; returns the root's index. Throws ExprError with the
// column of the problem.
int parse_tree(std::string_view text, std::vector<Expr::Node>& nodes);

}  // namespace mpisim::scenario
