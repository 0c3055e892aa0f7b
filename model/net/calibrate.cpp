#include "model/net/calibrate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "model/net/network_file.hpp"
#include "model/net/units.hpp"
#include "sim/input_error.hpp"
#include "sim/input_file.hpp"

namespace mpisim::net {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") + 1 - b);
}

bool contains(const std::string& s, const char* word) {
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find(word) != std::string::npos;
}

// The two leading numbers of a data line (fields split by commas or blanks).
bool two_numbers(const std::string& line, double* a, double* b) {
  std::string s = line;
  std::replace(s.begin(), s.end(), ',', ' ');
  std::istringstream in(s);
  std::string x, y;
  if (!(in >> x >> y)) return false;
  char* end = nullptr;
  *a = std::strtod(x.c_str(), &end);
  if (*end != '\0') return false;
  *b = std::strtod(y.c_str(), &end);
  return *end == '\0';
}

// One row of a least-squares fit of the relative error: regressors x1 (for the
// intercept) and x2 (for the slope), whose combination should be 1.
struct Row {
  double x1, x2;
};

// Minimises Σ (a·x1 + b·x2 − 1)² with a, b >= 0.
std::pair<double, double> least_squares(const std::vector<Row>& rows) {
  double s11 = 0, s12 = 0, s22 = 0, t1 = 0, t2 = 0;
  for (const Row& r : rows) {
    s11 += r.x1 * r.x1, s12 += r.x1 * r.x2, s22 += r.x2 * r.x2;
    t1 += r.x1, t2 += r.x2;
  }
  const double det = s11 * s22 - s12 * s12;
  double a = 0, b = 0;
  if (det > 1e-12 * std::max(s11 * s22, 1e-300)) {
    a = (t1 * s22 - t2 * s12) / det;
    b = (s11 * t2 - s12 * t1) / det;
  }
  if (!(det > 1e-12 * std::max(s11 * s22, 1e-300)) || a < 0 || b < 0) {
    // On the boundary: the better of a alone and b alone.
    const double a_only = s11 > 0 ? t1 / s11 : 0, b_only = s22 > 0 ? t2 / s22 : 0;
    auto cost = [&](double x, double y) {
      double c = 0;
      for (const Row& r : rows) c += (x * r.x1 + y * r.x2 - 1) * (x * r.x1 + y * r.x2 - 1);
      return c;
    };
    if (a >= 0 && b < 0) return {a_only, 0.0};
    if (b >= 0 && a < 0) return {0.0, b_only};
    return cost(a_only, 0) <= cost(0, b_only) ? std::pair{a_only, 0.0} : std::pair{0.0, b_only};
  }
  return {a, b};
}

// The rows of α + nβ against the samples: latency t ≈ α + nβ; streaming m ≈ nβ.
std::vector<Row> hockney_rows(const std::vector<Sample>& latency, const std::vector<Sample>& streaming) {
  std::vector<Row> rows;
  for (const Sample& s : latency) rows.push_back({1 / s.ps, s.bytes / s.ps});
  for (const Sample& s : streaming) rows.push_back({0, s.bytes / s.ps});
  return rows;
}

double squared_error(const std::vector<Row>& rows, std::pair<double, double> ab) {
  double c = 0;
  for (const Row& r : rows) c += (ab.first * r.x1 + ab.second * r.x2 - 1) * (ab.first * r.x1 + ab.second * r.x2 - 1);
  return c;
}

std::size_t distinct_sizes(const std::vector<Sample>& v) {
  std::set<double> s;
  for (const Sample& x : v) s.insert(x.bytes);
  return s.size();
}

// A time for a network file, to the picosecond: "1234.567ns"; per byte: "0.8123ps".
std::string time_text(double ps) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3fns", std::round(ps) / 1000);
  return buf;
}
std::string per_byte(double ps) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4fps", ps);
  return buf;
}
double reread(const std::string& text) { return *parse_time_ps(text); }

}  // namespace

