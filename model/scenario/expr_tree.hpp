#pragma once
// The parse tree of an expression, shared by the parser (expr_parse.cpp) and the
// evaluators (expr.cpp). Internal to model/scenario.
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

// Parses `text` into `nodes`; returns the root's index. Throws ExprError with the
// column of the problem.
int parse_tree(std::string_view text, std::vector<Expr::Node>& nodes);

}  // namespace mpisim::scenario
