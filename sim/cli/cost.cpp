#include "sim/cli/cost.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "model/coll/deploy.hpp"
#include "model/coll/registry.hpp"
#include "model/coll/selection.hpp"
#include "model/net/network_file.hpp"
#include "model/net/units.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/cli/progress.hpp"
#include "sim/input_error.hpp"
#include "model/coll/one_call.hpp"
#include "sim/json_writer.hpp"
#include "sim/suggest.hpp"

namespace mpisim::cli {
namespace {

using coll::Collective;

// A size as the table and the plot label it: in KiB, MiB or GiB where that is
// exact as shown, else in bytes, so that two sizes never share a label.
std::string format_bytes(std::uint64_t b) {
  std::string s = net::format_bytes(b);
  const std::uint64_t unit = b < 1024 ? 1 : b < (1ull << 20) ? 1024 : b < (1ull << 30) ? (1ull << 20) : (1ull << 30);
  const std::uint64_t shown = unit == (1ull << 30) ? 100 : 10;  // decimals shown: 2 for GiB, 1 otherwise
  if (unit > 1 && (b % unit) * shown % unit != 0) s = std::to_string(b) + " B";
  return s;
}
using net::format_time;

std::uint64_t parse_value(const std::string& text, const std::string& option, bool bytes) {
  if (bytes) {
    auto b = net::parse_bytes(text);
    if (!b) throw sim::InputError(option, "expected a byte count such as 1024 or 64KiB; got \"" + text + "\"");
    return *b;
  }
  std::uint64_t v = 0;
  bool ok = !text.empty() && text.size() < 10;
  for (char c : text) {
    ok = ok && c >= '0' && c <= '9';
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!ok || v == 0) throw sim::InputError(option, "expected a positive number of ranks; got \"" + text + "\"");
  return v;
}

struct Point {
  std::uint64_t ranks, bytes;
  std::vector<std::int64_t> time_ps;  // per algorithm; -1: not eligible here
  std::size_t best = 0;
  const coll::Algorithm* mpich = nullptr;  // what MPICH's default selection picks here
  std::int64_t mpich_ps = -1;              // and its time
  bool has_ompi = false;                   // Open MPI's fixed decision is encoded for this collective
  coll::LibraryDefault ompi{};             // what it picks here
  std::int64_t ompi_ps = -1;               // and its time, when mpisim has the algorithm
  coll::Selection::Pick selected{};        // what --selection's file picks here
  std::string selected_note;               // why it has no time here (not modelled, n/a, the default)
  std::int64_t selected_ps = -1;           // its time
};

// Where the fastest algorithm changes between two neighbouring sizes of a sweep:
// the smallest size at which `to` is faster than `from` (bisected).
struct Crossover {
  std::uint64_t ranks, bytes;
  const coll::Algorithm *from, *to;
};

// How much longer `t` is than `best`, in percent: "12.5 %".
std::string format_pct(std::int64_t t, std::int64_t best) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", best > 0 ? 100.0 * static_cast<double>(t - best) / static_cast<double>(best) : 0.0);
  return buf;
}

std::string ineligible_here(const coll::Algorithm& a, std::uint64_t p) {
  if (a.restrictions.power_of_two_only && (p & (p - 1)) != 0) return "needs a power-of-two rank count";
  if (a.restrictions.two_only && p != 2) return "needs two ranks";
  return {};
}

// The plot: time against size, one line per algorithm, one panel per rank count.
std::string svg_plot(const std::string& title, const std::vector<const coll::Algorithm*>& algs,
                     const std::vector<Point>& points, const std::vector<Crossover>& crossovers) {
  static const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  std::map<std::uint64_t, std::vector<const Point*>> panels;
  for (const auto& pt : points) panels[pt.ranks].push_back(&pt);
  const double W = 720, H = 360, left = 80, right = 190, top = 40, bottom = 50;
  std::ostringstream o;
  o << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << W << "\" height=\"" << H * panels.size()
    << R"(" font-family="sans-serif" font-size="12">)" << "\n";
  double y0 = 0;
  for (const auto& [ranks, pts] : panels) {
    double lo_b = 1e300, hi_b = 0, lo_t = 1e300, hi_t = 0;
    for (const Point* pt : pts) {
      double b = std::max<double>(1, static_cast<double>(pt->bytes));
      lo_b = std::min(lo_b, b), hi_b = std::max(hi_b, b);
      for (auto t : pt->time_ps)
        if (t > 0) lo_t = std::min(lo_t, static_cast<double>(t)), hi_t = std::max(hi_t, static_cast<double>(t));
    }
    if (hi_t <= 0) continue;
    if (hi_b <= lo_b) hi_b = lo_b * 2;
    double ldec = std::floor(std::log10(lo_t)), hdec = std::ceil(std::log10(hi_t));
    if (hdec <= ldec) hdec = ldec + 1;
    auto x = [&](double b) { return left + (std::log2(std::max(1.0, b)) - std::log2(lo_b)) / (std::log2(hi_b) - std::log2(lo_b)) * (W - left - right); };
    auto y = [&](double t) { return y0 + top + (hdec - std::log10(t)) / (hdec - ldec) * (H - top - bottom); };
    o << R"(<text x=")" << left << "\" y=\"" << y0 + 22 << R"(" font-size="14">)" << title << " on " << ranks
      << " ranks</text>\n";
    o << R"(<rect x=")" << left << "\" y=\"" << y0 + top << "\" width=\"" << W - left - right << "\" height=\""
      << H - top - bottom << R"(" fill="none" stroke="#444"/>)" << "\n";
    for (double d = ldec; d <= hdec; ++d) {
      double ty = y(std::pow(10.0, d));
      o << R"(<line x1=")" << left << "\" x2=\"" << W - right << "\" y1=\"" << ty << "\" y2=\"" << ty
        << R"(" stroke="#ddd"/><text x=")" << left - 6 << "\" y=\"" << ty + 4 << R"(" text-anchor="end">)"
        << format_time(static_cast<std::int64_t>(std::llround(std::pow(10.0, d)))) << "</text>\n";
    }
    double last_end = -1e9;  // where the last size label drawn ends
    for (const Point* pt : pts) {
      const double tx = x(static_cast<double>(pt->bytes));
      const std::string label = format_bytes(pt->bytes);
      const double half = 3.0 * static_cast<double>(label.size());  // 10-pixel text: at most 6 pixels a character
      if (tx - half < last_end + 6) continue;  // it would overlap the last one
      last_end = tx + half;
      o << R"(<text x=")" << tx << "\" y=\"" << y0 + H - bottom + 16 << R"(" text-anchor="middle" font-size="10">)"
        << label << "</text>\n";
    }
    o << R"(<text x=")" << (left + W - right) / 2 << "\" y=\"" << y0 + H - 12
      << R"(" text-anchor="middle">message size (log scale); the best algorithm at each size is ringed</text>)" << "\n";
    // The crossovers: a dashed line at each, labelled with the size. A label
    // goes right of its line, or left of it where it would leave the plot, on the
    // first line of text where it overlaps no other label (10-pixel text is taken
    // as at most 6 pixels a character).
    std::vector<std::vector<std::pair<double, double>>> rows;  // per line of labels: the spans taken
    for (const Crossover& cr : crossovers) {
      if (cr.ranks != ranks) continue;
      const double cx = x(static_cast<double>(cr.bytes));
      o << R"(<line stroke="#555" stroke-dasharray="4,3" x1=")" << cx << "\" x2=\"" << cx << "\" y1=\"" << y0 + top
        << "\" y2=\"" << y0 + H - bottom << "\"/>\n";
      const std::string label = std::string(cr.to->name) + " from " + format_bytes(cr.bytes);
      const double width = 6.0 * static_cast<double>(label.size());
      const bool left_of = cx + 3 + width > W - right;
      const double from = left_of ? cx - 3 - width : cx + 3, to = from + width;
      std::size_t row = 0;
      while (row < rows.size() && std::any_of(rows[row].begin(), rows[row].end(), [&](const auto& span) {
               return from < span.second + 4 && span.first < to + 4;
             }))
        ++row;
      if (row == rows.size()) rows.emplace_back();
      rows[row].emplace_back(from, to);
      o << R"(<text font-size="10" fill="#555" x=")" << (left_of ? cx - 3 : cx + 3) << "\" y=\"" << y0 + top + 10 + 12 * static_cast<double>(row)
        << (left_of ? R"(" text-anchor="end">)" : "\">") << label << "</text>\n";
    }
    for (std::size_t a = 0; a < algs.size(); ++a) {
      const char* colour = kColours[a % 10];
      std::string line;
      for (const Point* pt : pts) {
        if (pt->time_ps[a] <= 0) continue;
        std::ostringstream xy;
        xy << x(static_cast<double>(pt->bytes)) << "," << y(static_cast<double>(pt->time_ps[a]));
        line += (line.empty() ? "" : " ") + xy.str();
      }
      if (line.empty()) continue;
      o << R"(<polyline fill="none" stroke-width="2" stroke=")" << colour << "\" points=\"" << line << "\"/>\n";
      for (const Point* pt : pts)
        if (pt->time_ps[a] > 0 && pt->best == a)
          o << R"(<circle r="5" fill="none" stroke-width="2" stroke=")" << colour << "\" cx=\""
            << x(static_cast<double>(pt->bytes)) << "\" cy=\"" << y(static_cast<double>(pt->time_ps[a])) << "\"/>\n";
      double ly = y0 + top + 14 + 18 * static_cast<double>(a);
      o << R"(<line x1=")" << W - right + 12 << "\" x2=\"" << W - right + 36 << "\" y1=\"" << ly - 4 << "\" y2=\""
        << ly - 4 << R"(" stroke-width="2" stroke=")" << colour << R"("/><text x=")" << W - right + 42 << "\" y=\""
        << ly << "\">" << algs[a]->name << "</text>\n";
    }
    y0 += H;
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace

