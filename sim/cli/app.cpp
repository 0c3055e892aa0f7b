// The composition root: parses the command line, loads the scenario and the
// network, runs, prints and writes. The only place that sees every part.
#include "sim/cli/app.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "model/coll/registry.hpp"
#include "model/coll/selection.hpp"
#include "model/net/network_file.hpp"
#include "model/net/topology.hpp"
#include "model/net/units.hpp"
#include "model/program/program.hpp"
#include "model/scenario/run.hpp"
#include "model/scenario/scenario.hpp"
#include "sim/cli/calibrate.hpp"
#include "sim/cli/cost.hpp"
#include "sim/cli/explain.hpp"
#include "sim/cli/figure.hpp"
#include "sim/cli/calls.hpp"
#include "sim/cli/types.hpp"
#include "sim/cli/cc.hpp"
#include "sim/cli/progress.hpp"
#include "sim/cli/report.hpp"
#include "sim/input_error.hpp"
#include "sim/json_writer.hpp"
#include "sim/suggest.hpp"

namespace mpisim::cli {
namespace {

struct RunFlags {
  std::string scenario;
  std::int64_t ranks = 0;
  std::string network;
  std::vector<std::string> algorithms;
  std::string selection;
  std::string payload;
  std::string progress;
  std::string send_mode;
  std::string out;
  std::string chrome;
  std::string html;
  std::string trace = "full";
  std::uint64_t max_events = 0;
  std::string max_sim_time;
  std::string max_memory;
  bool quiet = false;
  bool verify = false;
  std::vector<std::string> args;  // a C program's arguments
  std::string stack_size;         // a C program's stack per rank
  bool label = false;             // a C program's lines labelled with their rank
  std::string compute;            // a C program's own code: none or host
  std::string step;               // mpisim figure: the step drawn
  std::string figure_out;         // mpisim figure: the SVG file
};

void add_run_options(CLI::App* cmd, RunFlags& f, bool with_output) {
  cmd->add_option("scenario", f.scenario,
                  "the scenario file (JSON; docs/scenario-format.md), or a C program built by `mpisim cc` "
                  "(docs/c-programs.md)")
      ->required();
  cmd->add_flag("--label,-l", f.label,
                "prefix each line a C program's rank writes to stdout or stderr with [rank] (as mpiexec -l)");
  cmd->add_option("--compute", f.compute,
                  "what a C program's own code between MPI calls costs: none (default: nothing, so runs are "
                  "deterministic; mpisim_compute() charges time explicitly) or host (the host CPU time it took; "
                  "the run is then not deterministic, and the trace says so)")
      ->check(CLI::IsMember({"none", "host"}));
  cmd->add_option("args", f.args, "a C program's arguments, after -- (each rank's argv[1], ...)");
  cmd->add_option("--stack-size", f.stack_size,
                  "a C program's stack per rank, e.g. 4MiB (default 1MiB; an overflow is reported, not corrupted)");
  cmd->add_option("--ranks", f.ranks, "number of ranks (overrides the scenario's \"ranks\"; at most 2^24)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::int64_t n = 0;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (ec != std::errc{} || end != text.data() + text.size() || n < 1 || n > runner::kMaxRanks)
              return "expected a number of ranks from 1 to 2^24 = " + std::to_string(runner::kMaxRanks) + ", got \"" +
                     text + "\"";
            return "";
          },
          "1..2^24"));
  cmd->add_option("--network", f.network,
                  "network description file (overrides the scenario's \"network\"; default: the built-in "
                  "10-GbE-like Hockney network)");
  cmd->add_option("--algorithm", f.algorithms,
                  "choose a collective's algorithm, e.g. MPI_Scatter=linear (repeatable; see --list-algorithms)");
  cmd->add_option("--selection", f.selection,
                  "select the algorithm of every collective call that names none as MPICH or Open MPI would with "
                  "this tuning file loaded: MPICH 4.0's collective selection JSON or Open MPI 4.1's tuned dynamic "
                  "rules (what mpisim cost --mpich-tuning and --ompi-rules write); docs/cost.md");
  cmd->add_option("--payload", f.payload, "data: bytes are real (default); sizes: only byte counts move")
      ->check(CLI::IsMember({"data", "sizes"}));
  cmd->add_option("--send-mode", f.send_mode,
                  "standard (default: a standard send is eager up to the network's eager limit, rendezvous above) or "
                  "sync (every standard send of the program completes only once matched, as MPI_Ssend: a program "
                  "that is correct only thanks to buffering deadlocks, MPI-4.1 §3.5)")
      ->check(CLI::IsMember({"standard", "sync"}));
  cmd->add_option("--progress", f.progress,
                  "when nonblocking collectives advance: async (default: as their messages arrive, as with offload "
                  "or a progress thread) or in-mpi (only while their rank is inside an MPI call, as MPICH and Open "
                  "MPI without a progress thread); overrides the scenario's \"progress\"")
      ->check(CLI::IsMember({"async", "in-mpi"}));
  cmd->add_option("--max-events", f.max_events,
                  "stop after this many events and interpreted steps (default: 10^8 + 10^4 per rank, so that a "
                  "runaway loop ends; the scenario's limits.max_events also sets it); exit 2, trace kept");
  cmd->add_option("--max-sim-time", f.max_sim_time, "stop at this virtual time, e.g. 10ms (default: no limit)");
  cmd->add_option("--max-memory", f.max_memory,
                  "budget of the run, e.g. 24GiB (default 8GiB): the ranks' state (about 1.3 KB each, checked before "
                  "the run starts), the buffers' data, the provenance a full trace keeps and the messages not yet "
                  "received; going beyond it ends the run with LIMIT_MEMORY");
  cmd->add_flag("--verify", f.verify,
                "after every collective, compare each rank's result with the standard's definition (data mode); "
                "a difference is an internal error of mpisim (exit 1)");
  if (with_output) {
    cmd->add_option("--out", f.out, "write the trace JSON (schema mpisim-trace/1) to this file");
    cmd->add_option("--html", f.html, "write a self-contained page with the trace viewer and this run (opens offline)");
    cmd->add_option("--chrome-trace", f.chrome,
                    "write the run in the Trace Event Format (open it in Perfetto or chrome://tracing)");
    cmd->add_option("--trace", f.trace,
                    "what the trace keeps: full (calls, messages), calls (no messages), summary (counters only)")
        ->check(CLI::IsMember({"full", "calls", "summary"}));
    cmd->add_flag("--quiet,-q", f.quiet,
                  "print nothing on stdout (diagnostics still go to stderr) and no progress line; without it, a "
                  "long run shows its progress on stderr when that is a terminal");
  }
}

