// The expression parser: text to a tree of nodes (docs/scenario-format.md,
// "Expressions"), with bounded depth.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "model/scenario/expr_tree.hpp"
#include "sim/input_file.hpp"

namespace mpisim::scenario {
namespace {

using Node = Expr::Node;

class Parser {
 public:
  Parser(std::string_view text, std::vector<Node>& nodes) : s_(text), nodes_(nodes) {}

  // The character at pos_ (all of a UTF-8 sequence), shown so a look-alike of an
  // ASCII letter cannot pass for it.
  [[noreturn]] void unexpected() {
    const auto b = static_cast<unsigned char>(s_[pos_]);
    const std::size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    fail("unexpected " + sim::shown(s_.substr(pos_, n)));
  }

  int parse_all() {
    int root = expr();
    skip();
    if (pos_ < s_.size()) unexpected();
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ExprError(what, static_cast<int>(pos_) + 1); }

  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    // Do not split "<=" into "<" "=", nor a word into a shorter word.
    if (tok.size() == 1 && (tok == "<" || tok == ">" || tok == "!" || tok == "=") && pos_ + 1 < s_.size() &&
        s_[pos_ + 1] == '=')
      return false;
    if (std::isalpha(static_cast<unsigned char>(tok[0])) && pos_ + tok.size() < s_.size() &&
        (std::isalnum(static_cast<unsigned char>(s_[pos_ + tok.size()])) || s_[pos_ + tok.size()] == '_'))
      return false;
    pos_ += tok.size();
    return true;
  }
  void expect(std::string_view tok) {
    if (!eat(tok)) fail("expected '" + std::string(tok) + "'");
  }
  int add(Node n) {
    if (n.kind == Node::binary || n.kind == Node::unary) {
      static const std::pair<const char*, char> codes[] = {{"&&", '&'}, {"||", '|'}, {"==", '='}, {"!=", '!'},
                                                           {"<=", 'l'}, {">=", 'g'}, {"<", '<'}, {">", '>'},
                                                           {"+", '+'}, {"-", '-'}, {"*", '*'}, {"/", '/'},
                                                           {"%", '%'}, {"!", '!'}};
      for (const auto& [op, c] : codes)
        if (n.op == op) n.code = c;
    }
    // The tree is walked recursively (evaluation, compilation): its height is
    // bounded as its nesting is, whether the height comes from brackets or from a
    // long chain of operators ("1 + 1 + ... + 1").
    int height = 1;
    for (int k : n.kids) height = std::max(height, 1 + heights_[static_cast<std::size_t>(k)]);
    if (height > kMaxHeight)
      fail("expression too long or nested too deeply (its tree is over " + std::to_string(kMaxHeight) +
           " levels; split it with let)");
    nodes_.push_back(std::move(n));
    heights_.push_back(height);
    return static_cast<int>(nodes_.size() - 1);
  }
  int col() const { return static_cast<int>(pos_) + 1; }

  // Nesting is bounded so that deep input cannot overflow the stack (found by
  // fuzzing: thousands of '[').
  struct Depth {
    Parser& p;
    explicit Depth(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) p.fail("expression nested too deeply (over 200 levels)");
    }
    ~Depth() { --p.depth_; }
  };
  static constexpr int kMaxDepth = 200;
  static constexpr int kMaxHeight = 2000;

