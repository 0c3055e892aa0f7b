#pragma once
// Running a world: what every front-end's run shares. A front-end (a scenario's
// interpreter, a C program's fibers) gives each rank its program; the runner
// checks the ranks' state against the memory budget, sets the engine's limits and
// the world's rules of progress, spawns the ranks, runs the engine, and tells how
// the run ended (a failure, a limit, a deadlock, operations left unfinished) and
// what it cost.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/coll/coordinator.hpp"
#include "model/coll/selection.hpp"
#include "model/mpi/memory.hpp"
#include "model/mpi/runtime.hpp"
#include "model/net/network_file.hpp"
#include "sim/engine.hpp"
#include "sim/task.hpp"
#include "sim/trace.hpp"

namespace mpisim::runner {

struct Config {
  std::int64_t ranks = 0;                          // resolved: scenario or --ranks
  mpi::PayloadMode payload = mpi::PayloadMode::data;
  sim::TraceLevel trace_level = sim::TraceLevel::full;
  std::map<std::string, std::string> algorithms;   // collective -> algorithm (CLI over scenario)
  // --selection: a library's tuning file selecting the algorithm of every call
  // that names none (null: mpisim's default selection, MPICH's).
  std::shared_ptr<const coll::Selection> selection;
  bool explain = false;                            // record every buffer before and after each call
  // mpisim figure, in two runs. The first names a blocking collective's step by
  // its JSON pointer (figure_step) and learns which call the first rank to reach
  // it makes (Result::figure_call: the communicator's context and the call's
  // number on it); the second gives that call (figure_call), and every member
  // records its buffers before and after it, from whichever step it makes it
  // (Result::figure).
  std::string figure_step;
  std::optional<std::pair<std::uint32_t, std::int64_t>> figure_call;
  bool verify = false;                             // compare every collective's result with the standard's definition
  // When nonblocking collectives advance (mpi::World::Progress): only while their
  // rank is inside an MPI call (true), asynchronously (false), or as the
  // front-end says (unset: a scenario's "progress", else async).
  std::optional<bool> progress_in_mpi;
  // --send-mode sync: the program's standard sends complete only once matched.
  bool synchronous_sends = false;
  // Limits: events and interpreted steps (0: default_max_events), virtual time
  // (0: none, up to 2^62 ps), bytes of simulated buffers (0: the default budget).
  std::uint64_t max_events = 0;
  std::int64_t max_sim_time_ps = 0;
  std::int64_t max_memory = 0;
  // Called now and then during a long run (every 2^21 events, from 2^22 on) with
  // where it is; for a progress display, never for a result.
  struct Progress {
    std::uint64_t events = 0;
    std::int64_t now_ps = 0;
    std::uint64_t ranks_done = 0, ranks = 0;
  };
  std::function<void(const Progress&)> progress;
};

// The largest number of ranks a run accepts (2^24; the design point is 2^20).
inline constexpr std::int64_t kMaxRanks = std::int64_t{1} << 24;

// One call at one rank, with the buffers it changed (mpisim explain).
struct ExplainEntry {
  std::string path;                                // the step's JSON pointer
  std::string call;
  std::int64_t rank = 0;
  std::string args_json;
  std::string algorithm;
  std::int64_t start_ps = 0, end_ps = 0;
  // A collective's role at this rank ("root", "non-root"; "" for the others) and
  // whether it passed MPI_IN_PLACE; args_json then holds only the arguments
  // significant at the rank (those the library read).
  std::string role;
  bool in_place = false;
  struct Change {
    std::string buffer, before, after;  // equal when the call wrote the values the buffer held
  };
  std::vector<Change> changes;
  // What the call gave back at this rank: each output parameter and its value in
  // words ("g1 = {0, 2, 4}", "t: size 8, extent 16, lb 0").
  std::vector<std::pair<std::string, std::string>> results;
};

enum class Outcome { clean, erroneous, internal_error };

struct Result {
  Outcome outcome = Outcome::clean;
  int exit_status = 0;  // MPI_Abort's errorcode; else 0 (the outcome gives the status)
  sim::Trace trace;
  // Per rank, when it returned from its program; nothing for a rank the run
  // stopped before it ended (blocked in a deadlock, or an error elsewhere).
  std::vector<std::optional<std::int64_t>> finish_ps;
  // When the last rank ended; if some never did, when the run stopped (a
  // deadlock's time, an error's), so an erroneous run's length is not zero.
  std::int64_t makespan_ps = 0;
  std::uint64_t events = 0;
  std::int64_t ranks = 0;
  mpi::PayloadMode payload = mpi::PayloadMode::data;
  // Per collective call name, the algorithms its calls ran, in the order first used.
  std::map<std::string, std::vector<std::string>> algorithms_used;
  void used_algorithm(const std::string& call, std::string_view algorithm) {
    auto& v = algorithms_used[call];
    if (std::find(v.begin(), v.end(), algorithm) == v.end()) v.emplace_back(algorithm);
  }
  struct CollectiveTotals {
    std::int64_t calls = 0;
    std::int64_t time_ps = 0;                      // each call from its first entry to its last exit
  };
  std::map<std::string, CollectiveTotals> collectives;  // per collective name
  std::vector<std::pair<std::string, std::string>> network_parameters;
  std::string network_kind;
  std::vector<net::LinkUsage> links;               // what each link carried (topology models)
  std::vector<ExplainEntry> explain;               // with Config::explain
  // With Config::figure_step: per rank that made the call, in the order they
  // returned from it, a JSON object: {"rank", "role", "regions": [{"argument",
  // "block", "writes", "before", "after"}]}, each region a buffer argument (a
  // block of it, for per-process blocks) as the library reads or writes it, its
  // contents as a snapshot's data (values, origins, combined).
  std::vector<std::string> figure;
  std::optional<std::pair<std::uint32_t, std::int64_t>> figure_call;
  // Every datatype the program built, for the viewer's drawing of its type map
  // (full traces only): the JSON object, and the ranks that built it so.
  struct DatatypeDrawing {
    std::string json;
    std::vector<std::int64_t> ranks;
  };
  std::vector<DatatypeDrawing> datatypes;
};

// The limit of events and interpreted steps when none is given: 10^8 plus 10^4
// per rank, so a runaway loop stops in seconds on a few ranks while a
// million-rank collective (some 100 events per rank) is far from it.
constexpr std::uint64_t default_max_events(std::int64_t ranks) {
  return 100'000'000 + 10'000 * static_cast<std::uint64_t>(ranks);
}

// "the run reached the limit of N events and interpreted steps (...)": what a
// LIMIT_EVENTS diagnostic says, with how to set another limit.
std::string events_limit_text(std::uint64_t limit);

// What a front-end tells of a rank for the diagnostics: the call it is in ("" if
// none), where in its program ("/program/3", "prog.c:12"; "" if unknown) and the
// scenario step's index (-1 if none).
struct RankPlace {
  std::string call, where;
  std::int32_t step = -1;
};

// A front-end, as the runner sees it.
class FrontEnd {
 public:
  virtual ~FrontEnd() = default;
  // Rank r's program, as the engine's process r.
  virtual sim::ProcessTask rank_program(std::uint32_t r) = 0;
  // Where rank r is, for the diagnostics.
  virtual RankPlace place(std::uint32_t r) const = 0;
  // The front-end's own kinds of failure: fills the diagnostic and returns true
  // for one it knows (the run is then erroneous), false for the others.
  virtual bool classify(const std::exception_ptr& /*error*/, const RankPlace& /*where*/, sim::Diagnostic& /*d*/) const {
    return false;
  }
  // The collectives the ranks called (their totals go to the result).
  virtual const coll::Coordinator& coordinator() const = 0;
  // After the run concluded, before the engine destroys the ranks' processes:
  // drop what still waits (blocked steps, activities).
  virtual void abandon() = 0;
};

// One run of a world, in three steps: construct (the budget is checked: a run
// over it is refused with its LIMIT_MEMORY diagnostic in the result), let the
// front-end set itself up over world(), then run(front_end). The result is the
// caller's, and lives longer than this.
class WorldRun {
 public:
  // `rank_bytes`: what a rank costs beyond the world's own state (a C program's
  // stack and fiber), and `what_costs` says what that is, for the diagnostic.
  WorldRun(net::Network& net, const Config& cfg, Result& res, std::int64_t rank_bytes = 0,
           std::string_view what_costs = "");
  WorldRun(const WorldRun&) = delete;
  WorldRun& operator=(const WorldRun&) = delete;
  ~WorldRun();

  bool refused() const { return !world_; }
  mpi::World& world() { return *world_; }
  sim::Engine& engine() { return engine_; }
  const Config& config() const { return cfg_; }
  Result& result() { return res_; }

  // Spawns every rank's program, runs the engine to its end and concludes.
  void run(FrontEnd& fe);

 private:
  net::Network& net_;
  Config cfg_;
  Result& res_;
  sim::Engine engine_;
  std::optional<mpi::World> world_;
};

// After the engine stopped: the diagnostic of a failure, a limit, a deadlock, a
// collective or communication left unfinished, if any, and the outcome.
void conclude(mpi::World& world, sim::Engine& engine, const Config& cfg, Result& res, const FrontEnd& fe);

}  // namespace mpisim::runner