// Resolves a scenario-relative path: as given if it exists, else next to the scenario.
std::string resolve(const std::string& path, const std::string& scenario_file) {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path)) return path;
  fs::path beside = fs::path(scenario_file).parent_path() / path;
  return beside.string();
}

// A C program as the report sees it: a scenario with no steps, named after the file.
scenario::Scenario program_scenario(const RunFlags& f) {
  scenario::Scenario sc;
  sc.file = f.scenario;
  sc.name = std::filesystem::path(f.scenario).filename().string();
  sc.about = "C program";
  for (const auto& a : f.args) sc.about += " " + a;
  const bool host = f.compute == "host";
  if (host) sc.about += " (its code costs the host CPU time it took: not deterministic)";
  std::string src;
  sim::JsonWriter w(src, 0);
  w.begin_object().field("program", f.scenario).key("args").begin_array();
  for (const auto& a : f.args) w.value(a);
  w.end_array().field("compute", host ? "host" : "none").end_object();
  src.pop_back();
  sc.source_json = src;
  return sc;
}

int execute(const RunFlags& f, bool check_only, std::ostream& out, std::ostream& err, bool explain = false) {
  const bool is_program = program::is_program_file(f.scenario);
  if (!is_program && !f.args.empty())
    throw sim::InputError(f.args.front(), "arguments after the scenario are for C programs only; " + f.scenario +
                                              " is a scenario");
  if (is_program && explain)
    throw sim::InputError(f.scenario, "mpisim explain runs scenarios; run a C program with mpisim run or check");
  const bool figure = !f.step.empty();
  if (is_program && figure)
    throw sim::InputError(f.scenario, "mpisim figure draws a scenario's step; a C program's calls have no step to name");
  if (is_program && f.payload == "sizes")
    throw sim::InputError("--payload", "a C program's buffers are its own memory: it runs in data mode only");
  if (!is_program && !f.compute.empty())
    throw sim::InputError("--compute", "a scenario's computations are its compute steps; --compute is for C programs");
  if (!is_program && f.label) throw sim::InputError("--label", "a scenario writes no output of its own; --label is for C programs");
  if (!is_program && !f.stack_size.empty())
    throw sim::InputError("--stack-size", "a scenario has no stacks; --stack-size is for C programs");
  scenario::Scenario sc = is_program ? program_scenario(f) : scenario::load_scenario(f.scenario);
  runner::Config cfg;
  if (f.ranks > 0) cfg.ranks = f.ranks;
  else if (sc.ranks) cfg.ranks = *sc.ranks;
  else if (is_program) throw sim::InputError(f.scenario, "how many ranks? pass --ranks (as mpiexec's -n)");
  else throw sim::InputError(f.scenario + ": /ranks", "the scenario gives no number of ranks; add \"ranks\" or pass --ranks");
  if (!f.payload.empty()) cfg.payload = f.payload == "sizes" ? mpi::PayloadMode::sizes : mpi::PayloadMode::data;
  else if (sc.payload) cfg.payload = *sc.payload;
  if (!f.progress.empty()) cfg.progress_in_mpi = f.progress == "in-mpi";
  cfg.synchronous_sends = f.send_mode == "sync";
  // A trace nobody writes keeps only its counters: memory stays flat however long
  // the run (check, or run without --out, --html or --chrome-trace).
  const bool written = !check_only && (!f.out.empty() || !f.html.empty() || !f.chrome.empty());
  cfg.trace_level = f.trace == "calls" ? sim::TraceLevel::calls
                    : f.trace == "summary" || (!written && !explain) ? sim::TraceLevel::summary
                                                                      : sim::TraceLevel::full;
  if (!is_program) scenario::check_rank_count(sc, cfg.ranks);
  if (cfg.ranks > runner::kMaxRanks)
    throw sim::InputError(f.ranks > 0 ? "--ranks" : f.scenario + ": /ranks",
                          std::to_string(cfg.ranks) + " ranks is more than mpisim runs (at most 2^24 = " +
                              std::to_string(runner::kMaxRanks) + ")");
  // Limits: the command line, else the scenario's "limits", else the defaults.
  cfg.max_events = f.max_events ? f.max_events : sc.max_events;
  const std::string sim_time = !f.max_sim_time.empty() ? f.max_sim_time : sc.max_sim_time;
  if (!sim_time.empty()) {
    auto t = net::parse_time_ps(sim_time);
    if (!t || *t <= 0)
      throw sim::InputError(!f.max_sim_time.empty() ? std::string("--max-sim-time") : f.scenario + ": /limits/max_sim_time",
                            "expected a positive time with a unit, e.g. 10ms; got \"" + sim_time + "\"");
    cfg.max_sim_time_ps = static_cast<std::int64_t>(*t);
  }
  const std::string memory = !f.max_memory.empty() ? f.max_memory : !sc.max_memory.empty() ? sc.max_memory : "8GiB";
  {
    auto b = net::parse_bytes(memory);
    if (!b || *b == 0)
      throw sim::InputError(!f.max_memory.empty() ? std::string("--max-memory") : f.scenario + ": /limits/max_memory",
                            "expected a byte count, e.g. 2GiB; got \"" + memory + "\"");
    cfg.max_memory = static_cast<std::int64_t>(std::min<std::uint64_t>(*b, INT64_MAX));
  }
  cfg.algorithms = sc.algorithms;
  std::set<std::string> from_flags;  // the collectives --algorithm named (the rest are the scenario's)
  for (const auto& a : f.algorithms) {
    auto eq = a.find('=');
    if (eq == std::string::npos) throw sim::InputError("--algorithm", "expected COLLECTIVE=NAME, e.g. MPI_Scatter=linear; got \"" + a + "\"");
    cfg.algorithms[a.substr(0, eq)] = a.substr(eq + 1);
    from_flags.insert(a.substr(0, eq));
  }
  for (const auto& [c, name] : cfg.algorithms) {
    const std::string where = from_flags.count(c) ? "--algorithm" : f.scenario + ": /algorithms/" + c;
    bool known_collective = false, known = name == "auto";
    for (const auto& alg : coll::algorithms()) {
      if (coll::collective_name(alg.collective) != c) continue;
      known_collective = true;
      known = known || alg.name == name;
    }
    if (!known_collective) {
      sim::Suggestion near(c);
      for (const auto& alg : coll::algorithms()) near.consider(coll::collective_name(alg.collective));
      throw sim::InputError(where, "\"" + c + "\" is not a collective with algorithms" + near.hint() +
                                       "; mpisim --list-algorithms lists them");
    }
    if (!known) {
      sim::Suggestion near(name);
      for (const auto& alg : coll::algorithms())
        if (coll::collective_name(alg.collective) == c) near.consider(alg.name);
      throw sim::InputError(where, "no algorithm \"" + name + "\" for " + c + near.hint() +
                                       "; mpisim --list-algorithms lists them");
    }
  }
  if (!f.selection.empty()) cfg.selection = coll::Selection::load(f.selection);
  auto load_network = [&] {
    return !f.network.empty()    ? net::load_network_file(f.network)
           : !sc.network.empty() ? net::load_network_file(resolve(sc.network, sc.file))
                                 : net::default_network();
  };
  net::Network net = load_network();

  cfg.explain = explain;
  cfg.verify = f.verify;
  const scenario::Step* drawn = nullptr;
  if (figure) {
    drawn = scenario::find_step(sc, f.step);
    if (!drawn)
      throw sim::InputError("--step", "the scenario has no step " + f.step +
                                          " (a step's JSON pointer, e.g. /program/3; mpisim explain lists them)");
    coll::Collective kind{};
    if (drawn->kind != scenario::Step::call || calls::blocking_form(drawn->spec->id) ||
        !coll::collective_by_name(drawn->spec->name, &kind) || coll::neighborhood(kind))
      throw sim::InputError("--step", f.step + " is " +
                                          (drawn->kind == scenario::Step::call ? "a call of " + std::string(drawn->spec->name)
                                                                               : std::string("not a call")) +
                                          "; mpisim figure draws a blocking collective (MPI_Bcast ... MPI_Exscan)");
    if (cfg.payload == mpi::PayloadMode::sizes)
      throw sim::InputError("--payload", "mpisim figure draws the data a call moves; in sizes mode no data moves");
    cfg.figure_step = f.step;
    cfg.trace_level = sim::TraceLevel::full;  // the provenance that colours the cells
  }
  // A long run shows where it is on one line of a terminal's stderr, erased at the end.
  ProgressLine progress(err, !f.quiet);
  if (progress.on())
    cfg.progress = [&progress](const runner::Config::Progress& p) {
      char events[32];
      std::snprintf(events, sizeof events, "%.1f M", static_cast<double>(p.events) / 1e6);
      progress.show("mpisim: " + std::string(events) + " events, simulated time " + net::format_time(p.now_ps) +
                    ", " + std::to_string(p.ranks_done) + " of " + std::to_string(p.ranks) + " ranks done");
    };
  int exit_status = 0;  // MPI_Abort's errorcode; a C program's rank's nonzero exit status
  runner::Result r;
  if (is_program) {
    program::Options opt;
    opt.args = f.args;
    opt.label_output = f.label;
    opt.host_compute = f.compute == "host";
    if (!f.stack_size.empty()) {
      auto b = net::parse_bytes(f.stack_size);
      if (!b || *b < 64 * 1024 || *b > (std::uint64_t{1} << 32))
        throw sim::InputError("--stack-size", "expected a size from 64KiB to 4GiB, e.g. 4MiB; got \"" + f.stack_size + "\"");
      opt.stack_bytes = static_cast<std::size_t>(*b);
    }
    program::Loaded prog(f.scenario);
    program::ProgramResult pr = program::run_program(prog, net, cfg, opt);
    std::fflush(stdout);  // the program's output first
    if (!pr.stacks_guarded && !f.quiet)
      err << "mpisim: note: the ranks' stacks have no guard pages (" << pr.unguarded_reason
          << "); an overflow is found at the rank's next MPI call\n";
    r = std::move(pr.run);
    exit_status = pr.exit_status;
  } else {
    r = scenario::run_scenario(sc, net, cfg);
    if (figure && r.figure_call) {
      // The call is known now: the second run draws it at every member.
      cfg.figure_call = r.figure_call;
      net = load_network();  // a network model keeps the state of the run it served
      r = scenario::run_scenario(sc, net, cfg);
    }
    exit_status = r.exit_status;
  }
  progress.clear();
  if (explain) {
    print_explanation(out, sc, net, r);
    return r.outcome == runner::Outcome::clean ? 0 : r.outcome == runner::Outcome::erroneous ? 2 : 1;
  }
  if (figure) {
    print_diagnostics(err, r);
    if (r.figure.empty())
      throw sim::InputError("--step", "no rank made the call at " + f.step + " in this run (a filter or an earlier error)");
    const calls::CallSpec& spec = *drawn->spec;
    const std::string svg = figure_svg(std::string(spec.name) + " at " + f.step + " of " + (sc.name.empty() ? sc.file : sc.name) +
                                           ", " + std::to_string(r.ranks) + " ranks",
                                       std::string(spec.section) + ": " + spec.summary, r.figure);
    if (f.figure_out.empty() || f.figure_out == "-") {
      out << svg;
    } else {
      std::ofstream o(f.figure_out, std::ios::binary);
      if (!o) throw sim::InputError(f.figure_out, "cannot write the figure");
      o << svg;
      if (!f.quiet) out << "figure of " << spec.name << " at " << f.step << " (" << r.figure.size() << " ranks) written to "
                        << f.figure_out << "\n";
    }
    return r.outcome == runner::Outcome::clean ? 0 : r.outcome == runner::Outcome::erroneous ? 2 : 1;
  }

  if (!check_only && !f.out.empty()) {
    std::ofstream o(f.out, std::ios::binary);
    if (!o) throw sim::InputError(f.out, "cannot write the trace file");
    o << trace_json(sc, net, r);
  }
  if (!check_only && !f.html.empty()) {
    std::ofstream o(f.html, std::ios::binary);
    if (!o) throw sim::InputError(f.html, "cannot write the HTML page");
    o << html_page(trace_json(sc, net, r));
  }
  if (!check_only && !f.chrome.empty()) {
    std::ofstream o(f.chrome, std::ios::binary);
    if (!o) throw sim::InputError(f.chrome, "cannot write the Chrome trace file");
    o << chrome_trace_json(sc, r);
  }
  if (!check_only && !f.quiet) {
    print_summary(out, sc, net, r);
    if (!f.out.empty()) out << "trace written to " << f.out << "\n";
    if (!f.html.empty()) out << "viewer page written to " << f.html << "\n";
    if (!f.chrome.empty()) out << "Chrome trace written to " << f.chrome << "\n";
  }
  if (check_only && r.trace.diagnostics().empty())
    out << f.scenario << ": no diagnostics (" << r.ranks << " ranks)\n";
  print_diagnostics(err, r);
  // As mpiexec; a status the shell would read as 0 (256, ...) stays an error.
  if (exit_status != 0) return (exit_status & 0xff) != 0 ? exit_status & 0xff : 2;
  switch (r.outcome) {
    case runner::Outcome::clean: return 0;
    case runner::Outcome::erroneous: return 2;
    case runner::Outcome::internal_error: return 1;
  }
  return 1;
}