void read_measurements(const std::string& text, const std::string& where, Measurements& into) {
  enum { unknown, latency, bandwidth } kind = unknown;
  std::istringstream in(text);
  std::string raw;
  int line = 0, samples = 0;
  bool header_seen = false;
  while (std::getline(in, raw)) {
    ++line;
    const std::string s = trim(raw);
    if (s.empty()) continue;
    auto fail = [&](const std::string& what) -> void {
      throw sim::InputError(where + ":" + std::to_string(line), what);
    };
    if (s[0] == '#') {  // OSU's headers ("# OSU MPI Bandwidth Test", "# Size  Latency (us)") or a comment
      if (contains(s, "bandwidth")) kind = bandwidth;
      else if (contains(s, "latency")) kind = latency;
      continue;
    }
    double size = 0, value = 0;
    if (!two_numbers(s, &size, &value)) {
      if (!header_seen && samples == 0) {  // a CSV header
        header_seen = true;
        if (contains(s, "mb/s") || contains(s, "bandwidth")) kind = bandwidth;
        continue;
      }
      fail("expected two numbers, the message size in bytes and " +
           std::string(kind == bandwidth ? "the bandwidth in MB/s" : "the one-way time in microseconds") + "; got \"" +
           sim::escape_non_ascii(s.substr(0, 80)) + "\"");
    }
    if (!(size >= 0) || size != std::floor(size) || size > 1e15)
      fail("the message size must be a whole number of bytes, got " + trim(raw.substr(0, raw.find_first_of(", \t"))));
    if (!(value > 0) || !std::isfinite(value))
      fail(std::string(kind == bandwidth ? "the bandwidth" : "the time") + " must be a positive number");
    if (kind == bandwidth) {
      if (size == 0) continue;  // no bandwidth of empty messages
      into.streaming.push_back({size, size / (value * 1e6) * 1e12});
    } else {
      into.latency.push_back({size, value * 1e6});
    }
    ++samples;
  }
  if (samples == 0)
    throw sim::InputError(where, "no measurements: expected osu_latency's or osu_bw's output, or lines of \"bytes,microseconds\"");
  into.sources.push_back(where);
}

