#include "model/net/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace mpisim::net {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits "1.5 us" into 1.5 and "us".
std::optional<std::pair<double, std::string_view>> number_and_unit(std::string_view text) {
  text = trim(text);
  double v = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || !std::isfinite(v)) return std::nullopt;
  return std::make_pair(v, trim(std::string_view(r.ptr, static_cast<std::size_t>(text.data() + text.size() - r.ptr))));
}

}  // namespace

std::optional<double> parse_time_ps(std::string_view text) {
  auto nu = number_and_unit(text);
  if (!nu || nu->first < 0) return std::nullopt;
  auto [v, unit] = *nu;
  if (unit == "ps") return v;
  if (unit == "ns") return v * 1e3;
  // Microseconds also with the micro sign (U+00B5) or the Greek mu (U+03BC).
  if (unit == "us" || unit == "\u00B5s" || unit == "\u03BCs") return v * 1e6;
  if (unit == "ms") return v * 1e9;
  if (unit == "s") return v * 1e12;
  return std::nullopt;
}

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  auto nu = number_and_unit(text);
  if (!nu || nu->first < 0) return std::nullopt;
  auto [v, unit] = *nu;
  double mult = 0;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "KB" || unit == "kB") mult = 1e3;
  else if (unit == "KiB") mult = 1024.0;
  else if (unit == "MB") mult = 1e6;
  else if (unit == "MiB") mult = 1024.0 * 1024;
  else if (unit == "GB") mult = 1e9;
  else if (unit == "GiB") mult = 1024.0 * 1024 * 1024;
  else if (unit == "TB") mult = 1e12;
  else if (unit == "TiB") mult = 1024.0 * 1024 * 1024 * 1024;
  else return std::nullopt;
  double b = v * mult;
  if (b != std::floor(b) || b > 9.0e18) return std::nullopt;
  return static_cast<std::uint64_t>(b);
}

std::optional<double> parse_bandwidth_ps_per_byte(std::string_view text) {
  auto nu = number_and_unit(text);
  if (!nu || nu->first <= 0) return std::nullopt;
  auto [v, unit] = *nu;
  double bytes_per_s = 0;
  if (unit == "B/s") bytes_per_s = v;
  else if (unit == "KB/s") bytes_per_s = v * 1e3;
  else if (unit == "MB/s") bytes_per_s = v * 1e6;
  else if (unit == "GB/s") bytes_per_s = v * 1e9;
  else if (unit == "Mbit/s") bytes_per_s = v * 1e6 / 8;
  else if (unit == "Gbit/s") bytes_per_s = v * 1e9 / 8;
  else if (unit == "Tbit/s") bytes_per_s = v * 1e12 / 8;
  else return std::nullopt;
  return 1e12 / bytes_per_s;
}

std::string format_time(std::int64_t ps) {
  char buf[64];
  double a = std::fabs(static_cast<double>(ps));
  if (a < 1e3) std::snprintf(buf, sizeof buf, "%lld ps", static_cast<long long>(ps));
  else if (a < 1e6) std::snprintf(buf, sizeof buf, "%.3f ns", ps / 1e3);
  else if (a < 1e9) std::snprintf(buf, sizeof buf, "%.3f us", ps / 1e6);
  else if (a < 1e12) std::snprintf(buf, sizeof buf, "%.3f ms", ps / 1e9);
  else std::snprintf(buf, sizeof buf, "%.3f s", ps / 1e12);
  return buf;
}

std::string format_bytes(std::uint64_t b) {
  char buf[64];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  else if (b < 1024ull * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else if (b < 1024ull * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / 1073741824.0);
  return buf;
}

std::string per_byte_text(double ps_per_byte) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g ps/B", ps_per_byte);
  return buf;
}

}  // namespace mpisim::net