void list_algorithms(std::ostream& out) {
  auto pad = [](std::string_view s, std::size_t w) { return std::string(s) + std::string(w > s.size() ? w - s.size() : 1, ' '); };
  out << pad("collective", 26) << pad("algorithm", 28) << pad("restrictions", 14) << "description\n";
  for (const auto& a : coll::algorithms()) {
    std::string restr;
    if (a.restrictions.commutative_only) restr += "commutative";
    if (a.restrictions.power_of_two_only) restr += restr.empty() ? "power-of-two" : ",power-of-two";
    if (a.restrictions.two_only) restr += restr.empty() ? "two-ranks" : ",two-ranks";
    if (a.restrictions.intercomm) restr += restr.empty() ? "intercomm" : ",intercomm";
    if (restr.empty()) restr = "-";
    out << pad(coll::collective_name(a.collective), 26) << pad(a.name, 28) << pad(restr, 14) << a.description << "\n";
  }
  out << "\nEvery collective also takes \"auto\": MPICH's default selection (docs/collectives.md).\n";
  out << "\nThe same algorithms in the libraries' tuning files (mpisim cost --mpich-tuning, --ompi-rules;\n"
         "docs/cost.md): MPICH 4.0's name, Open MPI 4.1's tuned algorithm number (and segment size)\n";
  for (const auto& a : coll::algorithms()) {
    if (a.library.mpich.empty() && a.library.ompi == 0) continue;
    std::string ompi = a.library.ompi == 0 ? "-" : std::to_string(a.library.ompi);
    if (a.library.ompi_segsize) ompi += " (segments of " + std::to_string(a.library.ompi_segsize) + " bytes)";
    out << pad(coll::collective_name(a.collective), 26) << pad(a.name, 28)
        << pad(a.library.mpich.empty() ? "-" : a.library.mpich, 56) << ompi << "\n";
  }
}