Fit fit_network(const Measurements& m, const FitOptions& o) {
  if (distinct_sizes(m.latency) < 2)
    throw sim::InputError("", "calibration needs one-way times of at least two message sizes (osu_latency's output or a CSV); "
                              "bandwidths alone do not give the latency");
  Fit fit;
  nlohmann::ordered_json j;
  j["mpisim-network"] = 1;
  j["name"] = o.name;
  j["about"] = "";  // filled in below, with the fit's error
  std::string sources;
  for (const std::string& s : m.sources) sources += (sources.empty() ? "" : ", ") + s;
  // predict(bytes, streaming) of the fitted model, from the values as written.
  std::function<double(double, bool)> predict;

  if (o.form == FitForm::hockney) {
    const auto [a, b] = least_squares(hockney_rows(m.latency, m.streaming));
    j["model"] = "hockney";
    j["alpha"] = time_text(a);
    j["beta"] = per_byte(b);
    const double alpha = reread(j["alpha"]), beta = reread(j["beta"]);
    predict = [=](double n, bool streaming) {
      const double wire = std::round(n * beta);
      return streaming ? wire : alpha + wire;
    };
  } else if (o.form == FitForm::piecewise) {
    std::vector<double> sizes;
    for (const Sample& s : m.latency) sizes.push_back(s.bytes);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    auto split = [&](double limit) {
      std::vector<Sample> lo_l, hi_l, lo_s, hi_s;
      for (const Sample& s : m.latency) (s.bytes <= limit ? lo_l : hi_l).push_back(s);
      for (const Sample& s : m.streaming) (s.bytes <= limit ? lo_s : hi_s).push_back(s);
      return std::array<std::vector<Row>, 2>{hockney_rows(lo_l, lo_s), hockney_rows(hi_l, hi_s)};
    };
    auto pieces_ok = [&](double limit) {
      std::set<double> lo, hi;
      for (const Sample& s : m.latency) (s.bytes <= limit ? lo : hi).insert(s.bytes);
      return lo.size() >= 2 && hi.size() >= 2;
    };
    double limit = -1;
    if (o.eager_limit) {
      limit = static_cast<double>(*o.eager_limit);
      if (!pieces_ok(limit))
        throw sim::InputError("--eager-limit", "each piece needs one-way times of at least two sizes on its side of " +
                                                   std::to_string(*o.eager_limit) + " bytes");
    } else {
      double best = std::numeric_limits<double>::infinity();
      for (double s : sizes) {
        if (!pieces_ok(s)) continue;
        auto rows = split(s);
        const double e = squared_error(rows[0], least_squares(rows[0])) + squared_error(rows[1], least_squares(rows[1]));
        if (e < best) best = e, limit = s;
      }
      if (limit < 0)
        throw sim::InputError("", "a piecewise fit needs one-way times of at least four message sizes (two per piece)");
    }
    auto rows = split(limit);
    const auto lo = least_squares(rows[0]), hi = least_squares(rows[1]);
    j["model"] = "hockney";
    j["alpha"] = time_text(lo.first);
    j["beta"] = per_byte(lo.second);
    j["eager_limit"] = static_cast<std::uint64_t>(limit);
    j["rendezvous_alpha"] = time_text(hi.first);
    j["rendezvous_beta"] = per_byte(hi.second);
    const double a1 = reread(j["alpha"]), b1 = reread(j["beta"]), a2 = reread(j["rendezvous_alpha"]),
                 b2 = reread(j["rendezvous_beta"]);
    predict = [=](double n, bool streaming) {
      const bool eager = n <= limit;
      const double wire = std::round(n * (eager ? b1 : b2));
      return streaming ? wire : (eager ? a1 : a2) + wire;
    };
    fit.notes.push_back("break at " + std::to_string(static_cast<std::uint64_t>(limit)) + " bytes (the eager limit)" +
                        (o.eager_limit ? ", as --eager-limit gives" : ": the pieces' fits are best split there"));
  } else {
    // t(n) = 2o + L + (n-1)G is α + nβ with G = β and 2o + L = α + β.
    const auto [a, b] = least_squares(hockney_rows(m.latency, {}));
    const double G = b;
    const double ol = a + G;  // 2o + L
    double overhead = o.overhead_ps.value_or(0);
    if (2 * overhead > ol)
      throw sim::InputError("--overhead", "twice the overhead o (" + format_time(std::llround(overhead)) +
                                              ") exceeds the fitted 2o + L (" + format_time(std::llround(ol)) + ")");
    if (!o.overhead_ps)
      fit.notes.push_back("o is not observable from a ping-pong (only 2o + L is): set to 0, all of it in L; "
                          "give --overhead to split it");
    double g = overhead;
    if (!m.streaming.empty()) {
      const Sample smallest = *std::min_element(m.streaming.begin(), m.streaming.end(),
                                                [](const Sample& x, const Sample& y) { return x.bytes < y.bytes; });
      g = std::max(0.0, smallest.ps - (smallest.bytes - 1) * G);
      fit.notes.push_back("g from the streaming rate of " + std::to_string(static_cast<std::uint64_t>(smallest.bytes)) +
                          "-byte messages");
    } else {
      fit.notes.push_back("no bandwidth measurements (osu_bw): g set to o");
    }
    j["model"] = "loggp";
    j["L"] = time_text(ol - 2 * overhead);
    j["o"] = time_text(overhead);
    j["g"] = time_text(g);
    j["G"] = per_byte(G);
    const double L = reread(j["L"]), ov = reread(j["o"]), gap = reread(j["g"]), GG = reread(j["G"]);
    predict = [=](double n, bool streaming) {
      const double extra = std::round(std::max(n - 1, 0.0) * GG);
      return streaming ? std::max(ov, gap + extra) : 2 * ov + L + extra;
    };
  }

  double sum = 0;
  for (const auto* set : {&m.latency, &m.streaming})
    for (const Sample& s : *set) {
      FitRow r{s.bytes, set == &m.streaming, s.ps, predict(s.bytes, set == &m.streaming)};
      const double e = std::abs(r.predicted_ps - r.measured_ps) / r.measured_ps;
      fit.max_error = std::max(fit.max_error, e);
      sum += e * e;
      fit.rows.push_back(r);
    }
  std::stable_sort(fit.rows.begin(), fit.rows.end(), [](const FitRow& x, const FitRow& y) {
    return x.streaming != y.streaming ? !x.streaming : x.bytes < y.bytes;
  });
  fit.rms_error = std::sqrt(sum / static_cast<double>(fit.rows.size()));
  char about[256];
  std::snprintf(about, sizeof about, "fitted by mpisim calibrate to %zu measurements: error at most %.1f %%, rms %.1f %%",
                fit.rows.size(), 100 * fit.max_error, 100 * fit.rms_error);
  j["about"] = std::string(about) + " (" + sources + ")";
  fit.network_json = j.dump(2) + "\n";
  parse_network(fit.network_json, "the fitted network");  // it loads, or this is our error
  return fit;
}

}  // namespace mpisim::net
