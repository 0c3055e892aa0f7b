#include "sim/cli/calibrate.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>

#include "model/net/calibrate.hpp"
#include "model/net/units.hpp"
#include "sim/input_error.hpp"
#include "sim/input_file.hpp"

namespace mpisim::cli {

void add_calibrate_options(CLI::App* cmd, CalibrateFlags& f) {
  cmd->add_option("files", f.files,
                  "measurements: osu_latency's or osu_bw's output, or CSV lines of \"bytes,microseconds\" (one-way "
                  "times); several files combine")
      ->required();
  cmd->add_option("--model", f.model,
                  "the form to fit: hockney (alpha + n*beta), piecewise (Hockney below and above an eager/rendezvous "
                  "break) or loggp (default hockney)")
      ->check(CLI::IsMember({"hockney", "piecewise", "loggp"}));
  cmd->add_option("--name", f.name, "the network's name in the file (default calibrated)");
  cmd->add_option("--overhead", f.overhead,
                  "loggp: the CPU overhead o, e.g. 0.3us (a ping-pong shows only 2o + L; default 0)");
  cmd->add_option("--eager-limit", f.eager_limit,
                  "piecewise: the break in bytes, e.g. 64KiB (default: where the two pieces fit best)");
  cmd->add_option("--out,-o", f.out,
                  "write the network file here and the report to standard output (default: the network file to "
                  "standard output, the report to standard error)");
  cmd->footer(
      "The fit minimises the relative error of every measurement; the report lists each one beside the\n"
      "fitted model's prediction. docs/cost-models.md (\"Calibration\") has the details.\nExamples:\n"
      "  mpisim calibrate osu_latency.txt osu_bw.txt -o cluster.json\n"
      "  mpiexec -n 2 ./pingpong > pingpong.csv && mpisim calibrate pingpong.csv --model piecewise > net.json");
}

int run_calibrate(const CalibrateFlags& f, std::ostream& out, std::ostream& err) {
  net::Measurements m;
  for (const std::string& file : f.files) net::read_measurements(sim::read_input_file(file, "the measurements"), file, m);
  net::FitOptions o;
  o.form = f.model == "piecewise" ? net::FitForm::piecewise : f.model == "loggp" ? net::FitForm::loggp : net::FitForm::hockney;
  o.name = f.name;
  if (!f.overhead.empty()) {
    if (o.form != net::FitForm::loggp) throw sim::InputError("--overhead", "applies to --model loggp only");
    auto v = net::parse_time_ps(f.overhead);
    if (!v) throw sim::InputError("--overhead", "expected a time with a unit, e.g. 0.3us; got \"" + f.overhead + "\"");
    o.overhead_ps = *v;
  }
  if (!f.eager_limit.empty()) {
    if (o.form != net::FitForm::piecewise) throw sim::InputError("--eager-limit", "applies to --model piecewise only");
    auto v = net::parse_bytes(f.eager_limit);
    if (!v) throw sim::InputError("--eager-limit", "expected a byte count such as 65536 or 64KiB; got \"" + f.eager_limit + "\"");
    o.eager_limit = *v;
  }
  const net::Fit fit = net::fit_network(m, o);

  std::ostream& report = f.out.empty() ? err : out;
  report << "calibration: " << f.model << " fitted to " << fit.rows.size() << " measurements\n";
  report << "  bytes        kind       measured      predicted    error\n";
  for (const net::FitRow& r : fit.rows) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-12.0f %-9s %12s %14s %+7.1f %%\n", r.bytes, r.streaming ? "streaming" : "one-way",
                  net::format_time(std::llround(r.measured_ps)).c_str(),
                  net::format_time(std::llround(r.predicted_ps)).c_str(),
                  100 * (r.predicted_ps - r.measured_ps) / r.measured_ps);
    report << line;
  }
  char summary[120];
  std::snprintf(summary, sizeof summary, "error: at most %.1f %%, rms %.1f %%\n", 100 * fit.max_error, 100 * fit.rms_error);
  report << summary;
  for (const std::string& n : fit.notes) report << "note: " << n << "\n";
  if (f.out.empty()) {
    out << fit.network_json;
    return 0;
  }
  std::ofstream file(f.out);
  file << fit.network_json;
  if (!file.flush()) {
    err << "error: cannot write the network file " << f.out << "\n";
    return 2;
  }
  report << "wrote " << f.out << "\n";
  return 0;
}

}  // namespace mpisim::cli