  int expr() {
    Depth guard(*this);
    int c = col();
    int cond = logical_or();
    if (eat("?")) {
      int a = expr();
      expect(":");
      int b = expr();
      return add(Node{Node::ternary, "?", 0, {cond, a, b}, c});
    }
    return cond;
  }
  int logical_or() {
    int l = logical_and();
    for (int c = col(); eat("||"); c = col()) l = add(Node{Node::binary, "||", 0, {l, logical_and()}, c});
    return l;
  }
  int logical_and() {
    int l = comparison();
    for (int c = col(); eat("&&"); c = col()) l = add(Node{Node::binary, "&&", 0, {l, comparison()}, c});
    return l;
  }
  int comparison() {
    int l = additive();
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
      int c = col();
      if (eat(op)) return add(Node{Node::binary, op, 0, {l, additive()}, c});
    }
    return l;
  }
  int additive() {
    int l = multiplicative();
    for (;;) {
      int c = col();
      if (eat("+")) l = add(Node{Node::binary, "+", 0, {l, multiplicative()}, c});
      else if (eat("-")) l = add(Node{Node::binary, "-", 0, {l, multiplicative()}, c});
      else return l;
    }
  }
  int multiplicative() {
    int l = unary();
    for (;;) {
      int c = col();
      if (eat("*")) l = add(Node{Node::binary, "*", 0, {l, unary()}, c});
      else if (eat("/")) l = add(Node{Node::binary, "/", 0, {l, unary()}, c});
      else if (eat("%")) l = add(Node{Node::binary, "%", 0, {l, unary()}, c});
      else return l;
    }
  }
  int unary() {
    Depth guard(*this);
    int c = col();
    if (eat("-")) return add(Node{Node::unary, "-", 0, {unary()}, c});
    if (eat("!")) return add(Node{Node::unary, "!", 0, {unary()}, c});
    return postfix();
  }
  int postfix() {
    int e = primary();
    for (int c = col(); eat("["); c = col()) {
      int i = expr();
      expect("]");
      e = add(Node{Node::index, "[]", 0, {e, i}, c});
    }
    return e;
  }
  std::string word() {
    skip();
    std::size_t b = pos_;
    // A '.' belongs to a name only between two word characters ("st.MPI_TAG"),
    // so "j..n" is j, .., n.
    auto word_char = [&](std::size_t i) {
      return i < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i])) || s_[i] == '_');
    };
    while (word_char(pos_) || (pos_ > b && s_[pos_ - 1] != '.' && pos_ < s_.size() && s_[pos_] == '.' &&
                               word_char(pos_ + 1) && !std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))
      ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }
  int primary() {
    skip();
    int c = col();
    if (pos_ >= s_.size()) fail("unexpected end of expression");
    char ch = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      // A floating-point literal: digits with a fraction ("0.5"; "0..n" stays a
      // range) or an exponent ("1e-3").
      std::size_t e = pos_;
      while (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) ++e;
      const bool fraction = e + 1 < s_.size() && s_[e] == '.' && std::isdigit(static_cast<unsigned char>(s_[e + 1]));
      std::size_t x = e;
      if (fraction) {
        ++x;
        while (x < s_.size() && std::isdigit(static_cast<unsigned char>(s_[x]))) ++x;
      }
      const bool exponent =
          x < s_.size() && (s_[x] == 'e' || s_[x] == 'E') &&
          ((x + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[x + 1]))) ||
           (x + 2 < s_.size() && (s_[x + 1] == '+' || s_[x + 1] == '-') && std::isdigit(static_cast<unsigned char>(s_[x + 2]))));
      if (fraction || exponent) {
        double d = 0;
        auto r = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), d);
        if (r.ec != std::errc() || !std::isfinite(d)) fail("number out of range (beyond a double)");
        pos_ = static_cast<std::size_t>(r.ptr - s_.data());
        if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
          fail("a name cannot start with a digit");
        Node n{Node::real, "", 0, {}, c};
        n.real_value = d;
        return add(std::move(n));
      }
      std::int64_t v = 0;
      auto r = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
      if (r.ec != std::errc()) fail("number out of range");
      pos_ = static_cast<std::size_t>(r.ptr - s_.data());
      if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        fail("a name cannot start with a digit");
      return add(Node{Node::number, "", v, {}, c});
    }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      std::string w = word();
      if (eat("(")) {
        Node n{Node::call, w, 0, {}, c};
        if (!eat(")")) {
          do n.kids.push_back(expr());
          while (eat(","));
          expect(")");
        }
        static const std::set<std::string> known = {"min", "max", "abs", "len", "int", "double", "close"};
        if (!known.count(w)) {
          pos_ = static_cast<std::size_t>(c - 1);
          fail("unknown function '" + w + "' (known: abs, close, double, int, len, max, min)");
        }
        return add(std::move(n));
      }
      return add(Node{Node::name, w, 0, {}, c});
    }
    if (eat("(")) {
      int e = expr();
      expect(")");
      return e;
    }
    if (eat("[")) {
      if (eat("]")) return add(Node{Node::array, "", 0, {}, c});
      int first = expr();
      if (eat("for")) {
        std::string var = word();
        if (var.empty()) fail("expected the generator's variable name after 'for'");
        expect("in");
        int lo = additive();
        expect("..");
        int hi = additive();
        expect("]");
        return add(Node{Node::generator, var, 0, {first, lo, hi}, c});
      }
      Node n{Node::array, "", 0, {first}, c};
      while (eat(",")) n.kids.push_back(expr());
      expect("]");
      return add(std::move(n));
    }
    unexpected();
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::vector<Node>& nodes_;
  int depth_ = 0;
  std::vector<int> heights_;  // per node: the height of its subtree
};

}  // namespace

int parse_tree(std::string_view text, std::vector<Node>& nodes) {
  Parser p(text, nodes);
  return p.parse_all();
}

}  // namespace mpisim::scenario
