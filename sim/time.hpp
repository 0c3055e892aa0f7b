#pragma once
// Virtual time: an integer count of picoseconds.
//
// Integer time makes event ordering exact and traces identical on every machine;
// models may compute in double internally but round once, when they produce a
// SimTime (see from_seconds).
#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace mpisim::sim {

struct SimTime {
  std::int64_t ps = 0;

  static constexpr SimTime zero() { return {0}; }
  static constexpr SimTime never() { return {std::numeric_limits<std::int64_t>::max()}; }
  static constexpr SimTime from_ps(std::int64_t v) { return {v}; }
  // Rounds to the nearest picosecond, half away from zero: the one place a double
  // becomes a time.
  static SimTime from_seconds(double s) { return {static_cast<std::int64_t>(std::llround(s * 1e12))}; }

  constexpr double seconds() const { return static_cast<double>(ps) * 1e-12; }

  friend constexpr auto operator<=>(SimTime, SimTime) = default;
  // Sums saturate at never() (and at the lowest time): the models cap each cost at
  // 2^62 ps, and a cost added to a time already that late must stay late, not wrap.
  friend constexpr SimTime operator+(SimTime a, SimTime b) {
    std::int64_t r;
    if (__builtin_add_overflow(a.ps, b.ps, &r)) [[unlikely]]
      r = b.ps > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return {r};
  }
  friend constexpr SimTime operator-(SimTime a, SimTime b) { return {a.ps - b.ps}; }
  constexpr SimTime& operator+=(SimTime b) { return *this = *this + b; }
  friend constexpr SimTime operator*(SimTime a, std::int64_t k) { return {a.ps * k}; }
  friend constexpr SimTime operator*(std::int64_t k, SimTime a) { return {a.ps * k}; }
};

constexpr SimTime max(SimTime a, SimTime b) { return a < b ? b : a; }

}  // namespace mpisim::sim