std::vector<std::uint64_t> parse_sweep(const std::string& text, const std::string& option, bool bytes) {
  std::vector<std::uint64_t> out;
  auto dots = text.find("..");
  if (dots == std::string::npos) {
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(parse_value(item, option, bytes));
    if (out.empty()) throw sim::InputError(option, "expected a value, a list (4,16,64) or a range (8..16MiB)");
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }
  std::string hi_text = text.substr(dots + 2);
  double factor = 0;
  if (auto colon = hi_text.find(':'); colon != std::string::npos) {
    std::string f = hi_text.substr(colon + 1);
    hi_text = hi_text.substr(0, colon);
    char* end = nullptr;
    factor = f.empty() || !(std::isdigit(static_cast<unsigned char>(f[0]))) ? 0 : std::strtod(f.c_str(), &end);
    if (f.empty() || end == nullptr || *end != '\0' || !(factor > 1.0) || factor > 1e6)
      throw sim::InputError(option, "the factor after ':' must be a number greater than 1 (2, or 1.25), at most 10^6; got \"" +
                                        f + "\"");
  }
  std::uint64_t lo = parse_value(text.substr(0, dots), option, bytes), hi = parse_value(hi_text, option, bytes);
  if (hi < lo) throw sim::InputError(option, "the range's end is below its start: \"" + text + "\"");
  if (lo == 0) {
    out.push_back(0);
    lo = 1;
  }
  if (factor == 0) {
    // The smallest power of two that keeps the range to at most 12 points.
    double span = std::log2(static_cast<double>(hi) / static_cast<double>(lo));
    factor = static_cast<double>(std::uint64_t{1} << std::max(1, static_cast<int>(std::ceil(span / 11 - 1e-9))));
  }
  // lo·factor^k rounded to whole values (each at least one more than the last),
  // then the end point; at most 10,000 points.
  for (double v = static_cast<double>(lo); v < static_cast<double>(hi);) {
    const auto x = static_cast<std::uint64_t>(std::llround(v));
    if (x >= hi) break;
    if (out.empty() || x > out.back()) out.push_back(x);
    if (out.size() > 10000) throw sim::InputError(option, "the range \"" + text + "\" has more than 10,000 points");
    v = std::max(v * factor, static_cast<double>(x) + 1);
  }
  out.push_back(hi);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int run_cost(const CostFlags& f, std::ostream& out, std::ostream& err) {
  Collective c{};
  if (!coll::collective_by_name(f.collective, &c)) {
    std::string known;
    sim::Suggestion near(f.collective);
    for (int i = 0; i < coll::kCollectives; ++i)
      if (!coll::neighborhood(static_cast<Collective>(i))) {
        known += (i ? ", " : "") + std::string(coll::collective_name(static_cast<Collective>(i)));
        near.consider(coll::collective_name(static_cast<Collective>(i)));
      }
    throw sim::InputError("COLLECTIVE", "\"" + f.collective + "\" is not a collective" + near.hint() + "; known: " + known);
  }
  if (coll::neighborhood(c))
    throw sim::InputError("COLLECTIVE", f.collective + " is a neighbourhood collective: it runs on a communicator with a "
                                        "process topology, and mpisim cost calls every collective on MPI_COMM_WORLD; "
                                        "time it in a scenario or a C program");
  std::vector<std::uint64_t> ranks = parse_sweep(f.ranks, "--ranks", false);
  std::vector<std::uint64_t> sizes = parse_sweep(f.bytes, "--bytes", true);
  for (auto p : ranks)
    if (p > runner::kMaxRanks) throw sim::InputError("--ranks", std::to_string(p) + " ranks is more than mpisim runs (at most 2^24)");

  std::vector<const coll::Algorithm*> algs;
  for (const auto& a : coll::algorithms())
    if (a.collective == c && !a.restrictions.intercomm &&
        (f.algorithms.empty() || std::find(f.algorithms.begin(), f.algorithms.end(), a.name) != f.algorithms.end()))
      algs.push_back(&a);
  for (const auto& name : f.algorithms)
    if (std::none_of(algs.begin(), algs.end(), [&](const coll::Algorithm* a) { return a->name == name; })) {
      sim::Suggestion near(name);
      for (const auto& a : coll::algorithms())
        if (a.collective == c && !a.restrictions.intercomm) near.consider(a.name);
      throw sim::InputError("--algorithm", "no algorithm \"" + name + "\" for " + f.collective + near.hint() +
                                               "; mpisim --list-algorithms lists them");
    }

  std::uint64_t shard = 0, shards = 1;
  if (!f.shard.empty()) {
    auto slash = f.shard.find('/');
    bool ok = slash != std::string::npos;
    try {
      if (ok) shard = std::stoull(f.shard.substr(0, slash)), shards = std::stoull(f.shard.substr(slash + 1));
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok || shards == 0 || shard < 1 || shard > shards)
      throw sim::InputError("--shard", "expected i/n with 1 <= i <= n, e.g. 2/8; got \"" + f.shard + "\"");
    --shard;
  }

  if (!f.shard.empty() && (!f.mpich_tuning.empty() || !f.ompi_rules.empty()))
    throw sim::InputError("--shard", "a tuning file needs the whole sweep: run it without --shard");
  net::Network net = f.network.empty() ? net::default_network() : net::load_network_file(f.network);
  std::shared_ptr<const coll::Selection> selection;
  if (!f.selection.empty()) selection = coll::Selection::load(f.selection);
  // Each point: one call of the collective on MPI_COMM_WORLD, built on the library directly.
  coll::OneCall call;
  call.kind = c;
  call.payload = f.payload == "data" ? mpi::PayloadMode::data : mpi::PayloadMode::sizes;
  call.type = mpi::predefined_type(coll::reduces(c) ? "MPI_DOUBLE" : "MPI_BYTE");
  call.op = mpi::predefined_op("MPI_SUM");

  std::vector<Point> points;
  std::size_t index = 0;
  // Which run of the sweep is going, on a terminal's stderr.
  ProgressLine progress(err, !f.quiet);
  const std::size_t runs = (ranks.size() * sizes.size() + shards - 1 - shard) / shards * algs.size();
  std::size_t run = 0;
  // One run of algorithm `a` at p ranks and b bytes: its makespan.
  auto time_of = [&](const coll::Algorithm& a, std::uint64_t p, std::uint64_t b) {
    call.ranks = static_cast<std::int64_t>(p);
    // Reductions add doubles: the count is bytes / 8, rounded up.
    call.count = static_cast<std::int64_t>(coll::reduces(c) ? (b + 7) / 8 : b);
    call.algorithm = &a;
    coll::OneCallResult r = coll::run_one_call(call, *net.model);
    if (!r.clean) {
      if (r.internal_error) throw std::runtime_error(r.failure);
      throw sim::InputError(f.collective + " " + std::string(a.name) + " on " + std::to_string(p) + " ranks, " +
                                format_bytes(b),
                            r.failure);
    }
    return r.makespan_ps;
  };
  // What MPICH's default selection sees of such a call.
  auto mpich_inputs = [&](std::uint64_t p, std::uint64_t b) {
    coll::AutoInputs in;
    in.kind = c;
    in.p = static_cast<int>(p);
    in.recvcount = in.sendcount = static_cast<std::int64_t>(coll::reduces(c) ? (b + 7) / 8 : b);
    in.recv_bytes = in.send_bytes = in.recvcount * call.type->size();
    in.total_recv_bytes = in.recv_bytes * static_cast<std::int64_t>(p);
    return in;
  };
  // What --selection's file picks at a point, and its time (where the file leaves
  // the call to the default selection, MPICH's default is what runs).
  auto select = [&](Point& pt) {
    coll::NodeFacts nodes;
    if (selection->uses_nodes()) {
      net.model->reset(static_cast<net::Rank>(pt.ranks));
      std::vector<int> node_by_rank(pt.ranks);
      for (std::uint64_t r = 0; r < pt.ranks; ++r) node_by_rank[r] = static_cast<int>(net.model->node(static_cast<net::Rank>(r)));
      nodes = coll::node_facts(node_by_rank);
    }
    pt.selected = selection->pick(coll::cost_facts(c, pt.ranks, pt.bytes), nodes);
    // Left undecided, a call takes the library's default: Open MPI's fixed
    // decisions under its rules file, MPICH's default selection otherwise.
    const bool ompi = selection->library() == coll::Selection::Library::ompi && pt.has_ompi;
    const coll::Algorithm* a = pt.selected.decided ? pt.selected.algorithm : ompi ? pt.ompi.algorithm : pt.mpich;
    if (!pt.selected.decided) {
      pt.selected_note = ompi ? "Open MPI's default" : "MPICH's default";
      pt.selected.algorithm = a;
      pt.selected.name = ompi ? pt.ompi.name : std::string(pt.mpich->name);
    }
    if (!a) {
      pt.selected_note = "not modelled";
      return;
    }
    if (std::string no = ineligible_here(*a, pt.ranks); !no.empty()) {
      pt.selected_note = "n/a: " + no;
      return;
    }
    if (pt.selected.segment_bytes > 0) {  // a segment size of its own: timed apart
      call.segment_bytes = pt.selected.segment_bytes;
      pt.selected_ps = time_of(*a, pt.ranks, pt.bytes);
      call.segment_bytes = 0;
    } else if (auto it = std::find(algs.begin(), algs.end(), a); it != algs.end()) {
      pt.selected_ps = pt.time_ps[static_cast<std::size_t>(it - algs.begin())];
    } else {
      pt.selected_ps = time_of(*a, pt.ranks, pt.bytes);
    }
  };
  for (auto p : ranks)
    for (auto b : sizes) {
      if (index++ % shards != shard) continue;
      Point pt{};
      pt.ranks = p, pt.bytes = b;
      for (const coll::Algorithm* a : algs) {
        ++run;
        if (!ineligible_here(*a, p).empty()) {
          pt.time_ps.push_back(-1);
          continue;
        }
        progress.show("mpisim cost: run " + std::to_string(run) + " of " + std::to_string(runs) + ": " +
                      std::string(a->name) + ", " + std::to_string(p) + " ranks, " + format_bytes(b));
        pt.time_ps.push_back(time_of(*a, p, b));
      }
      // The best: the fastest; on a tie, the first in the registry.
      std::int64_t best = -1;
      for (std::size_t i = 0; i < pt.time_ps.size(); ++i)
        if (pt.time_ps[i] >= 0 && (best < 0 || pt.time_ps[i] < best)) best = pt.time_ps[i], pt.best = i;
      // MPICH's default selection here, and its time (timed unless one of the columns).
      pt.mpich = &coll::auto_algorithm(mpich_inputs(p, b));
      if (auto it = std::find(algs.begin(), algs.end(), pt.mpich); it != algs.end())
        pt.mpich_ps = pt.time_ps[static_cast<std::size_t>(it - algs.begin())];
      else
        pt.mpich_ps = time_of(*pt.mpich, p, b);
      // Open MPI's fixed decision, where it is encoded, and its time where mpisim has it.
      pt.has_ompi = coll::ompi_default(c, p, b, &pt.ompi);
      if (pt.has_ompi && pt.ompi.algorithm && ineligible_here(*pt.ompi.algorithm, p).empty()) {
        if (auto it = std::find(algs.begin(), algs.end(), pt.ompi.algorithm); it != algs.end())
          pt.ompi_ps = pt.time_ps[static_cast<std::size_t>(it - algs.begin())];
        else
          pt.ompi_ps = time_of(*pt.ompi.algorithm, p, b);
      }
      if (selection) select(pt);
      points.push_back(std::move(pt));
    }

  // The crossovers, where the fastest changes between neighbouring sizes: bisected
  // in whole elements (doubles for the reductions, bytes otherwise).
  std::vector<Crossover> crossovers;
  const std::uint64_t unit = coll::reduces(c) ? 8 : 1;
  // Between neighbouring points a and b of one rank count where algorithm i wins
  // at a and j at b: the smallest size at which j is faster (on a tie, the one
  // first in the registry), or 0 when one of them cannot run here.
  auto bisect = [&](const Point& a, const Point& b, std::size_t i, std::size_t j) -> std::uint64_t {
    if (a.time_ps[j] < 0 || b.time_ps[i] < 0 || a.time_ps[i] < 0 || b.time_ps[j] < 0) return 0;
    std::uint64_t lo = (a.bytes + unit - 1) / unit, hi = (b.bytes + unit - 1) / unit;  // i wins at lo, j at hi
    while (hi - lo > 1) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      const std::int64_t ti = time_of(*algs[i], a.ranks, mid * unit), tj = time_of(*algs[j], a.ranks, mid * unit);
      if (tj < ti || (tj == ti && j < i)) hi = mid;
      else lo = mid;
    }
    return hi * unit;
  };
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const Point &a = points[i], &b = points[i + 1];
    if (a.ranks != b.ranks || a.best == b.best) continue;
    if (const std::uint64_t at = bisect(a, b, a.best, b.best)) crossovers.push_back({a.ranks, at, algs[a.best], algs[b.best]});
  }
  // The tuning files switch between the fastest algorithms each library has: where
  // those change between two sizes, their crossover too.
  std::vector<coll::Switch> switches;
  for (const Crossover& cr : crossovers) switches.push_back({cr.ranks, cr.bytes, cr.from, cr.to});
  auto library_crossovers = [&](bool (*has)(const coll::Algorithm&)) {
    auto fastest = [&](const Point& pt) {
      std::size_t pick = algs.size();
      for (std::size_t i = 0; i < algs.size(); ++i)
        if (pt.time_ps[i] >= 0 && has(*algs[i]) && (pick == algs.size() || pt.time_ps[i] < pt.time_ps[pick])) pick = i;
      return pick;
    };
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
      const Point &a = points[k], &b = points[k + 1];
      const std::size_t i = fastest(a), j = fastest(b);
      if (a.ranks != b.ranks || i == j || i == algs.size() || j == algs.size()) continue;
      if (std::any_of(switches.begin(), switches.end(), [&](const coll::Switch& w) {
            return w.ranks == a.ranks && w.from == algs[i] && w.to == algs[j] && w.bytes > a.bytes && w.bytes <= b.bytes;
          }))
        continue;
      if (const std::uint64_t at = bisect(a, b, i, j)) switches.push_back({a.ranks, at, algs[i], algs[j]});
    }
  };
  if (!f.mpich_tuning.empty()) library_crossovers([](const coll::Algorithm& a) { return !a.library.mpich.empty(); });
  if (!f.ompi_rules.empty())
    library_crossovers([](const coll::Algorithm& a) { return a.library.ompi > 0 && !a.restrictions.two_only; });

  progress.clear();
  const std::string model = std::string(net.model->kind());
  if (!f.quiet) {
    std::size_t width = 12;
    for (const auto* a : algs) width = std::max(width, a->name.size() + 3);
    auto pad = [](std::string s, std::size_t w) { return s + std::string(w > s.size() ? w - s.size() : 1, ' '); };
    std::uint64_t shown = 0;
    bool first = true;
    for (const Point& pt : points) {
      if (first || pt.ranks != shown) {
        out << (first ? "" : "\n") << f.collective << " on " << pt.ranks << " ranks, network " << net.name << " ("
            << model << "), " << (call.payload == mpi::PayloadMode::sizes ? "sizes" : "data") << " mode\n";
        out << pad("bytes", 12);
        for (const auto* a : algs) out << pad(std::string(a->name), width);
        out << pad("MPICH's default", 36);
        if (pt.has_ompi) out << (selection ? pad("Open MPI's default", 48) : "Open MPI's default");
        if (selection) out << "selection " << selection->path();
        out << "\n";
        shown = pt.ranks;
        first = false;
      }
      out << pad(format_bytes(pt.bytes), 12);
      for (std::size_t i = 0; i < algs.size(); ++i)
        out << pad(pt.time_ps[i] < 0 ? "n/a" : format_time(pt.time_ps[i]) + (i == pt.best ? " *" : ""), width);
      auto verdict = [&](const std::string& name, std::int64_t t) {
        std::string v = name + " " + format_time(t);
        if (pt.time_ps[pt.best] >= 0 && t > pt.time_ps[pt.best]) v += " (+" + format_pct(t, pt.time_ps[pt.best]) + ")";
        return v;
      };
      const std::string mpich = verdict(std::string(pt.mpich->name), pt.mpich_ps);
      out << (pt.has_ompi || selection ? pad(mpich, 36) : mpich);
      if (pt.has_ompi) {
        // mpisim's name of it where mpisim has it, Open MPI's where not.
        std::string name = pt.ompi.algorithm ? std::string(pt.ompi.algorithm->name) : pt.ompi.name;
        if (!pt.ompi.note.empty()) name += " (" + pt.ompi.note + ")";
        const std::string cell = pt.ompi_ps >= 0        ? verdict(name, pt.ompi_ps)
                                 : pt.ompi.algorithm ? name + " (n/a: " + ineligible_here(*pt.ompi.algorithm, pt.ranks) + ")"
                                                     : name + " (not modelled)";
        out << (selection ? pad(cell, 48) : cell);
      }
      if (selection) {
        // mpisim's name where mpisim has it, the library's where not; the
        // default's where the file leaves the call to it.
        const coll::Selection::Pick& s = pt.selected;
        std::string name = s.algorithm ? std::string(s.algorithm->name) : s.name;
        if (s.algorithm && s.segment_bytes > 0) name += " (" + format_bytes(static_cast<std::uint64_t>(s.segment_bytes)) + " segments)";
        out << (pt.selected_ps >= 0 ? verdict(name, pt.selected_ps) : name) +
                   (pt.selected_note.empty() ? "" : " (" + pt.selected_note + ")");
      }
      out << "\n";
      const bool last_of_rank = &pt == &points.back() || (&pt + 1)->ranks != pt.ranks;
      if (last_of_rank)
        for (const Crossover& cr : crossovers)
          if (cr.ranks == pt.ranks)
            out << "crossover: " << cr.to->name << " is faster than " << cr.from->name << " from " << cr.bytes
                << " bytes (" << net::format_bytes(cr.bytes) << ")\n";
    }
    out << "* the fastest at that size; n/a: the algorithm cannot run at that rank count (power of two only, or two ranks only);\n"
           "MPICH's default: what MPICH's default selection picks there (docs/collectives.md), its time, and how\n"
           "much slower than the fastest it is; Open MPI's default likewise, from the tuned component's fixed\n"
           "decisions (docs/cost.md)" << (selection ? "; selection: what the file selects there (or the library's\n"
                                                      "default, where the file leaves the call to it)\n"
                                                    : "\n");
  }
  if (!f.json.empty()) {
    // JSON Lines: one object per (ranks, bytes, algorithm), so shards merge by concatenation.
    std::ofstream o(f.json, std::ios::binary);
    if (!o) throw sim::InputError(f.json, "cannot write the JSON file");
    for (const Point& pt : points)
      for (std::size_t i = 0; i < algs.size(); ++i) {
        if (pt.time_ps[i] < 0) continue;
        std::string line;
        sim::JsonWriter w(line, 0);
        w.begin_object();
        w.field("collective", f.collective).field("network", net.name).field("model", model);
        w.field("ranks", pt.ranks).field("bytes", pt.bytes).field("algorithm", std::string(algs[i]->name));
        w.field("time_ps", pt.time_ps[i]).field("best", i == pt.best).field("mpich_default", algs[i] == pt.mpich);
        if (pt.has_ompi) w.field("ompi_default", algs[i] == pt.ompi.algorithm);
        if (selection) w.field("selected", algs[i] == pt.selected.algorithm && pt.selected.segment_bytes == 0);
        w.end_object();
        while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
        o << line << "\n";
      }
  }
  if (!f.csv.empty()) {
    std::ofstream o(f.csv, std::ios::binary);
    if (!o) throw sim::InputError(f.csv, "cannot write the CSV file");
    o << "collective,network,ranks,bytes,algorithm,time_ps,best,mpich_default\n";
    for (const Point& pt : points)
      for (std::size_t i = 0; i < algs.size(); ++i)
        if (pt.time_ps[i] >= 0)
          o << f.collective << "," << net.name << "," << pt.ranks << "," << pt.bytes << "," << algs[i]->name << ","
            << pt.time_ps[i] << "," << (i == pt.best ? "true" : "false") << ","
            << (algs[i] == pt.mpich ? "true" : "false") << "\n";
  }
  if (!f.svg.empty()) {
    std::ofstream o(f.svg, std::ios::binary);
    if (!o) throw sim::InputError(f.svg, "cannot write the SVG file");
    o << svg_plot(f.collective + ", network " + net.name, algs, points, crossovers);
  }
  if (!f.mpich_tuning.empty() || !f.ompi_rules.empty()) {
    coll::Sweep sweep{c, algs, {}, switches};
    for (const Point& pt : points) sweep.points.push_back({pt.ranks, pt.bytes, pt.time_ps});
    auto write = [&](const std::string& path, const coll::TuningFile& file, const char* library) {
      std::ofstream o(path, std::ios::binary);
      if (!o) throw sim::InputError(path, "cannot write the tuning file");
      o << file.text;
      if (f.quiet) return;
      // What the file chooses, per rank count: the algorithm over each run of sizes.
      out << "\n" << library << " tuning file " << path << ":\n";
      std::uint64_t shown = 0;
      for (std::size_t i = 0; i < file.choices.size(); ++i) {
        const coll::Choice& ch = file.choices[i];
        if (ch.ranks != shown) out << (shown ? "\n" : "") << "  " << ch.ranks << " ranks:", shown = ch.ranks;
        const bool starts = i == 0 || file.choices[i - 1].ranks != ch.ranks || file.choices[i - 1].algorithm != ch.algorithm;
        if (starts) out << " " << format_bytes(ch.bytes) << " " << ch.algorithm->name;
        if (!ch.fastest) out << " (not the fastest at " << format_bytes(ch.bytes) << ")";
      }
      out << "\n";
    };
    if (!f.mpich_tuning.empty()) write(f.mpich_tuning, coll::mpich_tuning_file(sweep), "MPICH");
    if (!f.ompi_rules.empty()) write(f.ompi_rules, coll::ompi_rules_file(sweep), "Open MPI dynamic rules");
  }
  (void)err;
  return 0;
}

}  // namespace mpisim::cli
