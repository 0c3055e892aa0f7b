#pragma once
// Quantities with units, as written in network files and on the command line:
// times ("1.5us", "800 ps"), times per byte ("0.8ns"), byte counts ("64KiB"),
// bandwidths ("10 Gbit/s", "1.25 GB/s").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/time.hpp"

namespace mpisim::net {

// Picoseconds, or nullopt when `text` is not a number followed by one of
// ps, ns, us, ms, s.
std::optional<double> parse_time_ps(std::string_view text);
// Bytes, or nullopt: a non-negative integer with an optional B, KB, KiB, MB, MiB,
// GB, GiB, TB, TiB suffix.
std::optional<std::uint64_t> parse_bytes(std::string_view text);
// Picoseconds per byte for a bandwidth ("10 Gbit/s", "1.25 GB/s", "800 MB/s").
std::optional<double> parse_bandwidth_ps_per_byte(std::string_view text);

std::string format_time(std::int64_t ps);   // human-readable, e.g. "12.345 us"
std::string format_bytes(std::uint64_t b);  // e.g. "64 KiB"
std::string per_byte_text(double ps_per_byte);  // e.g. "800 ps/B"

// A non-negative cost in picoseconds, rounded half up (llround's result for
// non-negative values, without its cost).
// Saturates at kLongestTime (an absurd network, a bandwidth of 10^-9 B/s, must
// not wrap to a time of 0; the run stops there, see run.cpp).
inline constexpr std::int64_t kLongestTime = std::int64_t{1} << 62;
inline sim::SimTime round_ps(double ps) {
  if (!(ps < static_cast<double>(kLongestTime))) return sim::SimTime::from_ps(kLongestTime);  // NaN too
  return sim::SimTime::from_ps(static_cast<std::int64_t>(ps + 0.5));
}

}  // namespace mpisim::net