void list_models(std::ostream& out) {
  out << "Network models (the \"model\" of a network file; docs/cost-models.md):\n";
  for (const auto& m : net::model_kinds()) out << "  " << m.name << ": " << m.description << "\n    fields: " << m.parameters << "\n";
}

void list_topologies(std::ostream& out) {
  out << "Topologies (the \"topology\" of a network file whose model is \"topology\"; docs/cost-models.md):\n";
  for (const auto& t : net::topology_kinds())
    out << "  " << t.name << ": " << t.description << "\n    fields: kind, " << t.parameters << "\n";
}

void add_cost_options(CLI::App* cmd, CostFlags& f) {
  cmd->add_option("collective", f.collective, "the collective, e.g. MPI_Allreduce")->required();
  cmd->add_option("--ranks", f.ranks,
                  "rank count(s): 64, a list 4,16,64, or a range 4..4096 (doubling; 4..4096:4 quadruples) "
                  "(default 16)");
  cmd->add_option("--bytes", f.bytes,
                  "message size(s), the call's count in bytes: 1MiB, a list, or a range 8..16MiB (a geometric "
                  "range of at most 12 points unless :FACTOR is given) (default 8..1MiB)");
  cmd->add_option("--network", f.network, "network description file (default: the built-in 10-GbE-like Hockney network)");
  cmd->add_option("--algorithm", f.algorithms, "time only this algorithm (repeatable; default: every eligible one)");
  cmd->add_option("--payload", f.payload, "sizes: only byte counts move (default); data: real bytes")
      ->check(CLI::IsMember({"data", "sizes"}));
  cmd->add_option("--json", f.json, "write the results as JSON Lines, one object per (ranks, bytes, algorithm)");
  cmd->add_option("--csv", f.csv, "write the results as CSV");
  cmd->add_option("--svg", f.svg, "write a plot of time against size per algorithm, one panel per rank count");
  cmd->add_option("--shard", f.shard,
                  "run only part i of n of the (ranks, bytes) points, e.g. 2/8, for job arrays; the JSON Lines of "
                  "the parts concatenate into the whole");
  cmd->add_option("--mpich-tuning", f.mpich_tuning,
                  "write MPICH's collective selection JSON (load it with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE): "
                  "this collective as predicted fastest, every other one as MPICH's default selection");
  cmd->add_option("--ompi-rules", f.ompi_rules,
                  "write Open MPI's tuned dynamic rules (load them with --mca coll_tuned_use_dynamic_rules 1 --mca "
                  "coll_tuned_dynamic_rules_filename FILE) choosing the predicted fastest algorithm");
  cmd->add_option("--selection", f.selection,
                  "a column of what this tuning file selects at each point, and its time: MPICH 4.0's collective "
                  "selection JSON or Open MPI 4.1's tuned dynamic rules (e.g. a file --mpich-tuning or --ompi-rules "
                  "wrote)");
  cmd->add_flag("--quiet,-q", f.quiet, "print no table (and no progress line on a terminal)");
  cmd->footer(
      "Each point runs one call of the collective on MPI_COMM_WORLD from time 0 with each algorithm forced;\n"
      "its time is the makespan. Reductions use MPI_DOUBLE and MPI_SUM (bytes rounded up to 8), the rest\n"
      "MPI_BYTE. --bytes is the count argument: per rank for gather, scatter, allgather; per pair for\n"
      "alltoall; the whole buffer for bcast, reduce, allreduce, scan, exscan; each rank's block of the\n"
      "result for reduce_scatter(_block). docs/cost.md has the details.\nExamples:\n"
      "  mpisim cost MPI_Allreduce --ranks 1024 --bytes 8..16MiB --network scenarios/networks/crossbar-10g.json\n"
      "  mpisim cost MPI_Bcast --ranks 4..4096 --bytes 64KiB --svg bcast.svg --json bcast.jsonl\n"
      "  mpisim cost MPI_Allreduce --ranks 16,64 --bytes 8..16MiB --mpich-tuning mpich.json --ompi-rules ompi.conf\n"
      "  mpisim cost MPI_Allreduce --ranks 16..256 --bytes 8..16MiB --selection mpich.json");
}


}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"mpisim: a deterministic discrete-event simulator of MPI semantics.\n"
               "Runs MPI programs written as JSON scenarios over a network cost model and records\n"
               "every call, message and buffer as a JSON trace.",
               "mpisim"};
  app.require_subcommand(0, 1);
  bool version = false, list_alg = false, list_model = false, list_topology = false;
  std::string calls_format = "text";
  app.add_flag("--version", version, "print the version and exit");
  app.add_flag("--list-algorithms", list_alg, "list the registered collective algorithms and exit");
  CLI::Option* list_call =
      app.add_option("--list-calls", calls_format,
                     "list the MPI calls scenarios can make, with their parameters and sections, and exit; "
                     "--list-calls markdown prints docs/calls.md (each call's parameters and definition), "
                     "--list-calls json the names as a JSON array (the schema's list)")
          ->expected(0, 1)
          ->check(CLI::IsMember({"text", "markdown", "json"}));
  std::string types_format = "text";
  CLI::Option* list_type =
      app.add_option("--list-types", types_format,
                     "list the predefined datatypes with their sizes, extents and the reduction operations that "
                     "take them, and exit; --list-types markdown prints docs/types.md")
          ->expected(0, 1)
          ->check(CLI::IsMember({"text", "markdown"}));
  app.add_flag("--list-models", list_model, "list the network models a network file can use, and exit");
  app.add_flag("--list-topologies", list_topology, "list the topologies of the topology model, and exit");
  app.footer(
      "Exit status: 0 clean; 2 the scenario or the simulated MPI program is erroneous (or an expect failed);\n"
      "1 mpisim itself failed; a C program's MPI_Abort errorcode or nonzero exit status, as mpiexec.\nExamples:\n"
      "  mpisim run scenarios/seed/scatter.json --out trace.json\n"
      "  mpisim run scenarios/ring.json --ranks 65536 --payload sizes --trace summary\n"
      "  mpisim check scenarios/errors/deadlock.json\n"
      "  mpisim explain scenarios/seed/scatter.json\n"
      "  mpisim cc ring.c -o ring && mpisim run ring --ranks 8 -- 100\n"
      "  mpisim cost MPI_Allreduce --ranks 64 --bytes 8..16MiB --svg allreduce.svg\n"
      "  mpisim calibrate osu_latency.txt osu_bw.txt -o cluster.json");

  // mpisim cc: every argument is the C compiler's, so it is handled before parsing.
  if (argc >= 2 && std::string_view(argv[1]) == "cc") return compile_program(argc - 2, argv + 2, err);
  // An unknown command is an error, also with --help after it, with the command it resembles.
  if (argc >= 2 && argv[1][0] != '-') {
    static constexpr std::string_view kCommands[] = {"run", "check", "explain", "figure", "cost", "calibrate", "cc"};
    const std::string_view word = argv[1];
    if (std::find(std::begin(kCommands), std::end(kCommands), word) == std::end(kCommands)) {
      sim::Suggestion near(word);
      for (auto c : kCommands) near.consider(c);
      err << "error: unknown command \"" << word << "\"" << near.hint()
          << "; the commands are run, check, explain, figure, cost, calibrate and cc (mpisim --help)";
      if (word.ends_with(".json") || program::is_program_file(std::string(word)))
        err << "; to run " << word << ": mpisim run " << word;
      err << "\n";
      return 2;
    }
  }
  // Options nobody declared are collected and refused after parsing, with the
  // command's option they resemble (CLI11 would only say they were not expected).
  app.allow_extras();
  app.add_subcommand("cc", "compile and link a C MPI program for mpisim run; the arguments are the C compiler's, as "
                           "with mpicc (docs/c-programs.md)");

  RunFlags run_flags, check_flags, explain_flags;
  CLI::App* run = app.add_subcommand(
      "run", "run a scenario or a C program: print a summary, optionally write the trace");
  add_run_options(run, run_flags, true);
  CLI::App* check = app.add_subcommand("check", "run a scenario and report only its diagnostics");
  add_run_options(check, check_flags, false);
  CLI::App* explain = app.add_subcommand(
      "explain", "run a scenario and print each step: the standard's definition with this run's values, and the "
                 "buffers it changed at each rank");
  add_run_options(explain, explain_flags, false);
  RunFlags figure_flags;
  CLI::App* figure = app.add_subcommand(
      "figure", "draw one collective call of a scenario as the standard's figures of data movement do: a row per "
                "process, a cell per block, before and after the call, coloured by the rank each block's data came "
                "from; as SVG (docs/figures.md)");
  add_run_options(figure, figure_flags, false);
  figure->add_option("--step", figure_flags.step, "the step to draw: its JSON pointer, e.g. /program/4 (mpisim explain lists them)")
      ->required();
  figure->add_option("-o,--output", figure_flags.figure_out, "the SVG file to write (default: standard output)");
  figure->add_flag("--quiet,-q", figure_flags.quiet, "print nothing but diagnostics");
  CostFlags cost_flags;
  CLI::App* cost = app.add_subcommand(
      "cost", "predict every algorithm's time for a collective over sizes and rank counts on a network: "
              "a table, JSON Lines, CSV, an SVG plot");
  add_cost_options(cost, cost_flags);
  CalibrateFlags calibrate_flags;
  CLI::App* calibrate = app.add_subcommand(
      "calibrate", "fit a network file (Hockney, piecewise Hockney, LogGP) to ping-pong measurements: osu_latency "
                   "or osu_bw output, or a CSV of size and time");
  add_calibrate_options(calibrate, calibrate_flags);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help (of mpisim or a subcommand) exits 0; a usage error exits 2.
    if (e.get_exit_code() == 0) return app.exit(e, out, err);
    err << "error: " << e.what() << " (" << (argc >= 2 && argv[1][0] != '-' ? "mpisim " + std::string(argv[1]) : "mpisim")
        << " --help)\n";
    return 2;
  }
  for (CLI::App* cmd : {&app, run, check, explain, figure, cost, calibrate}) {
    if (cmd != &app && !cmd->parsed()) continue;
    std::vector<std::string> extra = cmd->remaining();
    // With extras allowed, CLI11 keeps the "--" that ends the options among them.
    std::erase(extra, "--");
    if (extra.empty()) continue;
    const std::string command = cmd == &app ? "mpisim" : "mpisim " + cmd->get_name();
    const std::string& word = extra.front();
    if (word.size() < 2 || word[0] != '-') {
      err << "error: " << command << ": unexpected argument \"" << word << "\" (" << command << " --help)\n";
      return 2;
    }
    const std::string option = word.substr(0, word.find('='));
    sim::Suggestion near(option);
    for (const CLI::Option* o : cmd->get_options()) {
      for (const auto& l : o->get_lnames()) near.consider("--" + l);
      for (const auto& s : o->get_snames()) near.consider("-" + s);
    }
    err << "error: " << command << ": unknown option \"" << option << "\"" << near.hint() << " (" << command
        << " --help lists the options)\n";
    return 2;
  }
  if (version) {
    out << "mpisim " << kVersion << " (trace schema " << kTraceSchema << ")\n";
    return 0;
  }
  if (list_alg) {
    list_algorithms(out);
    return 0;
  }
  if (list_call->count() > 0) {
    print_calls(out, calls_format.empty() ? "text" : calls_format);
    return 0;
  }
  if (list_type->count() > 0) {
    print_types(out, types_format.empty() ? "text" : types_format);
    return 0;
  }
  if (list_model) {
    list_models(out);
    return 0;
  }
  if (list_topology) {
    list_topologies(out);
    return 0;
  }
  try {
    if (run->parsed()) return execute(run_flags, false, out, err);
    if (check->parsed()) return execute(check_flags, true, out, err);
    if (explain->parsed()) return execute(explain_flags, true, out, err, true);
    if (figure->parsed()) return execute(figure_flags, false, out, err);
    if (cost->parsed()) return run_cost(cost_flags, out, err);
    if (calibrate->parsed()) return run_calibrate(calibrate_flags, out, err);
  } catch (const sim::InputError& e) {
    err << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "mpisim: internal error: " << e.what() << "\n";
    return 1;
  }
  out << app.help();
  return 2;
}

}  // namespace mpisim::cli
