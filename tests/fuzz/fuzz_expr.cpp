// libFuzzer target: the expression language, parsed and evaluated (both the general
// and the integer fast path). Any input must give a value or an ExprError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/scenario/expr.hpp"

using namespace mpisim::scenario;

namespace {
std::optional<Value> names(std::string_view n, std::uint32_t) {
  if (n == "rank") return Value::of(3);
  if (n == "size") return Value::of(8);
  if (n == "xs") return Value::of(std::vector<std::int64_t>{1, 2, 3});
  return std::nullopt;
}
bool scalar(void*, std::uint32_t id, std::int64_t* out) {
  *out = id;
  return id < 4;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 4096));
  try {
    std::uint32_t next = 0;
    Expr e = Expr::parse(text, [&](std::string_view) { return next++; });
    auto fn = [](std::string_view n, std::uint32_t id) { return names(n, id); };
    std::int64_t v = 0;
    e.eval_scalar(ScalarLookup{nullptr, &scalar}, &v);
    e.eval(fn);
  } catch (const ExprError&) {
  }
  return 0;
}
